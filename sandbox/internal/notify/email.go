package notify

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// E-mail kinds recorded in the outbox.
const (
	MailSignatureRequest = "signature_request" // a signer is asked to sign
	MailReminder         = "reminder"
	MailCompleted        = "completed"       // final copy to signers and CCs
	MailDeclined         = "declined"        // to the requester and other parties
	MailCanceled         = "canceled"        // to signers of a canceled request
	MailReassigned       = "reassigned"      // to the new signer's predecessor
	MailTemplateShared   = "template_shared" // a template was shared with a team member
	MailReport           = "report"          // a report is ready
	MailTeamInvite       = "team_invite"     // an invitation to join a team
	MailAccountConfirm   = "account_confirmation"
)

// Email records an e-mail in the world's outbox (inside tx, so that it
// exists exactly when the change that sends it committed), and tells the
// world's SMTP relay, if any, after the commit. e holds what the message
// is composed of (package mail): the recipient, the subject, the link and
// the message, and, to read like the real e-mail, the party it is from
// (FromName, ReplyTo), what it is about (Title), who acted and what they
// said (Actor, Note) and the branding of the app a request went through
// (Brand).
func Email(tx *state.Txn, e model.Email) (*model.Email, error) {
	e.ID = tx.NewUUID()
	e.Seq = tx.Seq()
	e.SentAt = tx.Unix()
	if err := state.AddEmail(tx, &e); err != nil {
		return nil, err
	}
	tx.Notify(state.TopicEmails)
	return &e, nil
}
