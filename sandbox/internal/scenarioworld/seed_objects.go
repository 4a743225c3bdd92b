package scenarioworld

// Seeded templates and signature requests: created as their operations
// create them, then moved to the seeded state through the scheduler's job
// functions and the signer transitions.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// seedTemplate creates a template as template/create does and prepares it
// now (ready), leaves it preparing, or makes its preparation fail (error).
func (pl *seedPlan) seedTemplate(tx *state.Txn, tp *seedTemplatePlan) (any, error) {
	owner, err := pl.account(tx, tp.spec.As, append(tp.at, "as"))
	if err != nil {
		return nil, err
	}
	if tp.in.ClientID != "" {
		if err := template.App(tx, owner.ID, tp.in.ClientID); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
	}
	docs, err := document.Store(tx, tp.pending)
	if err != nil {
		return nil, pl.apiIssue(tp.at, err)
	}
	t := template.NewRow(tx, owner.ID, tp.content, docs)
	t.ClientID, t.AllowReassign, t.UsePreexistingFields, t.TestMode = tp.in.ClientID, tp.in.AllowReassign, tp.in.UsePreexistingFields, tp.in.TestMode
	if err := template.SettleQuota(tx, t); err != nil {
		return nil, pl.apiIssue(append(tp.at, "as"), err)
	}
	if err := template.StartPreparation(tx, t); err != nil {
		return nil, err
	}
	if err := state.PutTemplate(tx, t); err != nil {
		return nil, err
	}
	pl.tplIDs[tp.spec.Ref] = t.ID
	switch tp.spec.State {
	case "preparing":
	case "error":
		forceTemplateFailure(pl.w, t.ID, "The template could not be created (seeded by scenario "+pl.p.Doc.Name+").")
		err := pl.runJobsNow(tx, t.ID, template.JobPrepare, document.JobPrepare)
		forceTemplateFailure(pl.w, t.ID, "")
		if err != nil {
			return nil, err
		}
	default:
		if err := pl.runJobsNow(tx, t.ID, template.JobPrepare, document.JobPrepare); err != nil {
			return nil, err
		}
	}
	cur, err := state.GetTemplate(tx, t.ID)
	if err != nil {
		return nil, err
	}
	return jsonValue(template.View(tx, cur, owner.ID))
}

// jsonValue gives a view as JSON shapes (what ${seed...} resolves in).
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return scenario.DecodeJSON(b)
}

// seedSignatureRequest creates a request as its operation would, then
// moves it to the seeded state through the signer transitions.
func (pl *seedPlan) seedSignatureRequest(tx *state.Txn, rp *seedRequestPlan) (any, error) {
	acct, err := pl.account(tx, rp.spec.As, append(rp.at, "as"))
	if err != nil {
		return nil, err
	}
	c := pl.seedCall(rp.spec.Body, nil)
	c.Account = acct
	spec := rp.req
	spec.Requester = acct
	if e := spec.CheckClientID(tx, acct); e != nil {
		return nil, pl.apiIssue(rp.at, e)
	}
	stored, err := document.Store(tx, rp.pending)
	if err != nil {
		return nil, pl.apiIssue(rp.at, err)
	}
	if rp.op.Template {
		tb := *rp.tb
		tb.TemplateIDs = make([]string, len(rp.spec.Templates))
		for i, ref := range rp.spec.Templates {
			tb.TemplateIDs[i] = pl.tplIDs[ref]
		}
		if err := spec.BindTemplate(c, tx, &tb, stored); err != nil {
			if e, ok := apierr.As(err); ok && strings.HasPrefix(e.Path, "template_ids") {
				return nil, pl.p.Issue(append(rp.at, "templates"), fmt.Sprintf("%s: %s", e.Name, e.Msg))
			}
			return nil, pl.apiIssue(rp.at, err)
		}
	} else {
		spec.Documents = stored
	}
	if spec.Title == "" && len(spec.Documents) > 0 {
		spec.Title = spec.Documents[0].Title()
	}
	req, err := sigreq.Create(tx, spec)
	if err != nil {
		return nil, pl.apiIssue(append(rp.at, "as"), err)
	}
	if err := pl.moveRequest(tx, rp, req.ID); err != nil {
		return nil, err
	}
	if err := pl.runJobsNow(tx, req.ID, document.JobPrepare, sigreq.JobDownloadable); err != nil {
		return nil, err
	}
	cur, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, req.ID)
	if err != nil {
		return nil, err
	}
	return jsonValue(sigreq.View(cur, acct.ID))
}

// moveRequest processes a seeded request and applies its actions and
// state.
func (pl *seedPlan) moveRequest(tx *state.Txn, rp *seedRequestPlan, id string) error {
	get := func() (*model.SignatureRequest, error) {
		return state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	}
	st := rp.spec.State
	if st == "" {
		st = "sent"
	}
	switch st {
	case "processing":
		return nil
	case model.SigErrorFile, model.SigErrorUnknown, model.SigErrorInvalidEmail, model.SigErrorComponentPosition, state.SigErrorTextTag:
		// Processing ends in that failure (internal/sigreq/failures.go).
		_, err := sigreq.Settle(pl.s, tx, id, st, rp.spec.Message)
		return err
	}
	if err := pl.runJobsNow(tx, id, sigreq.JobProcess); err != nil {
		return err
	}
	for i, a := range rp.spec.Actions {
		at := append(append([]any(nil), rp.at...), "actions", i)
		req, err := get()
		if err != nil {
			return err
		}
		sigID, ok := seedSigner(req, a.Signer)
		if !ok {
			return pl.p.Issue(append(at, "signer"), fmt.Sprintf("the request has no signer %v", a.Signer))
		}
		if err := pl.signerAct(tx, sigID, a.Do, a.Reason, a.Values); err != nil {
			return pl.p.Issue(at, err.Error())
		}
	}
	at := append(append([]any(nil), rp.at...), "state")
	if st == "sent" && len(rp.spec.Actions) > 0 {
		return nil // the actions may have moved it on
	}
	refusal, err := sigreq.Settle(pl.s, tx, id, st, rp.spec.Message)
	if refusal != "" {
		return pl.p.Issue(at, refusal)
	}
	return err
}

// seedSigner finds a signature by index or e-mail address.
func seedSigner(req *model.SignatureRequest, who any) (string, bool) {
	switch t := who.(type) {
	case string:
		for _, sg := range req.Signatures {
			if state.EmailKey(sg.Email) == state.EmailKey(t) {
				return sg.ID, true
			}
		}
	case json.Number:
		n, err := t.Int64()
		if err == nil && n >= 0 && int(n) < len(req.Signatures) {
			return req.Signatures[n].ID, true
		}
	}
	return "", false
}

// signerAct runs a signer transition for a seed, its refusal worded for
// the scenario's author.
func (pl *seedPlan) signerAct(tx *state.Txn, sigID, do, reason string, values map[string]any) error {
	err := signerDo(pl.s, tx, sigID, do, reason, values)
	if e, ok := apierr.As(err); ok {
		return fmt.Errorf("%s as signer %s: %s: %s", do, sigID, e.Name, e.Msg)
	}
	return err
}

// signerDo runs the signer transition named by a scenario (view, sign,
// decline, bounce) through the control plane's entry point (sigreq.Act):
// seeds and rule effects act as the signer simulation does.
func signerDo(s *api.Host, tx *state.Txn, sigID, do, reason string, values map[string]any) error {
	return sigreq.Act(s, tx, sigID, do, reason, values)
}
