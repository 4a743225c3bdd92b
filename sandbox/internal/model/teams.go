package model

// TeamInvite is an outstanding (or redeemed, or withdrawn) invitation of an
// e-mail address to a team. Whether the invitee already has an account is
// decided when the invitation is shown, so that an account created after the
// invitation moves it from invited_emails to invited_accounts, as in the real
// service.
type TeamInvite struct {
	ID       string `json:"id"`
	TeamID   string `json:"team_id"`
	Email    string `json:"email_address"`
	EmailKey string `json:"email_key"`
	// Role is the role name (Member, Developer, Team Manager, Admin) the
	// invitee takes when they accept.
	Role      string `json:"role"`
	InviterID string `json:"inviter_account_id"`
	SentAt    int64  `json:"sent_at"`
	ExpiresAt int64  `json:"expires_at"`
	// RedeemedAt is set when the invitee joined; WithdrawnAt when the
	// invitation was expired by remove_member or team deletion.
	RedeemedAt  int64  `json:"redeemed_at,omitempty"`
	WithdrawnAt int64  `json:"withdrawn_at,omitempty"`
	Seq         uint64 `json:"seq"`
}

// Outstanding reports whether the invitation can still be accepted at now
// (Unix seconds).
func (i *TeamInvite) Outstanding(now int64) bool {
	return i.RedeemedAt == 0 && i.WithdrawnAt == 0 && now < i.ExpiresAt
}
