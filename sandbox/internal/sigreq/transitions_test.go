package sigreq

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
)

// trReq builds a request in a phase with signatures of the given statuses
// (ordered when ordered is set: signer i has order i).
func trReq(phase string, ordered bool, statuses ...string) *model.SignatureRequest {
	r := &model.SignatureRequest{
		ID: "req", Phase: phase, Title: "T", RequesterAccountID: "acct", RequesterEmail: "owner@example.com",
		AllowDecline: true, AllowReassign: true, Ordered: ordered, CCEmails: []string{"cc@example.com"},
	}
	for i, st := range statuses {
		sg := model.Signature{ID: "s" + itoa(i), Slot: i, Email: "s" + itoa(i) + "@example.com", Name: "S" + itoa(i), Status: st, Notified: true}
		if ordered {
			o := i
			sg.Order = &o
		}
		r.Signatures = append(r.Signatures, sg)
	}
	return r
}

func with(r *model.SignatureRequest, fn func(r *model.SignatureRequest)) *model.SignatureRequest {
	fn(r)
	return r
}

const (
	aw = model.SigAwaiting
	sd = model.SigSigned
	dc = model.SigDeclined
)

// TestTransitions pins every move of the specification (and the sandbox's
// signer moves) as (state, action) -> (state, events) or error_name.
func TestTransitions(t *testing.T) {
	type row struct {
		name   string
		req    *model.SignatureRequest
		act    func(r *model.SignatureRequest) (*outcome, *apierr.Error)
		err    apierr.Name
		phase  string
		sigs   []string
		events []string
		mails  []string
		check  func(t *testing.T, o *outcome)
	}
	const now = int64(1_000_000)
	view := func(id string) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return view(r, id, now) }
	}
	sign := func(id string) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return sign(r, id, nil, now) }
	}
	decline := func(id string) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
			return decline(r, id, "no", now)
		}
	}
	reassign := func(id, email string) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
			return reassign(r, id, "New", email, "busy", "new-id", now)
		}
	}
	remind := func(email string) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
			return remind(r, email, "", now, 3600)
		}
	}
	reminded := func(r *model.SignatureRequest, last int64) *model.SignatureRequest {
		for i := range r.Signatures {
			l := last
			r.Signatures[i].LastRemindedAt = &l
		}
		return r
	}
	fresh := func(r *model.SignatureRequest) *model.SignatureRequest {
		for i := range r.Signatures {
			r.Signatures[i].Notified = false
		}
		return r
	}
	cancel := func(may bool) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return cancel(r, may) }
	}
	remove := func(party bool) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
			return remove(r, "acct", party)
		}
	}
	name := "Renamed"
	email := "new@example.com"
	update := func(n, e *string, exp *int64) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
			return update(r, "s0", n, e, exp, "new-id", now)
		}
	}
	noErr := func(fn func(r *model.SignatureRequest) *outcome) func(r *model.SignatureRequest) (*outcome, *apierr.Error) {
		return func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return fn(r), nil }
	}
	autoRemindAct := noErr(func(r *model.SignatureRequest) *outcome { return autoRemind(r, now, 3600) })
	unconfirmed := func(r *model.SignatureRequest) *model.SignatureRequest {
		r.AwaitsConfirmation = true
		return r
	}
	heldUnconfirmed := func(ordered bool, statuses ...string) *model.SignatureRequest {
		r := unconfirmed(fresh(trReq(model.PhaseOnHold, ordered, statuses...)))
		for i := range r.Signatures {
			r.Signatures[i].Status = model.SigOnHold
		}
		return r
	}
	exp := now + 10
	rows := []row{
		// Processing ends.
		{name: "process: sent, unordered signers all asked", req: fresh(trReq(model.PhaseProcessing, false, aw, aw)),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }),
			phase: model.PhaseSent, sigs: []string{aw, aw}, events: []string{notify.TypeRequestSent}, mails: []string{"signature_request:s0@example.com", "signature_request:s1@example.com"}},
		{name: "process: sent, ordered signers one at a time", req: fresh(trReq(model.PhaseProcessing, true, aw, aw)),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }),
			phase: model.PhaseSent, events: []string{notify.TypeRequestSent}, mails: []string{"signature_request:s0@example.com"}},
		{name: "process: embedded requests send no e-mails", req: with(trReq(model.PhaseProcessing, false, aw), func(r *model.SignatureRequest) { r.Embedded, r.Signatures[0].Notified = true, false }),
			act: noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }), phase: model.PhaseSent, events: []string{notify.TypeRequestSent}, mails: []string{}},
		{name: "process: document error is error_file + file_error", req: with(trReq(model.PhaseProcessing, false, aw), func(r *model.SignatureRequest) { r.Documents = []model.Document{{Name: "a.pdf", Error: "unreadable"}} }),
			act: noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }), phase: model.PhaseError, sigs: []string{model.SigErrorFile}, events: []string{notify.TypeFileError}},
		{name: "process: scenario fault is error_file", req: trReq(model.PhaseProcessing, false, aw),
			act: noErr(func(r *model.SignatureRequest) *outcome { return process(r, "injected", now) }), phase: model.PhaseError, sigs: []string{model.SigErrorFile}, events: []string{notify.TypeFileError}},
		{name: "process: held request", req: with(trReq(model.PhaseProcessing, false, aw), func(r *model.SignatureRequest) { r.Hold = true }),
			act: noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }), phase: model.PhaseOnHold, sigs: []string{model.SigOnHoldByRequester}, events: []string{notify.TypeRequestPrepared}},
		{name: "release_hold sends", req: with(trReq(model.PhaseOnHold, false, model.SigOnHoldByRequester), func(r *model.SignatureRequest) { r.Signatures[0].Notified = false }),
			act:   func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return release(r, now) },
			phase: model.PhaseSent, sigs: []string{aw}, events: []string{notify.TypeRequestSent}, mails: []string{"signature_request:s0@example.com"}},
		{name: "release_hold of a request not held", req: trReq(model.PhaseSent, false, aw),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return release(r, now) }, err: apierr.BadRequest},

		// The hold of an unconfirmed requester (hold.go).
		{name: "process: unconfirmed requester, held without e-mails or events", req: unconfirmed(fresh(trReq(model.PhaseProcessing, false, aw, aw))),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }),
			phase: model.PhaseOnHold, sigs: []string{model.SigOnHold, model.SigOnHold}, events: []string{}, mails: []string{}},
		{name: "process: unconfirmed requester of a held draft, held for the confirmation first", req: with(unconfirmed(fresh(trReq(model.PhaseProcessing, false, aw))), func(r *model.SignatureRequest) { r.Hold = true }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }),
			phase: model.PhaseOnHold, sigs: []string{model.SigOnHold}, events: []string{}, mails: []string{}},
		{name: "process: unconfirmed requester, a document error still fails", req: with(unconfirmed(trReq(model.PhaseProcessing, false, aw)), func(r *model.SignatureRequest) { r.Documents = []model.Document{{Name: "a.pdf", Error: "unreadable"}} }),
			act: noErr(func(r *model.SignatureRequest) *outcome { return process(r, "", now) }), phase: model.PhaseError, sigs: []string{model.SigErrorFile}, events: []string{notify.TypeFileError}},
		{name: "confirmed: a held request is sent", req: heldUnconfirmed(false, aw, aw),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return releaseConfirmed(r, now) }),
			phase: model.PhaseSent, sigs: []string{aw, aw}, events: []string{notify.TypeRequestSent}, mails: []string{"signature_request:s0@example.com", "signature_request:s1@example.com"},
			check: func(t *testing.T, o *outcome) { assert.False(t, o.Req.AwaitsConfirmation) }},
		{name: "confirmed: ordered signers are asked one at a time", req: heldUnconfirmed(true, aw, aw),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return releaseConfirmed(r, now) }),
			phase: model.PhaseSent, events: []string{notify.TypeRequestSent}, mails: []string{"signature_request:s0@example.com"}},
		{name: "confirmed: a held draft's request now waits for release_hold", req: with(heldUnconfirmed(false, aw), func(r *model.SignatureRequest) { r.Hold = true }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return releaseConfirmed(r, now) }),
			phase: model.PhaseOnHold, sigs: []string{model.SigOnHoldByRequester}, events: []string{notify.TypeRequestPrepared}, mails: []string{}},
		{name: "confirmed: a request still processing goes on as any other", req: unconfirmed(fresh(trReq(model.PhaseProcessing, false, aw))),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return releaseConfirmed(r, now) }),
			phase: model.PhaseProcessing, sigs: []string{aw}, events: []string{}, mails: []string{},
			check: func(t *testing.T, o *outcome) { assert.False(t, o.Req.AwaitsConfirmation) }},
		{name: "confirmed: a queued cancelation stays", req: with(heldUnconfirmed(false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return releaseConfirmed(r, now) }),
			phase: model.PhaseOnHold, sigs: []string{model.SigOnHold}, events: []string{}, mails: []string{}},
		{name: "release_hold waits for the confirmation", req: heldUnconfirmed(false, aw),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return release(r, now) }, err: apierr.BadRequest},
		{name: "release_hold of a held draft waits for the confirmation", req: with(heldUnconfirmed(false, aw), func(r *model.SignatureRequest) { r.Hold = true }),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return release(r, now) }, err: apierr.BadRequest},
		{name: "sign while held for the confirmation", req: heldUnconfirmed(false, aw), act: sign("s0"), err: apierr.Conflict},
		{name: "view while held for the confirmation", req: heldUnconfirmed(false, aw), act: view("s0"), err: apierr.Conflict},
		{name: "remind while held for the confirmation", req: heldUnconfirmed(false, aw), act: remind("s0@example.com"), err: apierr.InvalidReminder},
		{name: "expire while held for the confirmation", req: with(heldUnconfirmed(false, aw), func(r *model.SignatureRequest) { e := now; r.ExpiresAt = &e }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return expire(r, now) }),
			phase: model.PhaseExpired, sigs: []string{model.SigExpired}, events: []string{notify.TypeRequestExpired}, mails: []string{}},
		{name: "cancel while held for the confirmation queues", req: heldUnconfirmed(false, aw), act: cancel(true), phase: model.PhaseOnHold, events: []string{},
			check: func(t *testing.T, o *outcome) { assert.True(t, o.Req.CancelPending) }},
		{name: "cancel while held completes without e-mails", req: with(heldUnconfirmed(false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return completeCancel(r, now) }),
			phase: model.PhaseCanceled, events: []string{notify.TypeRequestCanceled}, mails: []string{}},
		{name: "update an e-mail while held sends nothing", req: heldUnconfirmed(false, aw), act: update(nil, &email, nil), phase: model.PhaseOnHold, sigs: []string{model.SigOnHold},
			events: []string{}, mails: []string{}},

		// Signer moves.
		{name: "view", req: trReq(model.PhaseSent, false, aw), act: view("s0"), phase: model.PhaseSent, sigs: []string{aw}, events: []string{notify.TypeRequestViewed}},
		{name: "view while processing", req: trReq(model.PhaseProcessing, false, aw), act: view("s0"), err: apierr.Conflict},
		{name: "view out of turn", req: trReq(model.PhaseSent, true, aw, aw), act: view("s1"), err: apierr.Conflict},
		{name: "sign in order, next signer asked", req: with(trReq(model.PhaseSent, true, aw, aw), func(r *model.SignatureRequest) { r.Signatures[1].Notified = false }),
			act: sign("s0"), phase: model.PhaseSent, sigs: []string{sd, aw}, events: []string{notify.TypeRequestSigned}, mails: []string{"signature_request:s1@example.com"}},
		{name: "sign out of order", req: trReq(model.PhaseSent, true, aw, aw), act: sign("s1"), err: apierr.Conflict},
		{name: "last signature completes", req: trReq(model.PhaseSent, false, sd, aw), act: sign("s1"), phase: model.PhaseComplete, sigs: []string{sd, sd},
			events: []string{notify.TypeRequestSigned, notify.TypeRequestAllSigned},
			mails:  []string{"completed:owner@example.com", "completed:s0@example.com", "completed:s1@example.com", "completed:cc@example.com"},
			check:  func(t *testing.T, o *outcome) { assert.True(t, o.Completed) }},
		{name: "sign twice", req: trReq(model.PhaseSent, false, sd, aw), act: sign("s0"), err: apierr.Conflict},
		{name: "sign unknown signature", req: trReq(model.PhaseSent, false, aw), act: sign("nope"), err: apierr.NotFound},
		{name: "sign a declined request", req: trReq(model.PhaseDeclined, false, dc, aw), act: sign("s1"), err: apierr.Conflict},
		{name: "sign an expired request", req: trReq(model.PhaseExpired, false, model.SigExpired), act: sign("s0"), err: apierr.SignatureRequestExpired},
		{name: "sign after cancel queued", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }), act: sign("s0"), err: apierr.Deleted},
		{name: "sign a canceled request", req: trReq(model.PhaseCanceled, false, aw), act: sign("s0"), err: apierr.Deleted},
		{name: "sign an on-hold request", req: trReq(model.PhaseOnHold, false, model.SigOnHoldByRequester), act: sign("s0"), err: apierr.Conflict},
		{name: "sign a request in error", req: trReq(model.PhaseError, false, model.SigErrorFile), act: sign("s0"), err: apierr.Conflict},
		{name: "grouped signers: one signs for the group", req: with(trReq(model.PhaseSent, false, aw, aw, aw), func(r *model.SignatureRequest) {
			r.Signatures[1].Slot = 0
			r.Signatures[2].Slot = 1
		}), act: sign("s1"), phase: model.PhaseSent, sigs: []string{sd, sd, aw}, events: []string{notify.TypeRequestSigned}},
		{name: "decline", req: trReq(model.PhaseSent, false, aw, aw), act: decline("s0"), phase: model.PhaseDeclined, sigs: []string{dc, aw},
			events: []string{notify.TypeRequestDeclined}, mails: []string{"declined:owner@example.com", "declined:s1@example.com"},
			check: func(t *testing.T, o *outcome) {
				assert.Equal(t, "no", o.Req.Signatures[0].DeclineReason)
				assert.Equal(t, "no", o.Events[0].Message)
			}},
		{name: "decline not allowed", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.AllowDecline = false }), act: decline("s0"), err: apierr.Forbidden},
		{name: "reassign", req: trReq(model.PhaseSent, false, aw), act: reassign("s0", "other@example.com"), phase: model.PhaseSent, sigs: []string{aw},
			events: []string{notify.TypeRequestReassigned}, mails: []string{"reassigned:s0@example.com", "signature_request:other@example.com"},
			check: func(t *testing.T, o *outcome) {
				sg := o.Req.Signatures[0]
				assert.Equal(t, "new-id", sg.ID)
				assert.Equal(t, "s0@example.com", sg.ReassignedBy)
				assert.Equal(t, "s0", sg.ReassignedFrom)
				assert.Equal(t, "busy", sg.ReassignmentReason)
			}},
		{name: "reassign not allowed", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.AllowReassign = false }), act: reassign("s0", "o@example.com"), err: apierr.Forbidden},
		{name: "reassign to the same address", req: trReq(model.PhaseSent, false, aw), act: reassign("s0", "S0@example.com"), err: apierr.BadRequest},
		{name: "bounce", req: trReq(model.PhaseSent, false, aw), act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return bounce(r, "s0", now) },
			phase: model.PhaseSent, events: []string{notify.TypeRequestEmailBounce}},
		{name: "bounce before any e-mail", req: with(trReq(model.PhaseSent, true, aw, aw), func(r *model.SignatureRequest) { r.Signatures[1].Notified = false }),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return bounce(r, "s1", now) }, err: apierr.Conflict},
		{name: "bounce after the signer signed", req: trReq(model.PhaseSent, false, sd, aw),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return bounce(r, "s0", now) }, err: apierr.Conflict},
		{name: "bounce after the signer declined", req: trReq(model.PhaseDeclined, false, dc, aw),
			act: func(r *model.SignatureRequest) (*outcome, *apierr.Error) { return bounce(r, "s0", now) }, err: apierr.Conflict},

		// Expiry.
		{name: "expire: unsigned signatures expire", req: with(trReq(model.PhaseSent, false, sd, aw), func(r *model.SignatureRequest) { e := now; r.ExpiresAt = &e }),
			act: noErr(func(r *model.SignatureRequest) *outcome { return expire(r, now) }), phase: model.PhaseExpired, sigs: []string{sd, model.SigExpired}, events: []string{notify.TypeRequestExpired}},

		// Reminders.
		{name: "remind", req: trReq(model.PhaseSent, false, aw), act: remind("S0@example.com"), phase: model.PhaseSent,
			events: []string{notify.TypeRequestRemind}, mails: []string{"reminder:s0@example.com"}},
		{name: "remind within the hour", req: reminded(trReq(model.PhaseSent, false, aw), now-3599), act: remind("s0@example.com"), err: apierr.InvalidReminder},
		{name: "remind after the hour", req: reminded(trReq(model.PhaseSent, false, aw), now-3600), act: remind("s0@example.com"), phase: model.PhaseSent, events: []string{notify.TypeRequestRemind}},
		{name: "remind an embedded request", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.Embedded = true }), act: remind("s0@example.com"), err: apierr.InvalidReminder},
		{name: "remind a signer who signed", req: trReq(model.PhaseSent, false, sd, aw), act: remind("s0@example.com"), err: apierr.InvalidReminder},
		{name: "remind a completed request", req: trReq(model.PhaseComplete, false, sd), act: remind("s0@example.com"), err: apierr.InvalidReminder},
		{name: "remind an unknown address", req: trReq(model.PhaseSent, false, aw), act: remind("x@example.com"), err: apierr.BadRequest},
		{name: "remind within the hour of an automatic reminder", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) {
			o := autoRemind(r, now-60, 3600)
			*r = *o.Req
		}), act: remind("s0@example.com"), err: apierr.InvalidReminder},

		// Automatic reminders (reminders.go).
		{name: "auto remind: every signer who has not acted", req: trReq(model.PhaseSent, false, aw, sd, aw), act: autoRemindAct,
			phase: model.PhaseSent, sigs: []string{aw, sd, aw}, events: []string{notify.TypeRequestRemind, notify.TypeRequestRemind},
			mails: []string{"reminder:s0@example.com", "reminder:s2@example.com"},
			check: func(t *testing.T, o *outcome) {
				require.NotNil(t, o.Req.Signatures[0].LastRemindedAt)
				assert.Equal(t, now, *o.Req.Signatures[0].LastRemindedAt)
				assert.Nil(t, o.Req.Signatures[1].LastRemindedAt)
				assert.Equal(t, []string{"s0", "s2"}, []string{o.Events[0].SignatureID, o.Events[1].SignatureID})
			}},
		{name: "auto remind: ordered signers whose turn has not come are left", req: trReq(model.PhaseSent, true, sd, aw, aw), act: autoRemindAct,
			phase: model.PhaseSent, events: []string{notify.TypeRequestRemind}, mails: []string{"reminder:s1@example.com"}},
		{name: "auto remind: a signer reminded within the hour is left", req: with(trReq(model.PhaseSent, false, aw, aw), func(r *model.SignatureRequest) {
			l := now - 3599
			r.Signatures[0].LastRemindedAt = &l
		}), act: autoRemindAct, events: []string{notify.TypeRequestRemind}, mails: []string{"reminder:s1@example.com"}},
		{name: "auto remind: a signer reminded an hour ago is reminded", req: reminded(trReq(model.PhaseSent, false, aw), now-3600), act: autoRemindAct,
			events: []string{notify.TypeRequestRemind}, mails: []string{"reminder:s0@example.com"}},

		// Cancel.
		{name: "cancel queues", req: trReq(model.PhaseSent, false, sd, aw), act: cancel(true), phase: model.PhaseSent, events: []string{},
			check: func(t *testing.T, o *outcome) { assert.True(t, o.Req.CancelPending) }},
		{name: "cancel completes", req: with(trReq(model.PhaseSent, false, sd, aw), func(r *model.SignatureRequest) { r.CancelPending = true }),
			act:   noErr(func(r *model.SignatureRequest) *outcome { return completeCancel(r, now) }),
			phase: model.PhaseCanceled, events: []string{notify.TypeRequestCanceled}, mails: []string{"canceled:s1@example.com"},
			check: func(t *testing.T, o *outcome) { assert.True(t, o.Gone) }},
		{name: "cancel by someone else", req: trReq(model.PhaseSent, false, aw), act: cancel(false), err: apierr.SignatureRequestCancelFailed},
		{name: "cancel a completed request", req: trReq(model.PhaseComplete, false, sd), act: cancel(true), err: apierr.SignatureRequestCancelFailed},
		{name: "cancel before it was sent", req: trReq(model.PhaseProcessing, false, aw), act: cancel(true), err: apierr.SignatureRequestCancelFailed},
		{name: "cancel twice", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }), act: cancel(true), err: apierr.Conflict},
		{name: "cancel a canceled request", req: trReq(model.PhaseCanceled, false, aw), act: cancel(true), err: apierr.Deleted},

		// Remove.
		{name: "remove a completed request", req: trReq(model.PhaseComplete, false, sd), act: remove(true), phase: model.PhaseComplete, events: []string{notify.TypeRequestDestroyed},
			check: func(t *testing.T, o *outcome) { assert.Equal(t, []string{"acct"}, o.Req.RemovedFor) }},
		{name: "remove a declined request", req: trReq(model.PhaseDeclined, false, dc), act: remove(true), phase: model.PhaseDeclined, events: []string{notify.TypeRequestDestroyed}},
		{name: "remove an incomplete request", req: trReq(model.PhaseSent, false, aw), act: remove(true), err: apierr.SignatureRequestRemoveFailed},
		{name: "remove by a non-party", req: trReq(model.PhaseComplete, false, sd), act: remove(false), err: apierr.SignatureRequestRemoveFailed},

		// Update.
		{name: "update name keeps the signature id", req: trReq(model.PhaseSent, false, aw), act: update(&name, nil, nil), phase: model.PhaseSent, events: []string{},
			check: func(t *testing.T, o *outcome) {
				assert.Equal(t, "s0", o.Req.Signatures[0].ID)
				assert.Equal(t, name, o.Req.Signatures[0].Name)
			}},
		{name: "update e-mail gives a new signature id", req: trReq(model.PhaseSent, false, aw), act: update(nil, &email, nil), phase: model.PhaseSent,
			mails: []string{"signature_request:new@example.com"},
			check: func(t *testing.T, o *outcome) { assert.Equal(t, "new-id", o.Req.Signatures[0].ID) }},
		{name: "update expires_at", req: trReq(model.PhaseSent, false, aw), act: update(nil, nil, &exp), phase: model.PhaseSent,
			check: func(t *testing.T, o *outcome) {
				assert.True(t, o.Expiry)
				assert.Equal(t, exp, *o.Req.ExpiresAt)
			}},
		{name: "update with an appended signature page", req: with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.AppendSignaturePage = true }), act: update(&name, nil, nil), err: apierr.BadRequest},
		{name: "update a signer who signed", req: trReq(model.PhaseSent, false, sd, aw), act: update(&name, nil, nil), err: apierr.BadRequest},
		{name: "update a completed request", req: trReq(model.PhaseComplete, false, sd), act: update(&name, nil, nil), err: apierr.BadRequest},
		{name: "update a canceled request", req: trReq(model.PhaseCanceled, false, aw), act: update(&name, nil, nil), err: apierr.Deleted},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.req.Copy()
			o, e := tc.act(tc.req)
			require.Equal(t, before, tc.req, "a transition never changes its input")
			if tc.err != "" {
				require.NotNil(t, e)
				assert.Equal(t, tc.err, e.Name, e.Msg)
				return
			}
			require.Nil(t, e)
			require.NotNil(t, o)
			if tc.phase != "" {
				assert.Equal(t, tc.phase, o.Req.Phase)
			}
			if tc.sigs != nil {
				var got []string
				for _, sg := range o.Req.Signatures {
					got = append(got, sg.Status)
				}
				assert.Equal(t, tc.sigs, got)
			}
			if tc.events != nil {
				got := []string{}
				for _, ev := range o.Events {
					got = append(got, ev.Type)
				}
				assert.Equal(t, tc.events, got)
			}
			if tc.mails != nil {
				got := []string{}
				for _, m := range o.Mails {
					got = append(got, m.Kind+":"+m.To)
				}
				assert.Equal(t, tc.mails, got)
			}
			if tc.check != nil {
				tc.check(t, o)
			}
		})
	}
}

// TestTransitionsIgnoreStaleJobs: jobs that find the request in another
// phase do nothing.
func TestTransitionsIgnoreStaleJobs(t *testing.T) {
	assert.Nil(t, process(trReq(model.PhaseSent, false, aw), "", 1))
	assert.Nil(t, completeCancel(trReq(model.PhaseSent, false, aw), 1))
	assert.Nil(t, expire(trReq(model.PhaseComplete, false, sd), 1))
	r := trReq(model.PhaseSent, false, aw)
	e := int64(100)
	r.ExpiresAt = &e
	assert.Nil(t, expire(r, 99), "not yet due")
}

// TestAutoRemindersLeaveWhatTheyCannotRemind: an automatic reminder
// changes nothing (no outcome) when nobody is to be reminded, and a
// confirmation changes nothing for a request that was not waiting for it.
func TestAutoRemindersLeaveWhatTheyCannotRemind(t *testing.T) {
	const now = int64(1_000_000)
	for name, r := range map[string]*model.SignatureRequest{
		"processing":         trReq(model.PhaseProcessing, false, aw),
		"on hold":            trReq(model.PhaseOnHold, false, model.SigOnHold),
		"completed":          trReq(model.PhaseComplete, false, sd),
		"declined":           trReq(model.PhaseDeclined, false, dc, aw),
		"expired":            trReq(model.PhaseExpired, false, model.SigExpired),
		"canceled":           trReq(model.PhaseCanceled, false, aw),
		"cancelation queued": with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }),
		"embedded":           with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.Embedded = true }),
		"everyone signed":    trReq(model.PhaseSent, false, sd, sd),
		"not yet asked":      with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.Signatures[0].Notified = false }),
		"reminded just now": with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) {
			l := now - 1
			r.Signatures[0].LastRemindedAt = &l
		}),
	} {
		assert.Nil(t, autoRemind(r, now, 3600), name)
	}
	assert.Nil(t, releaseConfirmed(trReq(model.PhaseOnHold, false, model.SigOnHoldByRequester), now), "held by its requester only")
	assert.Nil(t, releaseConfirmed(with(trReq(model.PhaseExpired, false, model.SigExpired), func(r *model.SignatureRequest) { r.AwaitsConfirmation = true }), now))
}

// TestAutoReminderPlanFollowsTransitions pins which moves end a request's
// automatic reminders (it stops awaiting signatures) and which start them
// over (someone is asked to sign): applyOutcome drops and queues the
// reminder job accordingly.
func TestAutoReminderPlanFollowsTransitions(t *testing.T) {
	const now = int64(1_000_000)
	name, email := "Renamed", "new@example.com"
	heldU := with(trReq(model.PhaseOnHold, false, model.SigOnHold), func(r *model.SignatureRequest) {
		r.AwaitsConfirmation, r.Signatures[0].Notified = true, false
	})
	rows := []struct {
		name          string
		o             func() (*outcome, *apierr.Error)
		stop, restart bool
	}{
		{"processed and sent", func() (*outcome, *apierr.Error) {
			return process(with(trReq(model.PhaseProcessing, false, aw), func(r *model.SignatureRequest) { r.Signatures[0].Notified = false }), "", now), nil
		}, false, true},
		{"processed and held for the confirmation", func() (*outcome, *apierr.Error) {
			return process(with(trReq(model.PhaseProcessing, false, aw), func(r *model.SignatureRequest) { r.AwaitsConfirmation = true }), "", now), nil
		}, false, false},
		{"confirmed and sent", func() (*outcome, *apierr.Error) { return releaseConfirmed(heldU, now), nil }, false, true},
		{"released", func() (*outcome, *apierr.Error) {
			return release(with(trReq(model.PhaseOnHold, false, model.SigOnHoldByRequester), func(r *model.SignatureRequest) { r.Signatures[0].Notified = false }), now)
		}, false, true},
		{"signed, the next signer's turn", func() (*outcome, *apierr.Error) {
			return sign(with(trReq(model.PhaseSent, true, aw, aw), func(r *model.SignatureRequest) { r.Signatures[1].Notified = false }), "s0", nil, now)
		}, false, true},
		{"signed, others still to sign", func() (*outcome, *apierr.Error) { return sign(trReq(model.PhaseSent, false, aw, aw), "s0", nil, now) }, false, false},
		{"completed", func() (*outcome, *apierr.Error) { return sign(trReq(model.PhaseSent, false, aw), "s0", nil, now) }, true, false},
		{"declined", func() (*outcome, *apierr.Error) { return decline(trReq(model.PhaseSent, false, aw), "s0", "no", now) }, true, false},
		{"reassigned", func() (*outcome, *apierr.Error) {
			return reassign(trReq(model.PhaseSent, false, aw), "s0", "New", "other@example.com", "", "new-id", now)
		}, false, true},
		{"signer's e-mail updated", func() (*outcome, *apierr.Error) {
			return update(trReq(model.PhaseSent, false, aw), "s0", nil, &email, nil, "new-id", now)
		}, false, true},
		{"signer's name updated", func() (*outcome, *apierr.Error) {
			return update(trReq(model.PhaseSent, false, aw), "s0", &name, nil, nil, "new-id", now)
		}, false, false},
		{"reminded by hand", func() (*outcome, *apierr.Error) {
			return remind(trReq(model.PhaseSent, false, aw), "s0@example.com", "", now, 3600)
		}, false, false},
		{"reminded automatically", func() (*outcome, *apierr.Error) {
			return autoRemind(trReq(model.PhaseSent, false, aw), now, 3600), nil
		}, false, false},
		{"viewed", func() (*outcome, *apierr.Error) { return view(trReq(model.PhaseSent, false, aw), "s0", now) }, false, false},
		{"cancelation queued", func() (*outcome, *apierr.Error) { return cancel(trReq(model.PhaseSent, false, aw), true) }, true, false},
		{"expired", func() (*outcome, *apierr.Error) {
			return expire(with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { e := now; r.ExpiresAt = &e }), now), nil
		}, true, false},
		{"failed", func() (*outcome, *apierr.Error) {
			return fail(trReq(model.PhaseSent, false, aw), api.ProcessFailure{StatusCode: model.SigErrorUnknown}, now), nil
		}, true, false},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			o, e := tc.o()
			require.Nil(t, e)
			require.NotNil(t, o)
			assert.Equal(t, tc.stop, remindersStop(o), "stop")
			assert.Equal(t, tc.restart, remindersRestart(o), "restart")
		})
	}
}

// TestNextAutoReminder: the earliest delay of the schedule that falls
// after now, in any order the schedule lists them.
func TestNextAutoReminder(t *testing.T) {
	day := model.Duration(24 * time.Hour)
	since := int64(1_000_000)
	at := func(d model.Duration) time.Time { return time.Unix(since, 0).Add(d.D()) }
	after := []model.Duration{7 * day, 3 * day}
	next, ok := nextAutoReminder(after, since, time.Unix(since, 0))
	require.True(t, ok)
	assert.Equal(t, at(3*day), next)
	next, ok = nextAutoReminder(after, since, at(3*day))
	require.True(t, ok)
	assert.Equal(t, at(7*day), next, "a reminder due now is the one running")
	_, ok = nextAutoReminder(after, since, at(7*day))
	assert.False(t, ok, "the schedule is over")
	_, ok = nextAutoReminder(nil, since, time.Unix(since, 0))
	assert.False(t, ok)
}

// TestEditableRules pins when a request may be edited and resent.
func TestEditableRules(t *testing.T) {
	assert.Nil(t, checkEditable(trReq(model.PhaseSent, false, aw), true, false))
	assert.Nil(t, checkEditable(trReq(model.PhaseProcessing, false, aw), true, false))
	assert.Equal(t, apierr.BadRequest, checkEditable(trReq(model.PhaseSent, false, sd, aw), true, false).Name)
	assert.Equal(t, apierr.BadRequest, checkEditable(trReq(model.PhaseComplete, false, sd), true, false).Name)
	assert.Equal(t, apierr.Forbidden, checkEditable(trReq(model.PhaseSent, false, aw), false, false).Name)
	assert.Equal(t, apierr.BadRequest, checkEditable(trReq(model.PhaseSent, false, aw), true, true).Name, "edit_embedded of a non-embedded request")
	emb := trReq(model.PhaseSent, false, aw)
	emb.Embedded = true
	assert.Equal(t, apierr.BadRequest, checkEditable(emb, true, false).Name, "edit of an embedded request")
	assert.Equal(t, apierr.Deleted, checkEditable(trReq(model.PhaseCanceled, false, aw), true, false).Name)
}
