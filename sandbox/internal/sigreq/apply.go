package sigreq

import (
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// applyOutcome writes a transition's outcome in tx: the request row, list
// access for new signers, e-mails, file work, jobs (test signers' actions
// among them) and, last, the events
// (emit renders the object as stored, so it must see the new row).
func applyOutcome(s *api.Host, tx *state.Txn, o *outcome) error {
	if o == nil {
		return nil
	}
	req := o.Req
	if o.Gone {
		// A canceled request leaves every list.
		for _, id := range requestAccountIDs(tx, req) {
			if err := state.RemoveAccess(tx, id, req.ID); err != nil {
				return err
			}
		}
	} else if o.Prev != nil && signerSetChanged(o.Prev, req) {
		if err := grantAccess(tx, req, o.Prev); err != nil {
			return err
		}
	}
	for _, m := range o.Mails {
		if err := sigreqMail(tx, req, m); err != nil {
			return err
		}
	}
	// The row is written after the e-mails: a signing e-mail's link
	// secret goes on its signature (req is the outcome's own copy).
	if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
		return err
	}
	if o.Files || o.Completed {
		if err := document.ScheduleFiles(tx, document.KindSignatureRequest, req.ID); err != nil {
			return err
		}
	}
	// Jobs the transition ends (a completed cancelation ends them all,
	// below): the expiry of a completed request, the automatic reminders
	// of one that stopped awaiting signatures or asked someone new
	// (reminders.go), in one read of the request's jobs.
	var drop []string
	if o.Completed {
		drop = append(drop, jobExpire)
	}
	restart := remindersRestart(o)
	if remindersStop(o) || restart && awaitsSignatures(o.Prev) {
		drop = append(drop, jobAutoRemind)
	}
	if len(drop) > 0 && !o.Gone {
		if err := state.CancelJobs(tx, req.ID, drop...); err != nil {
			return err
		}
	}
	if restart {
		if err := planAutoReminder(tx, req, tx.Unix()); err != nil {
			return err
		}
	}
	if o.Completed {
		cfg := state.GetConfig(tx)
		if _, err := state.Schedule(tx, JobDownloadable, req.ID, cfg.FilePreparationDelay.D(), JobArgs{Generation: req.Generation}); err != nil {
			return err
		}
	}
	if o.Gone {
		if err := document.GoneFiles(tx, document.KindSignatureRequest, req.ID); err != nil {
			return err
		}
		if err := cancelRequestJobs(tx, req.ID); err != nil {
			return err
		}
	}
	if o.Expiry {
		if err := scheduleExpiry(tx, req); err != nil {
			return err
		}
	}
	// Reserved test signers who became active act later (test_values.go).
	if err := scheduleTestValues(tx, o); err != nil {
		return err
	}
	for _, ev := range o.Events {
		if err := emitForRequest(s, tx, req, ev); err != nil {
			return err
		}
	}
	return nil
}

// emitForRequest emits an event about a request to its accounts (the
// requester, then signers with accounts) and its API app.
func emitForRequest(s *api.Host, tx *state.Txn, req *model.SignatureRequest, ev sigEvent) error {
	accounts := requestAccountIDs(tx, req)
	client := req.ClientID
	if ev.Type == notify.TypeRequestDestroyed {
		// Removal is one account's action: only that account hears of it
		// (and the app when the requester removed it).
		accounts = []string{req.RemovedFor[len(req.RemovedFor)-1]}
		if accounts[0] != req.RequesterAccountID {
			client = ""
		}
	}
	return s.Emit(tx, notify.Event{
		Type: ev.Type, ObjectType: notify.ObjectSignatureRequest, ObjectID: req.ID, AccountIDs: accounts,
		ClientID: client, RelatedSignatureID: ev.SignatureID, EventMessage: ev.Message,
	})
}

// signerSetChanged reports whether a transition changed a signer's e-mail
// address (reassign, update), which changes who lists the request.
func signerSetChanged(a, b *model.SignatureRequest) bool {
	if len(a.Signatures) != len(b.Signatures) {
		return true
	}
	for i := range a.Signatures {
		if state.EmailKey(a.Signatures[i].Email) != state.EmailKey(b.Signatures[i].Email) {
			return true
		}
	}
	return false
}

func removedFor(req *model.SignatureRequest, accountID string) bool {
	for _, id := range req.RemovedFor {
		if id == accountID {
			return true
		}
	}
	return false
}

// sigreqMail records one e-mail of a request in the outbox. The e-mail that
// asks a signer to sign carries a signing-page link that does not expire;
// its secret goes on the signature in req, which the caller stores after.
func sigreqMail(tx *state.Txn, req *model.SignatureRequest, m sigMail) error {
	topic := req.Subject
	if topic == "" {
		topic = req.Title
	}
	e := model.Email{Kind: m.Kind, To: m.To, Name: m.Name, SignatureRequestID: req.ID, SignatureID: m.SignatureID, Message: req.Message,
		FromName: req.RequesterName, ReplyTo: req.RequesterEmail, Title: req.Title,
		Brand: state.BrandOf(tx, req.ClientID, req.WorldURL+"/requests/"+req.ID+apiapp.LogoPath)}
	if e.FromName == "" {
		e.FromName = requesterLabel(req)
	}
	switch m.Kind {
	case notify.MailSignatureRequest:
		e.Subject = requesterLabel(req) + " has requested your signature: " + topic
		tok, err := signLink(tx, req, m.SignatureID)
		if err != nil {
			return err
		}
		e.Link = req.WorldURL + "/sign/" + tok
	case notify.MailReminder:
		e.Subject = "Reminder: " + requesterLabel(req) + " has requested your signature: " + topic
		// A reminder repeats the signing e-mail's link; when the outbox no
		// longer holds that e-mail (cleared, or past log_limit) it gets a
		// new one, as a first request would.
		tok := latestSignToken(tx, req, m.SignatureID)
		if tok == "" {
			var err error
			if tok, err = signLink(tx, req, m.SignatureID); err != nil {
				return err
			}
		}
		e.Link = req.WorldURL + "/sign/" + tok
	case notify.MailCompleted:
		e.Subject = "Everyone has signed " + req.Title
		e.Link = req.BaseURL + api.APIPrefix + "/signature_request/files/" + req.ID
		e.Message = ""
	case notify.MailDeclined:
		e.Subject = req.Title + " has been declined"
		e.Message = ""
		for _, sg := range req.Signatures {
			if sg.Status == model.SigDeclined {
				e.Actor, e.Note = signerLabel(sg), sg.DeclineReason
				break
			}
		}
	case notify.MailCanceled:
		e.Subject = req.Title + " has been canceled by " + requesterLabel(req)
		e.Message = ""
	case notify.MailReassigned:
		e.Subject = "You reassigned " + req.Title
		e.Message = ""
		for _, sg := range req.Signatures {
			if sg.ReassignedFrom == m.SignatureID && m.SignatureID != "" {
				e.Actor, e.Note = signerLabel(sg), sg.ReassignmentReason
				break
			}
		}
	default:
		e.Subject = req.Title
	}
	_, err := notify.Email(tx, e)
	return err
}

// signLink makes the token of a signing e-mail's link. It names the
// signature and keeps its secret there (state.SignLinkToken), so a link
// adds no row; a signature whose id cannot be named that way (only an
// imported world has one) gets a SignURL row, as every link once did.
func signLink(tx *state.Txn, req *model.SignatureRequest, sigID string) (string, error) {
	secret := tx.NewSecret()
	if tok, ok := state.SignLinkToken(secret, sigID); ok && state.AddLinkSecret(req, sigID, secret) {
		return tok, nil
	}
	row := &model.SignURL{Token: secret, SignatureID: sigID, RequestID: req.ID}
	if err := state.Put(tx, state.TableSignURLs, row); err != nil {
		return "", err
	}
	return secret, nil
}

// signerLabel names a signer in an e-mail's text: name and address.
func signerLabel(sg model.Signature) string {
	if sg.Name == "" {
		return sg.Email
	}
	return sg.Name + " (" + sg.Email + ")"
}

// requesterLabel names the requester in e-mail subjects.
func requesterLabel(req *model.SignatureRequest) string {
	if req.RequesterName != "" {
		return req.RequesterName
	}
	return req.RequesterEmail
}

// latestSignToken finds the link of the last signing e-mail to a signer
// (reminders repeat it).
func latestSignToken(tx *state.Txn, req *model.SignatureRequest, sigID string) string {
	e := lastEmailTo(tx, req.ID, sigID, notify.MailSignatureRequest)
	if e == nil || e.Link == "" {
		return ""
	}
	if i := strings.LastIndex(e.Link, "/sign/"); i >= 0 {
		return e.Link[i+len("/sign/"):]
	}
	return ""
}

// lastEmailTo finds the newest e-mail of a kind ("" for any) about a
// signature of a request, among the request's e-mails.
func lastEmailTo(tx *state.Txn, requestID, sigID, kind string) *model.Email {
	e, err := state.LastEmailAbout(tx, requestID, sigID, func(e *model.Email) bool {
		return kind == "" || e.Kind == kind
	})
	if err != nil {
		return nil
	}
	return e
}

// scheduleProcessing queues the end of processing for the request's
// current generation, and its expiry.
func scheduleProcessing(tx *state.Txn, req *model.SignatureRequest) error {
	cfg := state.GetConfig(tx)
	if _, err := state.Schedule(tx, JobProcess, req.ID, cfg.SendProcessingDelay.D(), JobArgs{Generation: req.Generation}); err != nil {
		return err
	}
	if err := document.ScheduleFiles(tx, document.KindSignatureRequest, req.ID); err != nil {
		return err
	}
	return scheduleExpiry(tx, req)
}

// scheduleExpiry (re)queues the expiry job at expires_at.
func scheduleExpiry(tx *state.Txn, req *model.SignatureRequest) error {
	if err := state.CancelJobs(tx, req.ID, jobExpire); err != nil {
		return err
	}
	if req.ExpiresAt == nil {
		return nil
	}
	_, err := state.ScheduleAt(tx, jobExpire, req.ID, time.Unix(*req.ExpiresAt, 0), JobArgs{Generation: req.Generation})
	return err
}
