package account

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Response is AccountResponse of the official description.
type Response struct {
	AccountID    string                `json:"account_id"`
	EmailAddress string                `json:"email_address"`
	IsLocked     bool                  `json:"is_locked"`
	IsPaidHS     bool                  `json:"is_paid_hs"`
	IsPaidHF     bool                  `json:"is_paid_hf"`
	Quotas       Quotas                `json:"quotas"`
	CallbackURL  *string               `json:"callback_url"`
	RoleCode     *string               `json:"role_code"`
	TeamID       *string               `json:"team_id"`
	Locale       *string               `json:"locale"`
	Usage        accountUsage          `json:"usage"`
	Settings     model.AccountSettings `json:"settings"`
}

// Quotas is AccountResponseQuotas: the stored quotas already have its
// shape (null means unlimited), as the settings do.
type Quotas = model.Quotas

// accountUsage is AccountResponseUsage.
type accountUsage struct {
	FaxPagesSent *int `json:"fax_pages_sent"`
}

// View renders an account as GET /account shows it.
func View(a *model.Account) Response {
	return Response{
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
	Account Response `json:"account"`
}

// accountCreateResponse is AccountCreateResponse.
type accountCreateResponse struct {
	Account   Response             `json:"account"`
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

// RegisterViews adds accounts to the catalog, as GET /account shows
// them.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of(notify.ObjectAccount, state.TableAccounts,
		func(a *model.Account) string { return a.ID },
		func(_ *state.Txn, a *model.Account) (any, error) { return View(a), nil },
		func(_ *state.Txn, a *model.Account, accountID string) bool { return a.ID == accountID }))
}
