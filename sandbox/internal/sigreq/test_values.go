package sigreq

// Reserved test values at work (internal/testvalues says what each value
// means; docs/test-values.md is the table): a signer at a reserved address
// acts by themselves some world time after their turn comes, and a
// document or address that asks for a failure fails the request's
// processing. Both go through the transitions a real party's action
// takes (the control plane's signer actions, expire, fail), so
// callbacks, e-mails, response_data and the merged PDF are those of a
// person acting. The world configuration's test_values turns them off.
//
// Two narrow hooks start them: applyOutcome calls scheduleTestValues for
// every outcome (a signer becomes active when the request is sent or
// released, when the signer before them signs, and when a reassignment
// or an update brings a new signer), and runSigreqProcess asks
// testValueFailure before the failures processing finds itself.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/testvalues"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobTestValue is a reserved signer acting: its subject is the request,
// its arguments testValueArgs.
const jobTestValue = "signature_request.test_value"

// testValueArgs tie a reserved signer's action to the request version and
// the signature it was scheduled for: an edit (a new generation), a
// reassignment or an update (a new signature id) leaves it nothing to do.
type testValueArgs struct {
	Generation  int    `json:"generation"`
	SignatureID string `json:"signature_id"`
}

// scheduleTestValues queues the action of every reserved signer that the
// outcome made active: out for signature, awaiting, sent the request (an
// embedded signer counts once their turn came) and it is their turn,
// where before the outcome they were not. An ordinary address costs a
// suffix comparison.
func scheduleTestValues(tx *state.Txn, o *outcome) error {
	req := o.Req
	if req.Phase != model.PhaseSent || req.CancelPending {
		return nil
	}
	var cfg *model.Config
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if testvalues.SignerAction(sg.Email) == testvalues.None || !activeSigner(req, sg) {
			continue
		}
		if o.Prev != nil {
			if was := o.Prev.Signature(sg.ID); was != nil && activeSigner(o.Prev, was) {
				continue
			}
		}
		if cfg == nil {
			c := state.GetConfig(tx)
			if !c.TestValues.On() {
				return nil
			}
			cfg = &c
		}
		args := testValueArgs{Generation: req.Generation, SignatureID: sg.ID}
		if _, err := state.Schedule(tx, jobTestValue, req.ID, cfg.TestValueDelay(), args); err != nil {
			return err
		}
	}
	return nil
}

// activeSigner reports whether a signer of req may act now and has been
// asked to.
func activeSigner(req *model.SignatureRequest, sg *model.Signature) bool {
	return req.Phase == model.PhaseSent && !req.CancelPending && sg.Status == model.SigAwaiting && sg.Notified && IsTurn(req, sg)
}

// runTestValue is a reserved signer acting. A signer who can no longer act
// (the request moved on, was edited or put on hold, the signer signed,
// was replaced) does nothing; an action the request does not allow
// (decline without allow_decline, reassign without allow_reassign, a
// bounce of an embedded signer, who gets no e-mail) fails as a person's
// attempt would and is logged.
func runTestValue(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	var a testValueArgs
	if json.Unmarshal(job.Args, &a) != nil || !testvalues.On(tx) {
		return nil
	}
	req := JobRequest(tx, job)
	if req == nil {
		return nil
	}
	sg := req.Signature(a.SignatureID)
	if sg == nil || !activeSigner(req, sg) {
		return nil
	}
	act := testvalues.SignerAction(sg.Email)
	err := testValueAct(s, tx, req, sg, act)
	if e, ok := apierr.As(err); ok {
		w.Logger().Info("test value not applied", "signature_request_id", req.ID, "signature_id", sg.ID, "action", string(act), "reason", e.Msg)
		return nil
	}
	return err
}

// testValueAct performs a reserved signer's action through the signer
// entry points (control_signers.go) and the service's transitions.
func testValueAct(s *api.Host, tx *state.Txn, req *model.SignatureRequest, sg *model.Signature, act testvalues.Action) error {
	view := func() error { _, err := signerView(s, tx, sg.ID); return err }
	switch act {
	case testvalues.View:
		return view()
	case testvalues.Sign:
		if err := view(); err != nil {
			return err
		}
		_, err := signerSign(s, tx, sg.ID, nil, "")
		return err
	case testvalues.Decline:
		if err := view(); err != nil {
			return err
		}
		_, err := signerDecline(s, tx, sg.ID, testvalues.DeclineReason)
		return err
	case testvalues.Reassign:
		if err := view(); err != nil {
			return err
		}
		email, name := testvalues.ReassignTo(sg.Email, sg.Name)
		_, err := signerReassign(s, tx, sg.ID, name, email, testvalues.ReassignReason)
		return err
	case testvalues.Bounce:
		_, err := signerBounce(s, tx, sg.ID)
		return err
	case testvalues.Expire:
		return applyOutcome(s, tx, tExpireNow(req, tx.Unix()))
	case testvalues.Invalid:
		if e := failBlocked(req); e != nil {
			return e
		}
		return applyOutcome(s, tx, fail(req, invalidAddressFailure(req, []string{sg.ID}), tx.Unix()))
	}
	return nil
}

// tExpireNow expires a request now, whatever its expires_at: expires_at
// becomes the instant it expired, as if it had been set so.
func tExpireNow(req *model.SignatureRequest, now int64) *outcome {
	r := req.Copy()
	t := now
	r.ExpiresAt = &t
	o := expire(r, now)
	if o != nil {
		o.Prev = req
	}
	return o
}

// testValueFailure is the failure that reserved test values ask of a
// request being processed, nil for none: a document that asks for one
// (by its name or text), then signers at invalid.signsandbox.test
// (error_invalid_email on their signatures). Processing meets documents
// before addresses, as the real service converts files first.
func testValueFailure(tx *state.Txn, req *model.SignatureRequest) *api.ProcessFailure {
	if !testvalues.On(tx) {
		return nil
	}
	if i, status := testvalues.DocumentFailure(tx, req.Documents); status != "" {
		return &api.ProcessFailure{StatusCode: status, Message: fmt.Sprintf("Document %d (%s): %s (signsandbox test value %s).",
			i, req.Documents[i].Name, strings.TrimSuffix(failureMessages[status], "."), status)}
	}
	var invalid []string
	for _, sg := range req.Signatures {
		if testvalues.SignerAction(sg.Email) == testvalues.Invalid {
			invalid = append(invalid, sg.ID)
		}
	}
	if len(invalid) == 0 {
		return nil
	}
	f := invalidAddressFailure(req, invalid)
	return &f
}

// invalidAddressFailure is error_invalid_email on the given signatures,
// naming the first one's address.
func invalidAddressFailure(req *model.SignatureRequest, sigIDs []string) api.ProcessFailure {
	return api.ProcessFailure{StatusCode: model.SigErrorInvalidEmail, SignatureIDs: sigIDs,
		Message: "The e-mail address " + req.Signature(sigIDs[0]).Email + " is invalid: the signature request could not be delivered (signsandbox test value)."}
}
