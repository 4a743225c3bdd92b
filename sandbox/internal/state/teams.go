package state

import (
	"sort"

	memdb "github.com/hashicorp/go-memdb"
)

// TableTeamInvites holds the invitations to join a team.
const TableTeamInvites = "team_invites"

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

// registerTeams adds the team invitations.
func registerTeams() {
	Register[TeamInvite](&memdb.TableSchema{
		Name: TableTeamInvites,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:    {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexTeam:  {Name: IndexTeam, Indexer: &memdb.StringFieldIndex{Field: "TeamID"}},
			IndexEmail: {Name: IndexEmail, Indexer: &memdb.StringFieldIndex{Field: "EmailKey"}},
		},
	})
}

// inSeqOrder sorts rows by a sequence number, the creation order of the world.
func inSeqOrder[T any](rows []*T, seq func(*T) uint64) []*T {
	sort.SliceStable(rows, func(i, j int) bool { return seq(rows[i]) < seq(rows[j]) })
	return rows
}

// InvitesOfTeam lists a team's invitations in the order they were sent.
func InvitesOfTeam(tx *Txn, teamID string) ([]*TeamInvite, error) {
	rows, err := All[TeamInvite](tx, TableTeamInvites, IndexTeam, teamID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(i *TeamInvite) uint64 { return i.Seq }), nil
}

// InvitesOfEmail lists the invitations sent to an address, oldest first.
func InvitesOfEmail(tx *Txn, email string) ([]*TeamInvite, error) {
	rows, err := All[TeamInvite](tx, TableTeamInvites, IndexEmail, EmailKey(email))
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(i *TeamInvite) uint64 { return i.Seq }), nil
}

// MembersOfTeam lists the accounts of a team in creation order.
func MembersOfTeam(tx *Txn, teamID string) ([]*Account, error) {
	rows, err := All[Account](tx, TableAccounts, IndexTeam, teamID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(a *Account) uint64 { return a.Seq }), nil
}

// AllTeams lists every team of the world in creation order (fixture teams,
// which have no sequence number, first, by id).
func AllTeams(tx *Txn) ([]*Team, error) {
	rows, err := All[Team](tx, TableTeams, IndexID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(t *Team) uint64 { return t.Seq }), nil
}

// SubTeamsOf lists the direct sub-teams of a team in creation order.
func SubTeamsOf(tx *Txn, teamID string) ([]*Team, error) {
	all, err := AllTeams(tx)
	if err != nil {
		return nil, err
	}
	var out []*Team
	for _, t := range all {
		if t.ParentID == teamID {
			out = append(out, t)
		}
	}
	return out, nil
}

// RootTeamOf follows parent links to the top of a team's tree (the
// organisation whose admins manage every team in it).
func RootTeamOf(tx *Txn, teamID string) (*Team, error) {
	t, err := Get[Team](tx, TableTeams, teamID)
	if err != nil {
		return nil, err
	}
	for depth := 0; t.ParentID != "" && depth < 64; depth++ {
		p, err := Get[Team](tx, TableTeams, t.ParentID)
		if err != nil {
			break
		}
		t = p
	}
	return t, nil
}
