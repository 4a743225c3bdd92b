package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// accountResponse is AccountResponse of the official description.
type accountResponse struct {
	AccountID    string                `json:"account_id"`
	EmailAddress string                `json:"email_address"`
	IsLocked     bool                  `json:"is_locked"`
	IsPaidHS     bool                  `json:"is_paid_hs"`
	IsPaidHF     bool                  `json:"is_paid_hf"`
	Quotas       accountQuotas         `json:"quotas"`
	CallbackURL  *string               `json:"callback_url"`
	RoleCode     *string               `json:"role_code"`
	TeamID       *string               `json:"team_id"`
	Locale       *string               `json:"locale"`
	Usage        accountUsage          `json:"usage"`
	Settings     state.AccountSettings `json:"settings"`
}

// accountQuotas is AccountResponseQuotas: the stored quotas already have its
// shape (null means unlimited), as the settings do.
type accountQuotas = state.Quotas

// accountUsage is AccountResponseUsage.
type accountUsage struct {
	FaxPagesSent *int `json:"fax_pages_sent"`
}

// viewAccount renders an account as GET /account shows it.
func viewAccount(a *state.Account) accountResponse {
	return accountResponse{
		AccountID:    a.ID,
		EmailAddress: a.Email,
		IsLocked:     a.IsLocked,
		IsPaidHS:     a.IsPaidHS,
		IsPaidHF:     a.IsPaidHF,
		Quotas:       a.Quotas,
		CallbackURL:  api.NullString(a.CallbackURL),
		RoleCode:     api.NullString(a.RoleCode),
		TeamID:       api.NullString(a.TeamID),
		Locale:       api.NullString(a.Locale),
		Usage:        accountUsage{FaxPagesSent: new(a.FaxPages)},
		Settings:     a.Settings,
	}
}

// accountGetResponse is AccountGetResponse (also the answer of PUT /account).
type accountGetResponse struct {
	Account accountResponse `json:"account"`
}

// accountCreateResponse is AccountCreateResponse.
type accountCreateResponse struct {
	Account   accountResponse      `json:"account"`
	OAuthData *oauth.TokenResponse `json:"oauth_data,omitempty"`
}

// accountVerifyResponse is AccountVerifyResponse: the account key is absent
// when no account has the address.
type accountVerifyResponse struct {
	Account *accountVerifyAccount `json:"account,omitempty"`
}

type accountVerifyAccount struct {
	EmailAddress string `json:"email_address"`
}

// registerViewsAccount adds accounts to the catalog, as GET /account shows
// them.
func registerViewsAccount(r *api.Registry) {
	r.Catalog.Add(catalog.Of(notify.ObjectAccount, state.TableAccounts,
		func(a *state.Account) string { return a.ID },
		func(_ *state.Txn, a *state.Account) (any, error) { return viewAccount(a), nil },
		func(_ *state.Txn, a *state.Account, accountID string) bool { return a.ID == accountID }))
}
