package notify

import "github.com/signsandbox/signsandbox/sandbox/internal/state"

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
// exists exactly when the change that sends it committed).
func Email(tx *state.Txn, e state.Email) (*state.Email, error) {
	e.ID = tx.NewUUID()
	e.Seq = tx.Seq()
	e.SentAt = tx.Unix()
	if err := state.AddEmail(tx, &e); err != nil {
		return nil, err
	}
	return &e, nil
}
