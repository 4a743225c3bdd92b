package team

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/account"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// teamRoleNames maps the role codes of AccountResponse.role_code to the role
// names of the team operations.
var teamRoleNames = map[string]string{
	"a": "Admin",
	"m": "Member",
	"d": "Developer",
	"t": "Team Manager",
}

// teamRoleCodes is the inverse of teamRoleNames.
var teamRoleCodes = func() map[string]string {
	m := make(map[string]string, len(teamRoleNames))
	for code, name := range teamRoleNames {
		m[name] = code
	}
	return m
}()

// AccountView is the subset of AccountResponse that team and fax line
// answers show for other accounts: no settings, locale or callback URL, as
// the official examples do.
type AccountView struct {
	AccountID    string          `json:"account_id"`
	EmailAddress string          `json:"email_address"`
	IsLocked     bool            `json:"is_locked"`
	IsPaidHS     bool            `json:"is_paid_hs"`
	IsPaidHF     bool            `json:"is_paid_hf"`
	Quotas       *account.Quotas `json:"quotas,omitempty"`
	RoleCode     *string         `json:"role_code,omitempty"`
}

// ViewAccount renders a team member or invitee; withRole adds role_code
// (members have one, invitees do not).
func ViewAccount(a *model.Account, withQuotas, withRole bool) AccountView {
	v := AccountView{AccountID: a.ID, EmailAddress: a.Email, IsLocked: a.IsLocked, IsPaidHS: a.IsPaidHS, IsPaidHF: a.IsPaidHF}
	if withQuotas {
		q := account.View(a).Quotas
		v.Quotas = &q
	}
	if withRole && a.RoleCode != "" {
		v.RoleCode = api.NullString(a.RoleCode)
	}
	return v
}

// teamView is TeamResponse.
type teamView struct {
	Name            string        `json:"name"`
	Accounts        []AccountView `json:"accounts"`
	InvitedAccounts []AccountView `json:"invited_accounts"`
	InvitedEmails   []string      `json:"invited_emails"`
}

// teamGetResponse is TeamGetResponse.
type teamGetResponse struct {
	Team teamView `json:"team"`
}

// viewTeam renders a team with its members and its outstanding invitations:
// invitees with an account are invited_accounts, the others invited_emails.
func viewTeam(tx *state.Txn, t *model.Team) (teamView, error) {
	v := teamView{Name: t.Name, Accounts: []AccountView{}, InvitedAccounts: []AccountView{}, InvitedEmails: []string{}}
	members, err := state.MembersOfTeam(tx, t.ID)
	if err != nil {
		return v, err
	}
	for _, a := range members {
		v.Accounts = append(v.Accounts, ViewAccount(a, true, true))
	}
	invites, err := state.InvitesOfTeam(tx, t.ID)
	if err != nil {
		return v, err
	}
	seen := map[string]bool{}
	for _, inv := range invites {
		if !inv.Outstanding(tx.Unix()) || seen[inv.EmailKey] {
			continue
		}
		seen[inv.EmailKey] = true
		if a, err := state.AccountByEmail(tx, inv.Email); err == nil {
			v.InvitedAccounts = append(v.InvitedAccounts, ViewAccount(a, true, false))
			continue
		}
		v.InvitedEmails = append(v.InvitedEmails, inv.Email)
	}
	return v, nil
}

// teamParentView is TeamParentResponse (null for a root team).
type teamParentView struct {
	TeamID string `json:"team_id"`
	Name   string `json:"name"`
}

// teamInfoView is TeamInfoResponse.
type teamInfoView struct {
	TeamID      string          `json:"team_id"`
	TeamParent  *teamParentView `json:"team_parent"`
	Name        string          `json:"name"`
	NumMembers  int             `json:"num_members"`
	NumSubTeams int             `json:"num_sub_teams"`
}

// teamGetInfoResponse is TeamGetInfoResponse.
type teamGetInfoResponse struct {
	Team teamInfoView `json:"team"`
}

// teamInviteView is TeamInviteResponse. redeemed_at is absent while the
// invitation is outstanding (the schema does not allow null).
type teamInviteView struct {
	EmailAddress string `json:"email_address"`
	TeamID       string `json:"team_id"`
	Role         string `json:"role"`
	SentAt       int64  `json:"sent_at"`
	RedeemedAt   *int64 `json:"redeemed_at,omitempty"`
	ExpiresAt    int64  `json:"expires_at"`
}

// teamInvitesResponse is TeamInvitesResponse.
type teamInvitesResponse struct {
	TeamInvites []teamInviteView `json:"team_invites"`
}

// teamMemberView is TeamMemberResponse.
type teamMemberView struct {
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
	Role         string `json:"role"`
}

// teamMembersResponse is TeamMembersResponse.
type teamMembersResponse struct {
	TeamMembers []teamMemberView     `json:"team_members"`
	ListInfo    api.ListInfoResponse `json:"list_info"`
}

// subTeamView is SubTeamResponse.
type subTeamView struct {
	TeamID string `json:"team_id"`
	Name   string `json:"name"`
}

// teamSubTeamsResponse is TeamSubTeamsResponse.
type teamSubTeamsResponse struct {
	SubTeams []subTeamView        `json:"sub_teams"`
	ListInfo api.ListInfoResponse `json:"list_info"`
}

// RegisterViews adds teams to the catalog, as GET /team shows them.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of("team", state.TableTeams,
		func(t *model.Team) string { return t.ID },
		func(tx *state.Txn, t *model.Team) (any, error) { return viewTeam(tx, t) },
		func(tx *state.Txn, t *model.Team, accountID string) bool {
			acct, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
			return err == nil && acct.TeamID == t.ID
		}))
}
