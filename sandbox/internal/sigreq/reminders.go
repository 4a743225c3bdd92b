package sigreq

// Automatic reminders: the service reminds the signers who have not acted
// on a schedule of its own, the world configuration's auto_reminders
// (three and seven days by default, docs/fidelity.md). A request has one
// reminder job queued at a time on the world's scheduler, counted from the
// last time the request asked someone to sign: sent, released, the next
// signer's turn, a reassigned or updated signer all start the schedule
// over, so that nobody is reminded of a request they were just sent. A
// request that stops awaiting signatures drops its job.

import (
	"encoding/json"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobAutoRemind is the job of one automatic reminder of a request.
const jobAutoRemind = "signature_request.auto_remind"

// autoRemindArgs ties a reminder job to the request version it was
// planned for and to the start of its schedule.
type autoRemindArgs struct {
	Generation int `json:"generation"`
	// Since is when the schedule started (Unix seconds): the last time the
	// request asked someone to sign.
	Since int64 `json:"since"`
}

// autoRemind is the service's automatic reminder: every signer whose turn
// it is, who has not signed or declined and was not reminded (by hand or
// automatically) within interval seconds, is e-mailed a reminder, with
// signature_request_remind for each. nil when nobody is reminded, or the
// request no longer awaits signatures by e-mail.
func autoRemind(req *model.SignatureRequest, now, interval int64) *outcome {
	if req.Phase != model.PhaseSent || req.CancelPending || req.Embedded {
		return nil
	}
	o := begin(req)
	for i := range o.Req.Signatures {
		sg := &o.Req.Signatures[i]
		if sg.Status != model.SigAwaiting || !sg.Notified || !IsTurn(o.Req, sg) {
			continue
		}
		if sg.LastRemindedAt != nil && now-*sg.LastRemindedAt < interval {
			continue
		}
		t := now
		sg.LastRemindedAt = &t
		o.audit(now, "", "reminded automatically", sg.Email)
		o.mail(notify.MailReminder, sg.Email, sg.Name, sg.ID)
		o.event(notify.TypeRequestRemind, sg.ID, "")
	}
	if len(o.Mails) == 0 {
		return nil
	}
	return o
}

// runAutoRemind sends one automatic reminder, then queues the next one of
// the schedule. Automatic reminders turned off in the meantime end the
// schedule.
func runAutoRemind(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
	var args autoRemindArgs
	if json.Unmarshal(job.Args, &args) != nil {
		return nil
	}
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
	if err != nil || req.Generation != args.Generation {
		return nil
	}
	cfg := state.GetConfig(tx)
	if !cfg.AutoReminders.Enabled {
		return nil
	}
	interval := int64(cfg.ReminderInterval.D().Seconds())
	if err := applyOutcome(s, tx, autoRemind(req, tx.Unix(), interval)); err != nil {
		return err
	}
	return planAutoReminder(tx, req, args.Since)
}

// planAutoReminder queues the next automatic reminder of a request awaiting
// signatures by e-mail, on the schedule started at since: the earliest of
// the configured delays that falls after now. Nothing is queued when
// automatic reminders are off or the schedule is over.
func planAutoReminder(tx *state.Txn, req *model.SignatureRequest, since int64) error {
	if req.Phase != model.PhaseSent || req.CancelPending || req.Embedded {
		return nil
	}
	cfg := state.GetConfig(tx).AutoReminders
	if !cfg.Enabled {
		return nil
	}
	at, ok := nextAutoReminder(cfg.After, since, tx.Now())
	if !ok {
		return nil
	}
	_, err := state.ScheduleAt(tx, jobAutoRemind, req.ID, at, autoRemindArgs{Generation: req.Generation, Since: since})
	return err
}

// nextAutoReminder is the earliest instant since+d, for d in after, that
// is later than now (false when none is).
func nextAutoReminder(after []model.Duration, since int64, now time.Time) (time.Time, bool) {
	start := time.Unix(since, 0)
	var next time.Time
	found := false
	for _, d := range after {
		at := start.Add(d.D())
		if at.After(now) && (!found || at.Before(next)) {
			next, found = at, true
		}
	}
	return next, found
}

// remindersStop reports whether a transition ends the request's wait for
// signatures (completed, declined, expired, failed, cancelation queued):
// its reminder job goes.
func remindersStop(o *outcome) bool {
	return awaitsSignatures(o.Prev) && !awaitsSignatures(o.Req)
}

// remindersRestart reports whether a transition asked someone to sign a
// request that awaits signatures: its reminder schedule starts over.
func remindersRestart(o *outcome) bool {
	if !awaitsSignatures(o.Req) {
		return false
	}
	for _, m := range o.Mails {
		if m.Kind == notify.MailSignatureRequest {
			return true
		}
	}
	return false
}

func awaitsSignatures(r *model.SignatureRequest) bool {
	return r.Phase == model.PhaseSent && !r.CancelPending
}
