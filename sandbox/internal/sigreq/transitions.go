package sigreq

// The signature request state machine as pure functions (signer moves here,
// the requester's and the service's in moves.go): a request and an
// action give the changed request and the effects (events, e-mails, file
// work), or the official error. Nothing here touches the database, the clock
// or the ID sequence; apply.go turns an outcome into one transaction's
// writes, and the table test in transitions_test.go pins every move.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// sigEvent is an event a transition causes, in emission order.
type sigEvent struct {
	Type        string
	SignatureID string
	Message     string
}

// sigMail is an e-mail a transition sends.
type sigMail struct {
	Kind        string
	To          string
	Name        string
	SignatureID string
}

// outcome is the result of a transition.
type outcome struct {
	// Prev is the request before the transition; Req after it.
	Prev   *model.SignatureRequest
	Req    *model.SignatureRequest
	Events []sigEvent
	Mails  []sigMail
	// Files: the documents changed (a signature, a decline); prepare the
	// downloadable files again.
	Files bool
	// Completed: every signer signed; prepare the final copy, then
	// signature_request_downloadable.
	Completed bool
	// Gone: the cancelation completed; downloads answer 410.
	Gone bool
	// Expiry: expires_at changed; reschedule the expiry job.
	Expiry bool
}

func (o *outcome) event(typ, sigID, msg string) {
	o.Events = append(o.Events, sigEvent{Type: typ, SignatureID: sigID, Message: msg})
}

func (o *outcome) mail(kind, to, name, sigID string) {
	o.Mails = append(o.Mails, sigMail{Kind: kind, To: to, Name: name, SignatureID: sigID})
}

func (o *outcome) audit(now int64, actor, action, detail string) {
	o.Req.Audit = append(o.Req.Audit, model.AuditEntry{Time: now, Actor: actor, Action: action, Detail: detail})
}

func begin(req *model.SignatureRequest) *outcome { return &outcome{Prev: req, Req: req.Copy()} }

// beginProcessing is begin for the end of processing, which changes only
// signatures and appends (audit, link secrets): its copy owns only the
// signatures (model.SignatureRequest.CopySignatures). A clock advance runs
// one per send.
func beginProcessing(req *model.SignatureRequest) *outcome {
	return &outcome{Prev: req, Req: req.CopySignatures()}
}

// Messages of state errors, shared with the tests.
const (
	msgProcessing      = "The signature request is still being processed."
	msgNotYourTurn     = "It is not this signer's turn: signers sign in order."
	msgAlreadySigned   = "This signature has already been signed."
	msgAlreadyDeclined = "This signature has been declined."
	msgExpired         = "This signature request has expired."
	msgDeclineOff      = "This signature request does not allow signers to decline (allow_decline)."
	msgReassignOff     = "This signature request does not allow signers to reassign (allow_reassign)."
	msgRemindEmbedded  = "Reminders cannot be sent for embedded signature requests."
	msgRemindTooSoon   = "You cannot send a reminder within 1 hour of the last reminder (manual or automatic)."
	msgCancelFailed    = "Could not cancel the Signature Request. Either you are not the requester or the Signature Request is fully executed."
	msgRemoveFailed    = "Could not remove your access to the Signature Request. Either you are not a party to the request, or it is not yet fully executed."
	msgAppendedPage    = "This action cannot be performed on a signature request with an appended signature page."
	msgNotOnHold       = "This signature request is not on hold."
	// A signer who signed or declined acted on the e-mail: it reached them.
	msgBounceSigned   = "This signer already signed: the signature request e-mail reached them and cannot bounce now."
	msgBounceDeclined = "This signer already declined: the signature request e-mail reached them and cannot bounce now."
	// msgAwaitsConfirmation refuses release_hold for a request held for
	// its requester's confirmation, which only that confirmation lifts.
	msgAwaitsConfirmation = "This signature request is on hold until the requester confirms their e-mail address; it is sent once the account is confirmed."
)

// slotDone reports whether the signer at slot (a signer, or a group of
// which one member acts for all) has signed.
func slotDone(req *model.SignatureRequest, slot int) bool {
	for _, sg := range req.Signatures {
		if sg.Slot == slot && sg.Status == model.SigSigned {
			return true
		}
	}
	return false
}

func allSigned(req *model.SignatureRequest) bool {
	for _, sg := range req.Signatures {
		if !slotDone(req, sg.Slot) {
			return false
		}
	}
	return len(req.Signatures) > 0
}

// currentOrder is the order value whose signers may act now in an ordered
// request: the lowest order among slots that have not signed.
func currentOrder(req *model.SignatureRequest) (int, bool) {
	best, found := 0, false
	for _, sg := range req.Signatures {
		if sg.Order == nil || slotDone(req, sg.Slot) {
			continue
		}
		if !found || *sg.Order < best {
			best, found = *sg.Order, true
		}
	}
	return best, found
}

// IsTurn reports whether a signature may act now.
func IsTurn(req *model.SignatureRequest, sg *model.Signature) bool {
	if !req.Ordered || sg.Order == nil {
		return true
	}
	cur, ok := currentOrder(req)
	return ok && *sg.Order == cur
}

// notifyTurn marks the signers whose turn has come as notified and, for
// requests signed by e-mail (not embedded), sends them the request.
func notifyTurn(o *outcome) {
	req := o.Req
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if sg.Status != model.SigAwaiting || sg.Notified || !IsTurn(req, sg) {
			continue
		}
		sg.Notified = true
		if !req.Embedded {
			o.mail(notify.MailSignatureRequest, sg.Email, sg.Name, sg.ID)
		}
	}
}

// signerCheck is what a real signer meets before any action: the request
// must be out for signature and it must be this signer's turn.
func signerCheck(req *model.SignatureRequest, sg *model.Signature) *apierr.Error {
	switch {
	case req.Phase == model.PhaseCanceled || req.CancelPending:
		return apierr.Gone()
	case req.Phase == model.PhaseProcessing:
		return apierr.Conflictf(msgProcessing)
	case req.Phase == model.PhaseOnHold:
		return apierr.Conflictf("This signature request is on hold %s.", holdReason(req))
	case req.Phase == model.PhaseError:
		return apierr.Conflictf("This signature request could not be processed: %s", req.Error)
	case req.Phase == model.PhaseExpired || sg.Status == model.SigExpired:
		return apierr.New(apierr.SignatureRequestExpired, msgExpired)
	case sg.Status == model.SigSigned:
		return apierr.Conflictf(msgAlreadySigned)
	case sg.Status == model.SigDeclined:
		return apierr.Conflictf(msgAlreadyDeclined)
	case req.Phase == model.PhaseDeclined:
		return apierr.Conflictf("This signature request has been declined by a signer.")
	case req.Phase == model.PhaseComplete:
		return apierr.Conflictf("This signature request is already complete.")
	case !IsTurn(req, sg):
		return apierr.Conflictf(msgNotYourTurn)
	}
	return nil
}

// beginSigner starts a signer's move on a copy of req: the signature must
// exist and pass signerCheck. sg points into o.Req.
func beginSigner(req *model.SignatureRequest, sigID string) (o *outcome, sg *model.Signature, e *apierr.Error) {
	o = begin(req)
	if sg, e = findSig(o.Req, sigID); e != nil {
		return nil, nil, e
	}
	if e = signerCheck(o.Req, sg); e != nil {
		return nil, nil, e
	}
	return o, sg, nil
}

func findSig(req *model.SignatureRequest, id string) (*model.Signature, *apierr.Error) {
	sg := req.Signature(id)
	if sg == nil {
		return nil, apierr.NotFoundf("No signature %s on this signature request.", id)
	}
	return sg, nil
}

// view: a signer opened the request.
func view(req *model.SignatureRequest, sigID string, now int64) (*outcome, *apierr.Error) {
	o, sg, e := beginSigner(req, sigID)
	if e != nil {
		return nil, e
	}
	t := now
	sg.LastViewedAt = &t
	o.audit(now, sg.Email, "viewed", "")
	o.event(notify.TypeRequestViewed, sg.ID, "")
	return o, nil
}

// sign: a signer signed, with the values of their fields (already
// validated). Group members sign for their group.
func sign(req *model.SignatureRequest, sigID string, values []model.ResponseValue, now int64) (*outcome, *apierr.Error) {
	o, sg, e := beginSigner(req, sigID)
	if e != nil {
		return nil, e
	}
	slot := sg.Slot
	for i := range o.Req.Signatures {
		m := &o.Req.Signatures[i]
		if m.Slot == slot && m.Status == model.SigAwaiting {
			t := now
			m.Status, m.SignedAt = model.SigSigned, &t
		}
	}
	setResponses(o.Req, values)
	o.audit(now, sg.Email, "signed", "")
	o.event(notify.TypeRequestSigned, sg.ID, "")
	o.Files = true
	if allSigned(o.Req) {
		o.Req.Phase, o.Req.CompletedAt = model.PhaseComplete, now
		o.audit(now, "", "completed", "")
		o.event(notify.TypeRequestAllSigned, sg.ID, "")
		o.Completed = true
		for _, to := range completionRecipients(o.Req) {
			o.mail(notify.MailCompleted, to[0], to[1], "")
		}
		return o, nil
	}
	notifyTurn(o)
	return o, nil
}

// setResponses replaces the response_data entries of the given fields.
func setResponses(req *model.SignatureRequest, values []model.ResponseValue) {
	if len(values) == 0 {
		return
	}
	replaced := map[string]bool{}
	for _, v := range values {
		replaced[v.APIID] = true
	}
	kept := req.ResponseData[:0:0]
	for _, v := range req.ResponseData {
		if !replaced[v.APIID] {
			kept = append(kept, v)
		}
	}
	req.ResponseData = append(kept, values...)
}

// completionRecipients are the parties that get the completed copy: the
// requester, every signer and every CC, each address once, in that order.
func completionRecipients(req *model.SignatureRequest) [][2]string {
	seen := map[string]bool{}
	var out [][2]string
	add := func(email, name string) {
		k := state.EmailKey(email)
		if email == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, [2]string{email, name})
	}
	add(req.RequesterEmail, req.RequesterName)
	for _, sg := range req.Signatures {
		add(sg.Email, sg.Name)
	}
	for _, cc := range req.CCEmails {
		add(cc, "")
	}
	return out
}

// decline: a signer declined; the whole request is declined.
func decline(req *model.SignatureRequest, sigID, reason string, now int64) (*outcome, *apierr.Error) {
	o, sg, e := beginSigner(req, sigID)
	if e != nil {
		return nil, e
	}
	if !o.Req.AllowDecline {
		return nil, apierr.Forbiddenf(msgDeclineOff)
	}
	for i := range o.Req.Signatures {
		m := &o.Req.Signatures[i]
		if m.Slot == sg.Slot && m.Status == model.SigAwaiting {
			m.Status, m.DeclineReason = model.SigDeclined, reason
		}
	}
	o.Req.Phase = model.PhaseDeclined
	o.audit(now, sg.Email, "declined", reason)
	o.event(notify.TypeRequestDeclined, sg.ID, reason)
	o.Files = true
	seen := map[string]bool{state.EmailKey(sg.Email): true}
	notice := func(email, name string) {
		if k := state.EmailKey(email); email != "" && !seen[k] {
			seen[k] = true
			o.mail(notify.MailDeclined, email, name, "")
		}
	}
	notice(o.Req.RequesterEmail, o.Req.RequesterName)
	for _, other := range o.Req.Signatures {
		if other.Notified {
			notice(other.Email, other.Name)
		}
	}
	return o, nil
}

// reassign: a signer handed their signature to someone else; the new
// signer gets a new signature id in the same place.
func reassign(req *model.SignatureRequest, sigID, name, email, reason, newID string, now int64) (*outcome, *apierr.Error) {
	o, sg, e := beginSigner(req, sigID)
	if e != nil {
		return nil, e
	}
	if !o.Req.AllowReassign {
		return nil, apierr.Forbiddenf(msgReassignOff)
	}
	if state.EmailKey(email) == state.EmailKey(sg.Email) {
		return nil, apierr.Badf("email_address", "A signature cannot be reassigned to the same e-mail address.")
	}
	old := *sg
	*sg = model.Signature{
		ID: newID, Slot: old.Slot, Group: old.Group, GroupGUID: old.GroupGUID, Email: email, Name: name,
		Role: old.Role, Order: old.Order, Status: model.SigAwaiting, ReassignedBy: old.Email,
		ReassignmentReason: reason, ReassignedFrom: old.ID, Notified: old.Notified,
	}
	for i := range o.Req.ResponseData {
		if o.Req.ResponseData[i].SignatureID == old.ID {
			o.Req.ResponseData[i].SignatureID = newID
		}
	}
	o.audit(now, old.Email, "reassigned", email)
	o.event(notify.TypeRequestReassigned, old.ID, reason)
	o.mail(notify.MailReassigned, old.Email, old.Name, old.ID)
	if sg.Notified && !o.Req.Embedded {
		o.mail(notify.MailSignatureRequest, sg.Email, sg.Name, sg.ID)
	}
	return o, nil
}
