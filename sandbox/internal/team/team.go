package team

import (
	"net/http"
	"slices"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// The team model: an account belongs to at most one team (Account.TeamID,
// with its role in Account.RoleCode). Teams form trees through
// Team.ParentID (sub-teams); the admins and team managers of any team of a
// tree manage the whole tree, which is what "in your organisation" means
// below. Adding someone who is not yet in the tree sends an invitation
// (model.TeamInvite) that the invitee accepts through the link of the
// invitation e-mail (see acceptTeamInvite).

// Register adds the team operations (team, members, invites, sub-teams),
// the ownership transfer job and the control calls that create a sub-team
// and accept an invitation to r.
func Register(r *api.Registry) {
	r.Handle("teamGet", teamGet)
	r.Handle("teamUpdate", teamUpdate)
	r.Handle("teamCreate", teamCreate)
	r.Handle("teamDelete", teamDelete)
	r.Handle("teamAddMember", teamAddMember)
	r.Handle("teamRemoveMember", teamRemoveMember)
	r.Handle("teamInfo", teamInfo)
	r.Handle("teamInvites", teamInvites)
	r.Handle("teamMembers", teamMembers)
	r.Handle("teamSubTeams", teamSubTeams)
	r.RegisterJob(jobTeamTransfer, runTeamTransfer)
	r.Control(http.MethodPost, "/teams", controlCreateSubTeam)
	r.ControlPublic(http.MethodPost, "/w/{world}/team_invites/{invite_id}/accept", acceptTeamInvite)
	r.ControlPublic(http.MethodGet, "/w/{world}/team_invites/{invite_id}/accept", acceptTeamInvite)
}

const (
	// defaultTeamName is TeamCreateRequest.name's documented default.
	defaultTeamName = "Untitled Team"
	// teamInviteTTL is how long an invitation can be accepted.
	teamInviteTTL = 30 * 24 * time.Hour
	// teamTransferDelay is how long the queued transfer of a removed
	// member's objects takes (remove_member answers 201: "queued").
	teamTransferDelay = 5 * time.Second
	jobTeamTransfer   = "team.transfer_ownership"
)

// errNoTeam is the documented answer for a caller without a team.
func errNoTeam() *apierr.Error { return apierr.NotFoundf("Team does not exist") }

// callerTeam reads the caller and their team inside tx; 404 when the caller
// belongs to no team, as GET /team is documented to answer.
func callerTeam(c *api.Call, tx *state.Txn) (*model.Account, *model.Team, error) {
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, nil, err
	}
	if me.TeamID == "" {
		return me, nil, errNoTeam()
	}
	t, err := state.Get[model.Team](tx, state.TableTeams, me.TeamID)
	if err != nil {
		return me, nil, errNoTeam()
	}
	return me, t, nil
}

// requireTeamRole refuses callers whose role is not one of codes.
func requireTeamRole(me *model.Account, what string, codes ...string) error {
	if slices.Contains(codes, me.RoleCode) {
		return nil
	}
	return apierr.Forbiddenf("Your role on the Team (%s) does not allow you to %s.", RoleName(me.RoleCode), what)
}

func RoleName(code string) string {
	if n, ok := teamRoleNames[code]; ok {
		return n
	}
	return "Member"
}

// sameOrg reports whether two teams are in one tree.
func sameOrg(tx *state.Txn, a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, err1 := state.RootTeamOf(tx, a)
	rb, err2 := state.RootTeamOf(tx, b)
	return err1 == nil && err2 == nil && ra.ID == rb.ID
}

// orgTeam finds a team the caller may act on: 404 for an unknown id, 403 for
// a team outside the caller's organisation.
func orgTeam(tx *state.Txn, me *model.Account, id, path string) (*model.Team, error) {
	t, err := state.Get[model.Team](tx, state.TableTeams, id)
	if err != nil {
		return nil, errNoTeam().WithPath(path)
	}
	if !sameOrg(tx, me.TeamID, t.ID) {
		return nil, apierr.Forbiddenf("You do not have access to this Team.").WithPath(path)
	}
	return t, nil
}

func checkRoleName(path, v string) (string, error) {
	code, ok := teamRoleCodes[v]
	if !ok {
		return "", apierr.Badf(path, "Invalid %s %q: use Member, Developer, Team Manager or Admin.", path, v)
	}
	return code, nil
}

func teamResponse(tx *state.Txn, t *model.Team) (teamGetResponse, error) {
	v, err := viewTeam(tx, t)
	return teamGetResponse{Team: v}, err
}

// teamGet answers the caller's team.
func teamGet(c *api.Call) (any, error) {
	tx := c.Read()
	_, t, err := callerTeam(c, tx)
	if err != nil {
		return nil, err
	}
	return teamResponse(tx, t)
}

type teamNameRequest struct {
	Name *string `json:"name"`
}

// teamUpdate renames the caller's team (admins only).
func teamUpdate(c *api.Call) (any, error) {
	var req teamNameRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if req.Name != nil && *req.Name == "" {
		return nil, apierr.Badf("name", "name cannot be empty.")
	}
	var out teamGetResponse
	err := c.Update(func(tx *state.Txn) error {
		me, t, err := callerTeam(c, tx)
		if err != nil {
			return err
		}
		if err := requireTeamRole(me, "rename it", "a"); err != nil {
			return err
		}
		if req.Name != nil && *req.Name != t.Name {
			t = state.Clone(t)
			t.Name = *req.Name
			if err := state.Put(tx, state.TableTeams, t); err != nil {
				return err
			}
		}
		out, err = teamResponse(tx, t)
		return err
	})
	return out, err
}

// teamCreate creates a team with the caller as its admin; the caller must
// not belong to a team yet.
func teamCreate(c *api.Call) (any, error) {
	var req teamNameRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	name := defaultTeamName
	if req.Name != nil && *req.Name != "" {
		name = *req.Name
	}
	var out teamGetResponse
	err := c.Update(func(tx *state.Txn) error {
		me, _, err := callerTeam(c, tx)
		if err == nil {
			return apierr.Forbiddenf("You are already a member of a Team; leave it before you create one.")
		}
		if me == nil {
			return err
		}
		t := &model.Team{ID: tx.NewID(), Name: name, CreatedAt: tx.Unix(), Seq: tx.Seq()}
		if err := state.Put(tx, state.TableTeams, t); err != nil {
			return err
		}
		me = state.Clone(me)
		me.TeamID, me.RoleCode = t.ID, "a"
		if err := state.Put(tx, state.TableAccounts, me); err != nil {
			return err
		}
		out, err = teamResponse(tx, t)
		return err
	})
	return out, err
}

// teamDelete deletes the caller's team when the caller is its only member
// and it has no sub-teams. Its outstanding invitations expire.
func teamDelete(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		me, t, err := callerTeam(c, tx)
		if err != nil {
			return err
		}
		if err := requireTeamRole(me, "delete it", "a"); err != nil {
			return err
		}
		members, err := state.MembersOfTeam(tx, t.ID)
		if err != nil {
			return err
		}
		if len(members) > 1 {
			return apierr.Forbiddenf("A Team can only be deleted when you are its only member (it has %d).", len(members))
		}
		subs, err := state.SubTeamsOf(tx, t.ID)
		if err != nil {
			return err
		}
		if len(subs) > 0 {
			return apierr.Forbiddenf("A Team with sub teams cannot be deleted (it has %d).", len(subs))
		}
		invites, err := state.InvitesOfTeam(tx, t.ID)
		if err != nil {
			return err
		}
		if _, err := withdrawInvites(tx, invites, nil); err != nil {
			return err
		}
		if err := tx.Delete(state.TableTeams, t); err != nil {
			return err
		}
		me = state.Clone(me)
		me.TeamID, me.RoleCode = "", ""
		return state.Put(tx, state.TableAccounts, me)
	})
	if err != nil {
		return nil, err
	}
	// The official description declares a 200 without content.
	return &api.RawResponse{Status: http.StatusOK}, nil
}

// withdrawInvites expires the outstanding invitations among invites that
// match (all of them when match is nil) and reports whether there were any.
func withdrawInvites(tx *state.Txn, invites []*model.TeamInvite, match func(*model.TeamInvite) bool) (bool, error) {
	found := false
	for _, inv := range invites {
		if !inv.Outstanding(tx.Unix()) || (match != nil && !match(inv)) {
			continue
		}
		found = true
		w := state.Clone(inv)
		w.WithdrawnAt = tx.Unix()
		if err := state.Put(tx, state.TableTeamInvites, w); err != nil {
			return found, err
		}
	}
	return found, nil
}

// teamInfoQuery is the query of GET /team/info.
type teamInfoQuery struct {
	TeamID string `json:"team_id"`
}

// teamInfo describes the caller's team, or a team of the caller's
// organisation named by team_id.
func teamInfo(c *api.Call) (any, error) {
	var q teamInfoQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	tx := c.Read()
	me, t, err := callerTeam(c, tx)
	if err != nil && q.TeamID == "" {
		return nil, err
	}
	if q.TeamID != "" {
		if me == nil {
			return nil, err
		}
		if t, err = orgTeam(tx, me, q.TeamID, "team_id"); err != nil {
			return nil, err
		}
	}
	members, err := state.MembersOfTeam(tx, t.ID)
	if err != nil {
		return nil, err
	}
	subs, err := state.SubTeamsOf(tx, t.ID)
	if err != nil {
		return nil, err
	}
	v := teamInfoView{TeamID: t.ID, Name: t.Name, NumMembers: len(members), NumSubTeams: len(subs)}
	if t.ParentID != "" {
		if p, err := state.Get[model.Team](tx, state.TableTeams, t.ParentID); err == nil {
			v.TeamParent = &teamParentView{TeamID: p.ID, Name: p.Name}
		}
	}
	return teamGetInfoResponse{Team: v}, nil
}

type teamInvitesQuery struct {
	EmailAddress string `json:"email_address"`
}

// teamInvites lists the outstanding invitations of an address: the caller's
// own (all of them), or another address's invitations to the caller's
// organisation.
func teamInvites(c *api.Call) (any, error) {
	var q teamInvitesQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	email := q.EmailAddress
	if email == "" {
		email = c.Account.Email
	} else if err := param.CheckEmail("email_address", email); err != nil {
		return nil, err
	}
	tx := c.Read()
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, err
	}
	own := state.EmailKey(email) == me.EmailKey
	invites, err := state.InvitesOfEmail(tx, email)
	if err != nil {
		return nil, err
	}
	out := teamInvitesResponse{TeamInvites: []teamInviteView{}}
	for _, inv := range invites {
		if !inv.Outstanding(tx.Unix()) || (!own && !sameOrg(tx, inv.TeamID, me.TeamID)) {
			continue
		}
		out.TeamInvites = append(out.TeamInvites, teamInviteView{
			EmailAddress: inv.Email, TeamID: inv.TeamID, Role: inv.Role, SentAt: inv.SentAt, ExpiresAt: inv.ExpiresAt,
		})
	}
	return out, nil
}

// pagedTeam reads the team of a /team/{members,sub_teams}/{team_id} call.
func pagedTeam(c *api.Call, tx *state.Txn) (*model.Team, int, int, error) {
	page, size, err := api.ReadPaging(c)
	if err != nil {
		return nil, 0, 0, err
	}
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, 0, 0, err
	}
	t, err := orgTeam(tx, me, c.Param("team_id"), "team_id")
	return t, page, size, err
}

// teamMembers lists a team's members with their role names.
func teamMembers(c *api.Call) (any, error) {
	tx := c.Read()
	t, page, size, err := pagedTeam(c, tx)
	if err != nil {
		return nil, err
	}
	members, err := state.MembersOfTeam(tx, t.ID)
	if err != nil {
		return nil, err
	}
	rows, info := api.PageSlice(members, page, size)
	out := teamMembersResponse{TeamMembers: []teamMemberView{}, ListInfo: info}
	for _, a := range rows {
		out.TeamMembers = append(out.TeamMembers, teamMemberView{AccountID: a.ID, EmailAddress: a.Email, Role: RoleName(a.RoleCode)})
	}
	return out, nil
}

// teamSubTeams lists a team's direct sub-teams.
func teamSubTeams(c *api.Call) (any, error) {
	tx := c.Read()
	t, page, size, err := pagedTeam(c, tx)
	if err != nil {
		return nil, err
	}
	subs, err := state.SubTeamsOf(tx, t.ID)
	if err != nil {
		return nil, err
	}
	rows, info := api.PageSlice(subs, page, size)
	out := teamSubTeamsResponse{SubTeams: []subTeamView{}, ListInfo: info}
	for _, st := range rows {
		out.SubTeams = append(out.SubTeams, subTeamView{TeamID: st.ID, Name: st.Name})
	}
	return out, nil
}
