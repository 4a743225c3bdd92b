package sigreq

// The hold of an unconfirmed account: an account created through the API
// (account/create) must confirm its e-mail address before its requests go
// out. Such a request is answered with the official unconfirmed warning,
// processed as any other, then held (its signatures on_hold: nobody is
// e-mailed, signers cannot act, reminders are refused) until the account
// is confirmed (POST /_sandbox/accounts/{id}/confirm), which sends it:
// signature_request_sent and the signing e-mails, as a send would have.
// Cancelation, expiry, update and edit work on a held request as on any
// request on hold.

import (
	"math"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// The official unconfirmed warning (warnings reference).
const (
	warnUnconfirmed    = "unconfirmed"
	msgWarnUnconfirmed = "This SignatureRequest will be placed on hold until the user confirms their email address."
)

// registerHold sends the held requests of an account when it is confirmed.
func registerHold(r *api.Registry) { r.OnAccountConfirmed = sendHeldRequests }

// WarnUnconfirmed gives a call that sends for a requester who has not
// confirmed its e-mail address the official unconfirmed warning.
func (spec *Spec) WarnUnconfirmed(c *api.Call) {
	if !spec.Requester.Confirmed {
		c.Warn(warnUnconfirmed, msgWarnUnconfirmed)
	}
}

// holdForConfirmation ends the processing of a request whose requester has
// not confirmed its account: on hold, its signatures on_hold, nobody asked
// to sign and no event until the confirmation (releaseConfirmed).
func holdForConfirmation(o *outcome, now int64) {
	r := o.Req
	r.Phase = model.PhaseOnHold
	for i := range r.Signatures {
		r.Signatures[i].Status = model.SigOnHold
	}
	o.audit(now, "", "held until the requester confirms their e-mail address", "")
}

// releaseConfirmed: the requester's account confirmed its e-mail address. A
// request held for it is sent (signature_request_sent, the signers whose
// turn it is are e-mailed), or, made from a draft with hold_request, now
// waits for release_hold (on_hold_by_requester, signature_request_prepared);
// one still processing just goes on as any other. nil when the request
// was not waiting for the confirmation (or a queued cancelation ends it).
func releaseConfirmed(req *model.SignatureRequest, now int64) *outcome {
	if !req.AwaitsConfirmation || req.Phase != model.PhaseProcessing && req.Phase != model.PhaseOnHold {
		return nil
	}
	o := begin(req)
	r := o.Req
	r.AwaitsConfirmation = false
	if r.Phase == model.PhaseProcessing || r.CancelPending {
		return o
	}
	if r.Hold {
		for i := range r.Signatures {
			r.Signatures[i].Status = model.SigOnHoldByRequester
		}
		o.audit(now, "", "prepared and held", "")
		o.event(notify.TypeRequestPrepared, "", "")
		return o
	}
	r.Phase = model.PhaseSent
	for i := range r.Signatures {
		r.Signatures[i].Status = model.SigAwaiting
	}
	o.audit(now, r.RequesterEmail, "sent", "")
	o.event(notify.TypeRequestSent, "", "")
	notifyTurn(o)
	return o
}

// holdReason says what a request on hold waits for, in messages.
func holdReason(r *model.SignatureRequest) string {
	if r.AwaitsConfirmation {
		return "until the requester confirms their e-mail address"
	}
	return "until the requester releases it"
}

// sendHeldRequests applies releaseConfirmed to the requests a newly confirmed
// account sent, oldest first (the order they were made in). They are in
// its list (unless canceled, which needs nothing more); an account that
// was never confirmed has sent few.
func sendHeldRequests(s *api.Host, _ *world.World, tx *state.Txn, a *model.Account) error {
	var ids []string
	walk := state.NewAccessWalk(tx, a.ID, math.MaxUint64)
	for {
		id, _, ok := walk.NextListed()
		if !ok {
			break
		}
		ids = append(ids, id)
	}
	for i := len(ids) - 1; i >= 0; i-- {
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, ids[i])
		if err != nil || req.RequesterAccountID != a.ID {
			continue
		}
		if err := applyOutcome(s, tx, releaseConfirmed(req, tx.Unix())); err != nil {
			return err
		}
	}
	return nil
}
