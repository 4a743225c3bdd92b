package sigreq

import (
	"fmt"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// The entry points through which other areas move a request's state
// machine: a scenario seed settles a request in a state, and seeds, rule
// effects and the claim of a draft act as one of its signers. The
// transitions themselves stay inside this package.

// Act runs the signer action do (view, sign, decline, bounce) for the
// signature sigID, inside tx, as the signer simulation of the control plane
// does: reason is a decline's reason, values a signature's field values.
func Act(s *api.Host, tx *state.Txn, sigID, do, reason string, values map[string]any) error {
	var err error
	switch do {
	case actionView:
		_, err = signerView(s, tx, sigID)
	case actionSign:
		_, err = signerSign(s, tx, sigID, values, "")
	case actionDecline:
		_, err = signerDecline(s, tx, sigID, reason)
	case actionBounce:
		_, err = signerBounce(s, tx, sigID)
	default:
		err = fmt.Errorf("unknown action %q", do)
	}
	return err
}

// Settle moves the request id to the end state to that a scenario seeds it
// in. Created and not yet processed, it can end in one of the signature
// error statuses (processing ends in that failure, with message). Once
// processed it can be "completed" (each signer whose turn it is signs),
// "declined" (the next signer declines, with message as the reason),
// "canceled" or "expired"; "sent" only checks that it is still out for
// signature. refusal, when not empty, says (for the scenario's author) why
// the request cannot get there, a signer's refused action included; err
// is a failure of the store.
func Settle(s *api.Host, tx *state.Txn, id, to, message string) (refusal string, err error) {
	get := func() (*model.SignatureRequest, error) {
		return state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	}
	if slices.Contains(failureStatusCodes, to) {
		if err := state.CancelJobs(tx, id, JobProcess); err != nil {
			return "", err
		}
		req, err := get()
		if err != nil {
			return "", err
		}
		return "", applyOutcome(s, tx, fail(req, api.ProcessFailure{StatusCode: to, Message: message}, tx.Unix()))
	}
	req, err := get()
	if err != nil {
		return "", err
	}
	switch to {
	case "completed":
		for req.Phase == model.PhaseSent {
			sg := nextToSign(req)
			if sg == nil {
				break
			}
			if refusal := seedAct(s, tx, sg.ID, actionSign, ""); refusal != "" {
				return refusal, nil
			}
			if req, err = get(); err != nil {
				return "", err
			}
		}
		if req.Phase != model.PhaseComplete {
			return "the request cannot be completed from here (it is " + phaseWord(req.Phase) + ")", nil
		}
		return "", nil
	case "declined":
		if req.Phase != model.PhaseDeclined {
			sg := nextToSign(req)
			if sg == nil {
				return "no signer can decline (the request is " + phaseWord(req.Phase) + ")", nil
			}
			return seedAct(s, tx, sg.ID, actionDecline, message), nil
		}
		return "", nil
	case "sent":
		if req.Phase != model.PhaseSent {
			return "the request is " + phaseWord(req.Phase) + " after processing, not sent", nil
		}
		return "", nil
	case "canceled":
		o, e := cancel(req, true)
		if e != nil {
			return e.Msg, nil
		}
		if err := applyOutcome(s, tx, o); err != nil {
			return "", err
		}
		if req, err = get(); err != nil {
			return "", err
		}
		return "", applyOutcome(s, tx, completeCancel(req, tx.Unix()))
	case "expired":
		c := req.Copy()
		now := tx.Unix()
		c.ExpiresAt = &now
		o := expire(c, now)
		if o == nil {
			return "the request cannot expire from here (it is " + phaseWord(req.Phase) + ")", nil
		}
		if err := state.CancelJobs(tx, id, jobExpire); err != nil {
			return "", err
		}
		return "", applyOutcome(s, tx, o)
	}
	return "", fmt.Errorf("sigreq: no request is settled in %q", to)
}

// seedAct runs a signer action for Settle and answers its failure, if
// any, worded for the scenario's author as the seed's own actions are
// ("sign as signer ID: error_name: message"). Every failure is a refusal,
// a failure of the store included, as it is for the seed's actions.
func seedAct(s *api.Host, tx *state.Txn, sigID, do, reason string) string {
	err := Act(s, tx, sigID, do, reason, nil)
	if err == nil {
		return ""
	}
	if e, ok := apierr.As(err); ok {
		return fmt.Sprintf("%s as signer %s: %s: %s", do, sigID, e.Name, e.Msg)
	}
	return err.Error()
}

// nextToSign is a signer whose turn it is and who has not acted.
func nextToSign(req *model.SignatureRequest) *model.Signature {
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if sg.Status == model.SigAwaiting && IsTurn(req, sg) {
			return sg
		}
	}
	return nil
}
