package team

// Control-plane pieces of the team model that the official API has no
// operation for: creating sub-teams (the real service does that in its web
// admin console) and accepting an invitation (the invitee clicking the link
// of the invitation e-mail).

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/account"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

type subTeamRequest struct {
	Name         string `json:"name"`
	ParentTeamID string `json:"parent_team_id"`
}

type subTeamCreated struct {
	TeamID       string `json:"team_id"`
	Name         string `json:"name"`
	ParentTeamID string `json:"parent_team_id"`
}

// controlCreateSubTeam creates a sub-team of parent_team_id (default: the
// caller's team). POST /_sandbox/teams {"name", "parent_team_id"}.
func controlCreateSubTeam(c *api.Call) (any, error) {
	var req subTeamRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if req.Name == "" {
		return nil, apierr.Missing("name")
	}
	if c.Account == nil {
		return nil, apierr.New(apierr.Unauthorized, "Sub-teams are created with the credentials of an account of the world.")
	}
	var out subTeamCreated
	err := c.Update(func(tx *state.Txn) error {
		parentID := req.ParentTeamID
		if parentID == "" {
			_, t, err := callerTeam(c, tx)
			if err != nil {
				return err
			}
			parentID = t.ID
		}
		if _, err := state.Get[model.Team](tx, state.TableTeams, parentID); err != nil {
			return api.ErrControlNotFound("team", parentID)
		}
		t := &model.Team{ID: tx.NewID(), Name: req.Name, ParentID: parentID, CreatedAt: tx.Unix(), Seq: tx.Seq()}
		out = subTeamCreated{TeamID: t.ID, Name: t.Name, ParentTeamID: parentID}
		return state.Put(tx, state.TableTeams, t)
	})
	if err != nil {
		return nil, err
	}
	return api.WithStatus{Status: http.StatusCreated, Value: out}, nil
}

type inviteAccepted struct {
	TeamID       string `json:"team_id"`
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
	Role         string `json:"role"`
}

// acceptTeamInvite is the link of the invitation e-mail: the invitee joins
// the team with the invitation's role. An address without an account gets
// one (as signing up from the invitation does). 404 for an unknown
// invitation, 410 once it expired or was withdrawn, 409 when it was already
// used or the invitee has joined another team since.
func acceptTeamInvite(c *api.Call) (any, error) {
	w := page.WorldFor(c.Host, c.Param("world"), page.HoldsRow[model.TeamInvite](state.TableTeamInvites, c.Param("invite_id")))
	if w == nil {
		return nil, api.ErrControlNotFound("world", c.Param("world"))
	}
	c.EnterWorld(w)
	var out inviteAccepted
	err := c.Update(func(tx *state.Txn) error {
		inv, err := state.Get[model.TeamInvite](tx, state.TableTeamInvites, c.Param("invite_id"))
		if err != nil {
			return api.ErrControlNotFound("team invitation", c.Param("invite_id"))
		}
		switch {
		case inv.RedeemedAt != 0:
			return apierr.Conflictf("This invitation has already been accepted.")
		case !inv.Outstanding(tx.Unix()):
			return apierr.New(apierr.Deleted, "This invitation has expired.")
		}
		t, err := state.Get[model.Team](tx, state.TableTeams, inv.TeamID)
		if err != nil {
			return apierr.New(apierr.Deleted, "The team of this invitation no longer exists.")
		}
		acct, err := state.AccountByEmail(tx, inv.Email)
		if err != nil {
			acct = &model.Account{
				ID: tx.NewID(), Email: inv.Email, EmailKey: inv.EmailKey, Locale: "en-US",
				Quotas: account.NewQuotas(), CreatedAt: tx.Unix(), Confirmed: true, Seq: tx.Seq(),
			}
		} else if acct.TeamID != "" {
			return apierr.Conflictf("%s is already a member of a Team.", acct.Email)
		}
		acct = state.Clone(acct)
		acct.TeamID, acct.RoleCode = t.ID, teamRoleCodes[inv.Role]
		if acct.RoleCode == "" {
			acct.RoleCode = "m"
		}
		if err := state.Put(tx, state.TableAccounts, acct); err != nil {
			return err
		}
		used := state.Clone(inv)
		used.RedeemedAt = tx.Unix()
		out = inviteAccepted{TeamID: t.ID, AccountID: acct.ID, EmailAddress: acct.Email, Role: inv.Role}
		return state.Put(tx, state.TableTeamInvites, used)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
