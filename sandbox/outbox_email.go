package sandbox

import "github.com/signsandbox/signsandbox/sandbox/internal/state"

// E-mail kinds recorded in the outbox.
const (
	mailSignatureRequest = "signature_request" // a signer is asked to sign
	mailReminder         = "reminder"
	mailCompleted        = "completed"       // final copy to signers and CCs
	mailDeclined         = "declined"        // to the requester and other parties
	mailCanceled         = "canceled"        // to signers of a canceled request
	mailReassigned       = "reassigned"      // to the new signer's predecessor
	mailTemplateShared   = "template_shared" // a template was shared with a team member
	mailReport           = "report"          // a report is ready
	mailTeamInvite       = "team_invite"     // an invitation to join a team
	mailAccountConfirm   = "account_confirmation"
)

// sendEmail records an e-mail in the world's outbox (inside tx, so that it
// exists exactly when the change that sends it committed).
func sendEmail(tx *state.Txn, e state.Email) (*state.Email, error) {
	e.ID = tx.NewUUID()
	e.Seq = tx.Seq()
	e.SentAt = tx.Unix()
	if err := state.Put(tx, state.TableEmails, &e); err != nil {
		return nil, err
	}
	return &e, nil
}
