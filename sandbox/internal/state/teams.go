package state

import (
	"sort"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TableTeamInvites holds the invitations to join a team.
const TableTeamInvites = "team_invites"

// registerTeams adds the team invitations.
func registerTeams() {
	Register[model.TeamInvite](&memdb.TableSchema{
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
func InvitesOfTeam(tx *Txn, teamID string) ([]*model.TeamInvite, error) {
	rows, err := All[model.TeamInvite](tx, TableTeamInvites, IndexTeam, teamID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(i *model.TeamInvite) uint64 { return i.Seq }), nil
}

// InvitesOfEmail lists the invitations sent to an address, oldest first.
func InvitesOfEmail(tx *Txn, email string) ([]*model.TeamInvite, error) {
	rows, err := All[model.TeamInvite](tx, TableTeamInvites, IndexEmail, EmailKey(email))
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(i *model.TeamInvite) uint64 { return i.Seq }), nil
}

// MembersOfTeam lists the accounts of a team in creation order.
func MembersOfTeam(tx *Txn, teamID string) ([]*model.Account, error) {
	rows, err := All[model.Account](tx, TableAccounts, IndexTeam, teamID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(a *model.Account) uint64 { return a.Seq }), nil
}

// AllTeams lists every team of the world in creation order (fixture teams,
// which have no sequence number, first, by id).
func AllTeams(tx *Txn) ([]*model.Team, error) {
	rows, err := All[model.Team](tx, TableTeams, IndexID)
	if err != nil {
		return nil, err
	}
	return inSeqOrder(rows, func(t *model.Team) uint64 { return t.Seq }), nil
}

// SubTeamsOf lists the direct sub-teams of a team in creation order.
func SubTeamsOf(tx *Txn, teamID string) ([]*model.Team, error) {
	all, err := AllTeams(tx)
	if err != nil {
		return nil, err
	}
	var out []*model.Team
	for _, t := range all {
		if t.ParentID == teamID {
			out = append(out, t)
		}
	}
	return out, nil
}

// RootTeamOf follows parent links to the top of a team's tree (the
// organisation whose admins manage every team in it).
func RootTeamOf(tx *Txn, teamID string) (*model.Team, error) {
	t, err := Get[model.Team](tx, TableTeams, teamID)
	if err != nil {
		return nil, err
	}
	for depth := 0; t.ParentID != "" && depth < 64; depth++ {
		p, err := Get[model.Team](tx, TableTeams, t.ParentID)
		if err != nil {
			break
		}
		t = p
	}
	return t, nil
}
