package sigreq

import (
	"fmt"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
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

// Settle moves the request id, created and not yet processed, to the end
// state to that a scenario seeds it in: one of the signature error statuses
// (processing ends in that failure, with message), "canceled" or
// "expired". refusal, when not empty, says (for the scenario's author) why
// the request cannot get there; err is a failure of the store.
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
			return "the request cannot expire from here (it is " + PhaseWord(req.Phase) + ")", nil
		}
		if err := state.CancelJobs(tx, id, jobExpire); err != nil {
			return "", err
		}
		return "", applyOutcome(s, tx, o)
	}
	return "", fmt.Errorf("sigreq: no request is settled in %q", to)
}
