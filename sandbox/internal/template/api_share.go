package template

// Sharing a template with members of the owner's team (add_user) and
// withdrawing it (remove_user).

import (
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterShare(r *api.Registry) {
	r.Handle("templateAddUser", templateAddUser)
	r.Handle("templateRemoveUser", templateRemoveUser)
}

// tplUserInput is TemplateAddUserRequest / TemplateRemoveUserRequest.
type tplUserInput struct {
	AccountID        string `json:"account_id"`
	EmailAddress     string `json:"email_address"`
	SkipNotification bool   `json:"skip_notification"`
}

// tplTargetAccount finds the account of an add_user/remove_user call:
// account_id prevails over email_address; it must be a member of the
// caller's team (403 otherwise, 404 when no account matches).
func tplTargetAccount(tx *state.Txn, caller *model.Account, in tplUserInput) (*model.Account, error) {
	var a *model.Account
	var err error
	switch {
	case strings.TrimSpace(in.AccountID) != "":
		a, err = state.Get[model.Account](tx, state.TableAccounts, strings.TrimSpace(in.AccountID))
		if err != nil {
			return nil, apierr.NotFoundf("Account not found.").WithPath("account_id")
		}
	case strings.TrimSpace(in.EmailAddress) != "":
		if err := param.CheckEmail("email_address", in.EmailAddress); err != nil {
			return nil, err
		}
		a, err = state.AccountByEmail(tx, in.EmailAddress)
		if err != nil {
			return nil, apierr.NotFoundf("Account not found.").WithPath("email_address")
		}
	default:
		return nil, apierr.Badf("account_id", "Missing required parameter: account_id or email_address.")
	}
	if !api.SameTeam(tx, caller.ID, a.ID) {
		return nil, apierr.Forbiddenf("The account %s is not a member of your team: templates can only be shared within a team.", a.Email)
	}
	return a, nil
}

// templateShareChange runs add_user or remove_user: the template must be
// the caller's and the account a member of their team; change answers the
// template to store (nil when nothing changes), and the call answers the
// template as it then is.
func templateShareChange(c *api.Call, change func(tx *state.Txn, in tplUserInput, t *model.Template, a *model.Account) (*model.Template, error)) (any, error) {
	var in tplUserInput
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	var out templateResponse
	err := c.Update(func(tx *state.Txn) error {
		t, err := templateOwnedBy(tx, c.Account.ID, c.Param("template_id"))
		if err != nil {
			return err
		}
		a, err := tplTargetAccount(tx, c.Account, in)
		if err != nil {
			return err
		}
		changed, err := change(tx, in, t, a)
		if err != nil {
			return err
		}
		if changed != nil {
			if err := state.PutTemplate(tx, changed); err != nil {
				return err
			}
			t = changed
		}
		out = View(tx, t, c.Account.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return templateGetResponse{Template: out}, nil
}

// templateAddUser shares a template with a team member, who then sees it in
// their list and may send with it; they are e-mailed unless
// skip_notification is set. Sharing twice changes nothing.
func templateAddUser(c *api.Call) (any, error) {
	return templateShareChange(c, func(tx *state.Txn, in tplUserInput, t *model.Template, a *model.Account) (*model.Template, error) {
		if a.ID == t.OwnerID || slices.Contains(t.SharedWith, a.ID) {
			return nil, nil
		}
		ct := cloneTemplate(t)
		ct.SharedWith = append(ct.SharedWith, a.ID)
		if !in.SkipNotification {
			owner := c.Account.Name
			if owner == "" {
				owner = c.Account.Email
			}
			if _, err := notify.Email(tx, model.Email{Kind: notify.MailTemplateShared, To: a.Email, Name: a.Name, TemplateID: t.ID,
				Subject:  owner + " shared the template \"" + t.Title + "\" with you",
				FromName: c.Account.Name, ReplyTo: c.Account.Email, Title: t.Title}); err != nil {
				return nil, err
			}
		}
		return ct, nil
	})
}

// templateRemoveUser withdraws a template from a team member; the owner's
// own access cannot be removed. Removing an account that has no access
// changes nothing.
func templateRemoveUser(c *api.Call) (any, error) {
	return templateShareChange(c, func(_ *state.Txn, in tplUserInput, t *model.Template, a *model.Account) (*model.Template, error) {
		if a.ID == t.OwnerID {
			path := "account_id"
			if strings.TrimSpace(in.AccountID) == "" {
				path = "email_address"
			}
			return nil, apierr.Badf(path, "The owner's access to a template cannot be removed; delete the template instead.")
		}
		i := slices.Index(t.SharedWith, a.ID)
		if i < 0 {
			return nil, nil
		}
		ct := cloneTemplate(t)
		ct.SharedWith = slices.Delete(ct.SharedWith, i, i+1)
		return ct, nil
	})
}
