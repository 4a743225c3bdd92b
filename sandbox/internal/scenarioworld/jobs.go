package scenarioworld

// Delayed effects of scenario rules: an e-mail to a signer that bounces,
// and a signer who views, signs or declines, some world time after the
// request was sent. They are scheduler jobs (data, exported with the
// world) that call the same transitions as the control plane's signer
// simulation.

import (
	"encoding/json"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Job kinds of scenario effects.
const (
	jobScenarioBounce = "scenario.bounce"
	jobScenarioSigner = "scenario.signer_action"
)

// recheck is how often a delayed effect looks again while its signer
// cannot act yet (an ordered signer whose turn, or first e-mail, has not
// come): the effect then happens its delay after the turn came, to the
// minute.
const recheck = time.Minute

// signerEffectArgs are the arguments of both job kinds.
type signerEffectArgs struct {
	Rule        string `json:"rule"`
	SignatureID string `json:"signature_id"`
	Generation  int    `json:"generation"`
	// Delay is the rule's delay (nanoseconds); Waited is set once the job
	// had to wait for the signer's turn.
	Delay  int64          `json:"delay"`
	Waited bool           `json:"waited,omitempty"`
	Do     string         `json:"do,omitempty"`
	Reason string         `json:"reason,omitempty"`
	Values map[string]any `json:"values,omitempty"`
}

// RegisterJobs adds the job kind that carries out a rule's signer effect
// when its time comes.
func RegisterJobs(r *api.Registry) {
	r.RegisterJob(jobScenarioBounce, runSignerEffect)
	r.RegisterJob(jobScenarioSigner, runSignerEffect)
}

// scheduleSignerEffects queues a rule's effect for every signer of req
// matching glob ("" for all).
func scheduleSignerEffects(tx *state.Txn, req *model.SignatureRequest, row *model.ScenarioRule, spec *scenario.Rule, glob string) error {
	kind, after := jobScenarioBounce, ""
	args := signerEffectArgs{Rule: row.ID, Generation: req.Generation}
	if spec.Bounce != nil {
		after = spec.Bounce.After
	}
	if sa := spec.SignerAction; sa != nil {
		kind, after = jobScenarioSigner, sa.After
		args.Do, args.Reason, args.Values = sa.Do, sa.Reason, sa.Values
	}
	var delay time.Duration
	if after != "" {
		d, err := scenario.ParseDuration(after)
		if err != nil {
			return err
		}
		delay = d
	}
	args.Delay = int64(delay)
	for _, sg := range req.Signatures {
		if glob != "" && !scenario.Glob(glob, sg.Email) {
			continue
		}
		a := args
		a.SignatureID = sg.ID
		if _, err := state.Schedule(tx, kind, req.ID, delay, a); err != nil {
			return err
		}
	}
	return nil
}

// runSignerEffect performs a delayed effect when its signer can be acted
// for, waits when the signer's turn (or first e-mail) has not come, and
// drops it when the request moved on (edited, canceled, finished) or the
// signer was replaced.
func runSignerEffect(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	var a signerEffectArgs
	if err := json.Unmarshal(job.Args, &a); err != nil {
		return nil
	}
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
	if err != nil || req.Generation != a.Generation || req.Phase != model.PhaseSent || req.CancelPending {
		return nil
	}
	sg := req.Signature(a.SignatureID)
	if sg == nil || sg.Status != model.SigAwaiting {
		return nil
	}
	ready := sigreq.IsTurn(req, sg)
	if job.Kind == jobScenarioBounce {
		ready = sg.Notified
	}
	switch {
	case !ready:
		a.Waited = true
		_, err := state.Schedule(tx, job.Kind, job.Subject, recheck, a)
		return err
	case a.Waited && a.Delay > 0:
		a.Waited = false
		_, err := state.Schedule(tx, job.Kind, job.Subject, time.Duration(a.Delay), a)
		return err
	}
	do := a.Do
	if job.Kind == jobScenarioBounce {
		do = "bounce"
	}
	if err := signerDo(s, tx, a.SignatureID, do, a.Reason, a.Values); err != nil {
		// The signer cannot do it (decline not allowed, ...): the rule's
		// effect does not happen, as a real signer's attempt would fail.
		w.Logger().Info("scenario effect not applied", "rule", a.Rule, "signature", a.SignatureID, "err", err)
	}
	return nil
}
