package team

// Team membership changes: add_member (invitations, moves inside the
// organisation), remove_member (removal, moves, withdrawn invitations) and
// the queued transfer of a removed member's objects.

import (
	"encoding/json"
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

type teamAddMemberQuery struct {
	TeamID string `json:"team_id"`
}

// MemberRef names an account by account_id or email_address (account_id
// prevails), as team add_member / remove_member and fax line add_user /
// remove_user do.
type MemberRef struct {
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
}

// Check validates account_id / email_address.
func (r MemberRef) Check() error {
	if r.AccountID == "" && r.EmailAddress == "" {
		return apierr.Badf("account_id", "Missing required parameter: account_id or email_address.")
	}
	if r.AccountID == "" {
		return param.CheckEmail("email_address", r.EmailAddress)
	}
	return nil
}

// Path is the parameter that named the account, for error_path.
func (r MemberRef) Path() string {
	if r.AccountID != "" {
		return "account_id"
	}
	return "email_address"
}

// Target finds the account named; by e-mail it may not exist (nil, with
// the address).
func (r MemberRef) Target(tx *state.Txn) (*model.Account, string, error) {
	if r.AccountID != "" {
		a, err := state.Get[model.Account](tx, state.TableAccounts, r.AccountID)
		if err != nil {
			return nil, "", apierr.NotFoundf("Account not found.").WithPath("account_id")
		}
		return a, a.Email, nil
	}
	a, err := state.AccountByEmail(tx, r.EmailAddress)
	if err != nil {
		return nil, r.EmailAddress, nil
	}
	return a, a.Email, nil
}

type teamMemberRequest struct {
	MemberRef
	Role string `json:"role"`
}

// teamAddMember invites an account or address to the caller's team (or,
// with team_id, to a team of the caller's organisation with role). Members
// of the organisation move at once; others are invited; members of another
// team cannot be invited (team_invite_failed).
func teamAddMember(c *api.Call) (any, error) {
	var q teamAddMemberQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	var req teamMemberRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	code, err := teamRoleCode(c, "role", req.Role, "team_id", q.TeamID)
	if err != nil {
		return nil, err
	}
	var out teamGetResponse
	err = c.Update(func(tx *state.Txn) error {
		me, t, err := callerTeam(c, tx)
		if err != nil {
			return err
		}
		if err := requireTeamRole(me, "add members", "a", "t"); err != nil {
			return err
		}
		if q.TeamID != "" {
			if t, err = orgTeam(tx, me, q.TeamID, "team_id"); err != nil {
				return err
			}
		}
		acct, email, err := req.Target(tx)
		if err != nil {
			return err
		}
		switch {
		case acct != nil && acct.TeamID == t.ID:
			if q.TeamID != "" && req.Role != "" && acct.RoleCode != code {
				a := state.Clone(acct)
				a.RoleCode = code
				err = state.Put(tx, state.TableAccounts, a)
			}
		case acct != nil && sameOrg(tx, acct.TeamID, t.ID):
			a := state.Clone(acct)
			a.TeamID, a.RoleCode = t.ID, code
			err = state.Put(tx, state.TableAccounts, a)
		case acct != nil && acct.TeamID != "":
			return apierr.New(apierr.TeamInviteFailed, email+" is already a member of another Team.")
		default:
			err = inviteToTeam(c, tx, me, t, email, teamRoleNames[code])
		}
		if err != nil {
			return err
		}
		out, err = teamResponse(tx, t)
		return err
	})
	return out, err
}

// inviteToTeam records an invitation and e-mails its acceptance link. An
// outstanding invitation of the same address to the same team is kept as
// is.
func inviteToTeam(c *api.Call, tx *state.Txn, inviter *model.Account, t *model.Team, email, role string) error {
	existing, err := state.InvitesOfEmail(tx, email)
	if err != nil {
		return err
	}
	for _, inv := range existing {
		if inv.TeamID == t.ID && inv.Outstanding(tx.Unix()) {
			return nil
		}
	}
	inv := &model.TeamInvite{
		ID: tx.NewID(), TeamID: t.ID, Email: email, EmailKey: state.EmailKey(email), Role: role,
		InviterID: inviter.ID, SentAt: tx.Unix(), ExpiresAt: tx.Now().Add(teamInviteTTL).Unix(), Seq: tx.Seq(),
	}
	if err := state.Put(tx, state.TableTeamInvites, inv); err != nil {
		return err
	}
	_, err = notify.Email(tx, model.Email{
		Kind: notify.MailTeamInvite, To: email,
		Subject:  inviter.Email + " has invited you to join the team " + t.Name + " on Dropbox Sign",
		Link:     c.WorldURL("team_invites/" + inv.ID + "/accept"),
		FromName: inviter.Name, ReplyTo: inviter.Email, Title: t.Name,
	})
	return err
}

// teamRoleCode reads the role a member takes in another team of the
// organisation (role with team_id, new_role with new_team_id): Member by
// default; a role given without the team is ignored with the official
// parameter_ignored warning.
func teamRoleCode(c *api.Call, rolePath, role, teamPath, teamID string) (string, error) {
	if role == "" {
		return "m", nil
	}
	code, err := checkRoleName(rolePath, role)
	if err != nil {
		return "", err
	}
	if teamID == "" {
		c.Warn("parameter_ignored", rolePath+" is only used together with "+teamPath+" and was ignored.")
		return "m", nil
	}
	return code, nil
}

type teamRemoveMemberRequest struct {
	MemberRef
	NewOwnerEmailAddress string `json:"new_owner_email_address"`
	NewTeamID            string `json:"new_team_id"`
	NewRole              string `json:"new_role"`
}

// teamRemoveMember removes a member from the caller's organisation, moves
// them to another of its teams (new_team_id, new_role), or expires their
// outstanding invitation. With new_owner_email_address their API apps (and,
// through OnTeamOwnershipTransfer, their documents and templates) move to
// that account in a queued job. The official description declares 201.
func teamRemoveMember(c *api.Call) (any, error) {
	var req teamRemoveMemberRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	if req.NewOwnerEmailAddress != "" {
		if err := param.CheckEmail("new_owner_email_address", req.NewOwnerEmailAddress); err != nil {
			return nil, err
		}
	}
	code, err := teamRoleCode(c, "new_role", req.NewRole, "new_team_id", req.NewTeamID)
	if err != nil {
		return nil, err
	}
	var out teamGetResponse
	err = c.Update(func(tx *state.Txn) error {
		me, t, err := callerTeam(c, tx)
		if err != nil {
			return err
		}
		if err := requireTeamRole(me, "remove members", "a", "t"); err != nil {
			return err
		}
		acct, email, err := req.Target(tx)
		if err != nil {
			return err
		}
		if acct != nil && sameOrg(tx, acct.TeamID, me.TeamID) {
			if err := removeFromTeam(c, tx, me, acct, req, code); err != nil {
				return err
			}
		} else {
			invites, err := state.InvitesOfEmail(tx, email)
			if err != nil {
				return err
			}
			found, err := withdrawInvites(tx, invites, func(inv *model.TeamInvite) bool { return sameOrg(tx, inv.TeamID, me.TeamID) })
			if err != nil {
				return err
			}
			if !found {
				return apierr.NotFoundf("%s is not a member of your Team and has no invitation to it.", email).WithPath(req.Path())
			}
		}
		out, err = teamResponse(tx, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.WithStatus{Status: http.StatusCreated, Value: out}, nil
}

// removeFromTeam takes a member out of the organisation or moves them.
func removeFromTeam(c *api.Call, tx *state.Txn, me, acct *model.Account, req teamRemoveMemberRequest, code string) error {
	a := state.Clone(acct)
	if req.NewTeamID != "" {
		nt, err := orgTeam(tx, me, req.NewTeamID, "new_team_id")
		if err != nil {
			return err
		}
		a.TeamID, a.RoleCode = nt.ID, code
	} else {
		if acct.ID == me.ID {
			return apierr.Badf(req.Path(), "You cannot remove yourself from your Team.")
		}
		a.TeamID, a.RoleCode = "", ""
	}
	if req.NewOwnerEmailAddress != "" {
		heir, err := state.AccountByEmail(tx, req.NewOwnerEmailAddress)
		if err != nil || heir.ID == acct.ID || !sameOrg(tx, heir.TeamID, me.TeamID) {
			return apierr.Badf("new_owner_email_address",
				"new_owner_email_address must be another member of your Team (%s is not).", req.NewOwnerEmailAddress)
		}
		if _, err := state.Schedule(tx, jobTeamTransfer, acct.ID, teamTransferDelay, teamTransferArgs{From: acct.ID, To: heir.ID}); err != nil {
			return err
		}
	}
	return state.Put(tx, state.TableAccounts, a)
}

type teamTransferArgs struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// runTeamTransfer moves a removed member's API apps to the new owner and
// lets the other subsystems move theirs (Registry.TeamTransferHooks).
func runTeamTransfer(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	var args teamTransferArgs
	if err := json.Unmarshal(job.Args, &args); err != nil {
		return err
	}
	apps, err := state.AppsOf(tx, args.From)
	if err != nil {
		return err
	}
	for _, app := range apps {
		moved := state.Clone(app)
		moved.OwnerAccountID = args.To
		if err := state.Put(tx, state.TableAPIApps, moved); err != nil {
			return err
		}
	}
	for _, h := range s.Reg().TeamTransferHooks {
		if err := h(s, w, tx, args.From, args.To); err != nil {
			return err
		}
	}
	return nil
}
