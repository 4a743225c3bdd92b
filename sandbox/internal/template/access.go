package template

// Who may see, use and manage a template, the template quota, and the API
// app check of template operations.
//
// Access model (docs/fidelity.md, "Templates"): the owner and the accounts it was
// shared with (add_user) may use a template; members of the owner's team
// may also see it (GET, list with account_id), shown with is_creator and
// can_edit false; only the owner may change it (delete, update_files,
// add_user, remove_user, edit URLs). Anyone else, including other worlds,
// gets 404 not_found: the sandbox does not confirm that a template exists
// to an account outside the team.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// errTemplateNotFound is the answer for unknown and invisible templates.
func errTemplateNotFound() *apierr.Error { return apierr.NotFoundf("Template not found.") }

// templateCanUse reports whether the account may use the template (owner or
// shared with).
func templateCanUse(t *model.Template, accountID string) bool {
	return t.OwnerID == accountID || slices.Contains(t.SharedWith, accountID)
}

// templateCanSee reports whether the account may read the template.
func templateCanSee(tx *state.Txn, t *model.Template, accountID string) bool {
	return templateCanUse(t, accountID) || api.SameTeam(tx, t.OwnerID, accountID)
}

// templateFor finds a template the caller may read; 404 otherwise.
func templateFor(tx *state.Txn, accountID, id string) (*model.Template, error) {
	if id == "" {
		return nil, errTemplateNotFound()
	}
	t, err := state.GetTemplate(tx, id)
	if err != nil || !templateCanSee(tx, t, accountID) {
		return nil, errTemplateNotFound()
	}
	return t, nil
}

// templateOwnedBy finds a template the caller may change: 404 when the
// caller cannot see it, 403 when it is not the owner.
func templateOwnedBy(tx *state.Txn, accountID, id string) (*model.Template, error) {
	t, err := templateFor(tx, accountID, id)
	if err != nil {
		return nil, err
	}
	if t.OwnerID != accountID {
		return nil, apierr.Forbiddenf("Only the owner of the template can do this.")
	}
	return t, nil
}

// errTemplateQuota is the answer when a template outside test_mode would
// exceed the account's template quota.
func errTemplateQuota() *apierr.Error {
	return apierr.PaymentRequiredf("You have reached your template quota (templates_left is 0). Delete a template, upgrade, or create it with test_mode=1 (a locked template, usable only in test_mode).")
}

// ChargeQuota takes one unit of the account's templates_left
// (unlimited when the quota is null).
func ChargeQuota(tx *state.Txn, accountID string) error {
	a, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
	if err != nil {
		return apierr.NotFoundf("Account not found.")
	}
	left := a.Quotas.TemplatesLeft
	if left == nil {
		return nil
	}
	if *left <= 0 {
		return errTemplateQuota()
	}
	c := state.Clone(a)
	c.Quotas.TemplatesLeft = intPtr(*left - 1)
	return state.Put(tx, state.TableAccounts, c)
}

// refundTemplateQuota gives back the unit a template took, never above
// templates_total.
func refundTemplateQuota(tx *state.Txn, accountID string) error {
	a, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
	if err != nil || a.Quotas.TemplatesLeft == nil {
		return nil
	}
	n := *a.Quotas.TemplatesLeft + 1
	if t := a.Quotas.TemplatesTotal; t != nil && n > *t {
		n = *t
	}
	c := state.Clone(a)
	c.Quotas.TemplatesLeft = intPtr(n)
	return state.Put(tx, state.TableAccounts, c)
}

// App checks a client_id given to a template operation: an API app
// of this world owned by the caller or a member of the caller's team.
func App(tx *state.Txn, accountID, clientID string) error {
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, clientID)
	if err != nil {
		return apierr.Badf("client_id", "No API app has the client_id %q.", clientID)
	}
	if !api.SameTeam(tx, app.OwnerAccountID, accountID) {
		return apierr.Forbiddenf("The API app %s does not belong to your account or team.", clientID).WithPath("client_id")
	}
	return nil
}
