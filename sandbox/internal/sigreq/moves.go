package sigreq

// The requester's and the service's moves of the state machine (reminders,
// updates, cancelation, processing, hold, expiry, removal, edits), pure like
// the signer moves in transitions.go.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// remind: the requester reminds a signer by e-mail address (and name when
// several signers share it).
func remind(req *model.SignatureRequest, email, name string, now, interval int64) (*outcome, *apierr.Error) {
	o := begin(req)
	r := o.Req
	switch {
	case r.Phase == model.PhaseCanceled || r.CancelPending:
		return nil, apierr.Gone()
	case r.Embedded:
		return nil, apierr.New(apierr.InvalidReminder, msgRemindEmbedded)
	}
	var matches []*model.Signature
	for i := range r.Signatures {
		sg := &r.Signatures[i]
		if state.EmailKey(sg.Email) == state.EmailKey(email) && (name == "" || sg.Name == name) {
			matches = append(matches, sg)
		}
	}
	if len(matches) == 0 {
		return nil, apierr.Badf("email_address", "No signer of this signature request has the e-mail address %s.", email)
	}
	if len(matches) > 1 {
		return nil, apierr.Badf("name", "Several signers share the e-mail address %s: give the signer's name too.", email)
	}
	sg := matches[0]
	switch {
	case r.Phase == model.PhaseProcessing:
		return nil, apierr.New(apierr.InvalidReminder, msgProcessing)
	case r.Phase == model.PhaseExpired:
		return nil, apierr.New(apierr.InvalidReminder, msgExpired)
	case r.Phase == model.PhaseOnHold:
		return nil, apierr.New(apierr.InvalidReminder, "This signature request is on hold "+holdReason(r)+": no reminder can be sent before it is sent.")
	case r.Phase != model.PhaseSent:
		return nil, apierr.New(apierr.InvalidReminder, "Reminders can only be sent for signature requests awaiting signatures.")
	case sg.Status == model.SigSigned:
		return nil, apierr.New(apierr.InvalidReminder, "This signer has already signed.")
	case sg.Status == model.SigDeclined:
		return nil, apierr.New(apierr.InvalidReminder, "This signer has declined.")
	case sg.Status != model.SigAwaiting:
		return nil, apierr.New(apierr.InvalidReminder, "This signer cannot be reminded (status "+sg.Status+").")
	case !IsTurn(r, sg):
		return nil, apierr.New(apierr.InvalidReminder, "It is not this signer's turn to sign yet.")
	case sg.LastRemindedAt != nil && now-*sg.LastRemindedAt < interval:
		return nil, apierr.New(apierr.InvalidReminder, msgRemindTooSoon)
	}
	t := now
	sg.LastRemindedAt = &t
	o.audit(now, r.RequesterEmail, "reminded", sg.Email)
	o.mail(notify.MailReminder, sg.Email, sg.Name, sg.ID)
	o.event(notify.TypeRequestRemind, sg.ID, "")
	return o, nil
}

// bounce: the e-mail to a signer bounced.
func bounce(req *model.SignatureRequest, sigID string, now int64) (*outcome, *apierr.Error) {
	o := begin(req)
	sg, e := findSig(o.Req, sigID)
	if e != nil {
		return nil, e
	}
	switch {
	case o.Req.Phase == model.PhaseCanceled:
		return nil, apierr.Gone()
	case o.Req.Embedded:
		return nil, apierr.Conflictf("Signers of embedded signature requests are not sent e-mails.")
	case !sg.Notified:
		return nil, apierr.Conflictf("No signature request e-mail has been sent to this signer yet.")
	case sg.Status == model.SigSigned:
		return nil, apierr.Conflictf(msgBounceSigned)
	case sg.Status == model.SigDeclined:
		return nil, apierr.Conflictf(msgBounceDeclined)
	}
	o.audit(now, sg.Email, "email bounced", "")
	o.event(notify.TypeRequestEmailBounce, sg.ID, "The email to "+sg.Email+" bounced.")
	return o, nil
}

// update: the requester changes a signer's name and/or e-mail address
// and/or the expiry. A new address gives the signer a new signature id.
func update(req *model.SignatureRequest, sigID string, name, email *string, expiresAt *int64, newID string, now int64) (*outcome, *apierr.Error) {
	o := begin(req)
	r := o.Req
	switch {
	case r.Phase == model.PhaseCanceled || r.CancelPending:
		return nil, apierr.Gone()
	case r.AppendSignaturePage:
		return nil, apierr.Badf("signature_id", msgAppendedPage)
	case r.Phase == model.PhaseExpired:
		return nil, apierr.New(apierr.SignatureRequestExpired, msgExpired)
	case r.Phase != model.PhaseSent && r.Phase != model.PhaseProcessing && r.Phase != model.PhaseOnHold:
		return nil, apierr.Badf("signature_request_id", "This signature request can no longer be updated (it is %s).", phaseWord(r.Phase))
	}
	sg := r.Signature(sigID)
	if sg == nil {
		return nil, apierr.Badf("signature_id", "No signature %s on this signature request.", sigID)
	}
	if name != nil || email != nil {
		switch sg.Status {
		case model.SigSigned:
			return nil, apierr.Badf("signature_id", "This signer has already signed and cannot be updated.")
		case model.SigDeclined:
			return nil, apierr.Badf("signature_id", "This signer has declined and cannot be updated.")
		}
	}
	if name != nil {
		sg.Name = *name
	}
	if email != nil && state.EmailKey(*email) != state.EmailKey(sg.Email) {
		oldID := sg.ID
		sg.Email, sg.ID, sg.LastViewedAt, sg.LastRemindedAt = *email, newID, nil, nil
		for i := range r.ResponseData {
			if r.ResponseData[i].SignatureID == oldID {
				r.ResponseData[i].SignatureID = newID
			}
		}
		if sg.Notified && !r.Embedded && r.Phase == model.PhaseSent {
			o.mail(notify.MailSignatureRequest, sg.Email, sg.Name, sg.ID)
		}
		o.audit(now, r.RequesterEmail, "signer updated", sg.Email)
	} else if email != nil {
		sg.Email = *email
	}
	if expiresAt != nil {
		v := *expiresAt
		r.ExpiresAt = &v
		o.Expiry = true
	}
	return o, nil
}

// cancel queues a cancelation (it completes in a job: completeCancel).
func cancel(req *model.SignatureRequest, mayCancel bool) (*outcome, *apierr.Error) {
	o := begin(req)
	r := o.Req
	switch {
	case r.Phase == model.PhaseCanceled:
		return nil, apierr.Gone()
	case r.CancelPending:
		return nil, apierr.New(apierr.Conflict, apierr.MsgConflict)
	case !mayCancel:
		return nil, apierr.New(apierr.SignatureRequestCancelFailed, msgCancelFailed)
	case r.Phase == model.PhaseSent || r.Phase == model.PhaseOnHold:
	default:
		return nil, apierr.New(apierr.SignatureRequestCancelFailed, msgCancelFailed+" (it is "+phaseWord(r.Phase)+")")
	}
	r.CancelPending = true
	return o, nil
}

// completeCancel finishes a queued cancelation.
func completeCancel(req *model.SignatureRequest, now int64) *outcome {
	o := begin(req)
	r := o.Req
	if !r.CancelPending || r.Phase == model.PhaseCanceled {
		return nil
	}
	r.CancelPending, r.Phase, r.CanceledAt = false, model.PhaseCanceled, now
	o.audit(now, r.RequesterEmail, "canceled", "")
	o.event(notify.TypeRequestCanceled, "", "")
	for _, sg := range r.Signatures {
		if sg.Notified && sg.Status == model.SigAwaiting && !r.Embedded {
			o.mail(notify.MailCanceled, sg.Email, sg.Name, sg.ID)
		}
	}
	o.Gone = true
	return o
}

// process ends processing: sent; on hold until the requester's account
// is confirmed (on_hold, no event: hold.go); on hold for its requester
// (on_hold_by_requester, signature_request_prepared); or error_file when a
// document cannot be used (failure names a failure injected by a scenario).
func process(req *model.SignatureRequest, failure string, now int64) *outcome {
	o := beginProcessing(req)
	r := o.Req
	if r.Phase != model.PhaseProcessing {
		return nil
	}
	if failure == "" {
		for _, d := range r.Documents {
			if d.Error != "" {
				failure = d.Name + ": " + d.Error
				break
			}
		}
	}
	if failure != "" {
		return fail(req, api.ProcessFailure{StatusCode: model.SigErrorFile, Message: failure}, now) // failures.go
	}
	if r.AwaitsConfirmation {
		holdForConfirmation(o, now) // hold.go
		return o
	}
	if r.Hold {
		r.Phase = model.PhaseOnHold
		for i := range r.Signatures {
			r.Signatures[i].Status = model.SigOnHoldByRequester
		}
		o.audit(now, "", "prepared and held", "")
		// Held for the requester (drafts with hold_request): prepared,
		// not sent, until release_hold.
		o.event(notify.TypeRequestPrepared, "", "")
		return o
	}
	r.Phase = model.PhaseSent
	o.audit(now, r.RequesterEmail, "sent", "")
	o.event(notify.TypeRequestSent, "", "")
	notifyTurn(o)
	return o
}

// release sends a request held by its requester.
func release(req *model.SignatureRequest, now int64) (*outcome, *apierr.Error) {
	o := begin(req)
	r := o.Req
	switch {
	case r.Phase == model.PhaseCanceled || r.CancelPending:
		return nil, apierr.Gone()
	case r.Phase != model.PhaseOnHold:
		return nil, apierr.Badf("signature_request_id", msgNotOnHold)
	case r.AwaitsConfirmation:
		return nil, apierr.Badf("signature_request_id", msgAwaitsConfirmation)
	}
	r.Phase, r.Hold = model.PhaseSent, false
	for i := range r.Signatures {
		r.Signatures[i].Status = model.SigAwaiting
	}
	o.audit(now, r.RequesterEmail, "released", "")
	o.event(notify.TypeRequestSent, "", "")
	notifyTurn(o)
	return o, nil
}

// expire expires the unsigned signatures once expires_at has passed.
func expire(req *model.SignatureRequest, now int64) *outcome {
	o := begin(req)
	r := o.Req
	if r.ExpiresAt == nil || now < *r.ExpiresAt || r.CancelPending ||
		(r.Phase != model.PhaseSent && r.Phase != model.PhaseOnHold && r.Phase != model.PhaseProcessing) {
		return nil
	}
	for i := range r.Signatures {
		if s := r.Signatures[i].Status; s == model.SigAwaiting || s == model.SigOnHoldByRequester || s == model.SigOnHold {
			r.Signatures[i].Status = model.SigExpired
		}
	}
	r.Phase = model.PhaseExpired
	o.audit(now, "", "expired", "")
	o.event(notify.TypeRequestExpired, "", "")
	return o
}

// remove removes one account's access to a fully executed request.
func remove(req *model.SignatureRequest, accountID string, party bool) (*outcome, *apierr.Error) {
	o := begin(req)
	r := o.Req
	switch {
	case r.Phase == model.PhaseCanceled:
		return nil, apierr.Gone()
	case !party:
		return nil, apierr.New(apierr.SignatureRequestRemoveFailed, msgRemoveFailed)
	case r.Phase != model.PhaseComplete && r.Phase != model.PhaseDeclined:
		return nil, apierr.New(apierr.SignatureRequestRemoveFailed, msgRemoveFailed+" (it is "+phaseWord(r.Phase)+")")
	}
	if removedFor(r, accountID) {
		return nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	r.RemovedFor = append(r.RemovedFor, accountID)
	o.event(notify.TypeRequestDestroyed, "", "")
	return o, nil
}

// checkEditable says whether a request may be edited and resent: before
// anyone signed or declined, while it is still going, by its requester.
func checkEditable(req *model.SignatureRequest, mayEdit, embeddedOp bool) *apierr.Error {
	switch {
	case req.Phase == model.PhaseCanceled:
		return apierr.Gone()
	case req.CancelPending:
		return apierr.New(apierr.Conflict, apierr.MsgConflict)
	case !mayEdit:
		return apierr.Forbiddenf("Only the requester can edit this signature request.")
	case req.Embedded && !embeddedOp:
		return apierr.Badf("signature_request_id", "This is an embedded signature request: use edit_embedded or edit_embedded_with_template.")
	case !req.Embedded && embeddedOp:
		return apierr.Badf("signature_request_id", "This is not an embedded signature request: use edit or edit_with_template.")
	case req.Phase == model.PhaseComplete || req.Phase == model.PhaseDeclined || req.Phase == model.PhaseExpired:
		return apierr.Badf("signature_request_id", "This signature request can no longer be edited (it is %s).", phaseWord(req.Phase))
	}
	for _, sg := range req.Signatures {
		if sg.Status == model.SigSigned || sg.Status == model.SigDeclined {
			return apierr.Badf("signature_request_id", "This signature request cannot be edited: a signer has already signed or declined.")
		}
	}
	return nil
}

// phaseWord describes a phase in messages.
func phaseWord(p string) string {
	switch p {
	case model.PhaseProcessing:
		return "still being processed"
	case model.PhaseOnHold:
		return "on hold"
	case model.PhaseSent:
		return "awaiting signatures"
	case model.PhaseError:
		return "in error"
	}
	return strings.ReplaceAll(p, "_", " ")
}
