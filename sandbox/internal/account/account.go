package account

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Register adds the account operations (get, update, create, verify) to r.
func Register(r *api.Registry) {
	r.Handle("accountGet", accountGet)
	r.Handle("accountUpdate", accountUpdate)
	r.Handle("accountCreate", accountCreate)
	r.Handle("accountVerify", accountVerify)
}

type accountGetQuery struct {
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
}

// accountGet answers the caller's account, or the account named by
// account_id or email_address in the caller's world (account_id prevails).
func accountGet(c *api.Call) (any, error) {
	var q accountGetQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	tx := c.Read()
	var a *model.Account
	var err error
	switch {
	case q.AccountID != "":
		a, err = state.Get[model.Account](tx, state.TableAccounts, q.AccountID)
	case q.EmailAddress != "":
		a, err = state.AccountByEmail(tx, q.EmailAddress)
	default:
		a, err = state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
	}
	if err != nil {
		return nil, apierr.NotFoundf("Account not found.")
	}
	return accountGetResponse{Account: View(a)}, nil
}

type accountUpdateRequest struct {
	AccountID   *string `json:"account_id"`
	CallbackURL *string `json:"callback_url"`
	Locale      *string `json:"locale"`
}

// accountUpdate changes only callback_url and locale, as the real API does.
func accountUpdate(c *api.Call) (any, error) {
	var req accountUpdateRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if req.AccountID != nil && *req.AccountID != "" && *req.AccountID != c.Account.ID {
		return nil, apierr.Forbiddenf("You can only update your own account.").WithPath("account_id")
	}
	if req.Locale != nil {
		if err := param.CheckLocale("locale", *req.Locale); err != nil {
			return nil, err
		}
	}
	if req.CallbackURL != nil && *req.CallbackURL != "" {
		if err := param.CheckCallbackURL("callback_url", *req.CallbackURL); err != nil {
			return nil, err
		}
	}
	var out *model.Account
	err := c.Update(func(tx *state.Txn) error {
		cur, err := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
		if err != nil {
			return apierr.NotFoundf("Account not found.")
		}
		a := state.Clone(cur)
		if req.Locale != nil {
			a.Locale = *req.Locale
		}
		changedCallback := false
		if req.CallbackURL != nil {
			changedCallback = *req.CallbackURL != "" && *req.CallbackURL != a.CallbackURL
			a.CallbackURL = *req.CallbackURL
		}
		if err := state.Put(tx, state.TableAccounts, a); err != nil {
			return err
		}
		if changedCallback {
			if err := callbacks.EmitTestAccount(c.Host, tx, a); err != nil {
				return err
			}
		}
		out = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return accountGetResponse{Account: View(out)}, nil
}

type accountCreateRequest struct {
	EmailAddress string `json:"email_address"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Locale       string `json:"locale"`
}

// NewQuotas are the allowances of an account created through the API
// (a free plan).
func NewQuotas() model.Quotas {
	return model.Quotas{
		APISignatureRequestsLeft: new(0),
		DocumentsLeft:            new(3),
		TemplatesTotal:           new(0),
		TemplatesLeft:            new(0),
		SMSVerificationsLeft:     new(0),
		NumFaxPagesLeft:          new(0),
	}
}

// accountCreate creates an account for an e-mail address. With an app's
// client_id and client_secret it also answers OAuth tokens for the new
// account, as the real API's OAuth variant does.
func accountCreate(c *api.Call) (any, error) {
	var req accountCreateRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := param.CheckEmail("email_address", req.EmailAddress); err != nil {
		return nil, err
	}
	if req.Locale != "" {
		if err := param.CheckLocale("locale", req.Locale); err != nil {
			return nil, err
		}
	}
	if (req.ClientID == "") != (req.ClientSecret == "") {
		if req.ClientID == "" {
			return nil, apierr.Missing("client_id")
		}
		return nil, apierr.Missing("client_secret")
	}
	var resp accountCreateResponse
	err := c.Update(func(tx *state.Txn) error {
		if _, err := state.AccountByEmail(tx, req.EmailAddress); err == nil {
			return apierr.Badf("email_address", "An account with this email address already exists.")
		}
		var app *model.APIApp
		if req.ClientID != "" {
			a, err := state.Get[model.APIApp](tx, state.TableAPIApps, req.ClientID)
			if err != nil || a.OAuth == nil || a.OAuth.Secret != req.ClientSecret {
				return apierr.New(apierr.Unauthorized, "Invalid client_id or client_secret.").WithPath("client_id")
			}
			app = a
		}
		locale := req.Locale
		if locale == "" {
			locale = "en-US"
		}
		a := &model.Account{
			ID: tx.NewID(), Email: req.EmailAddress, EmailKey: state.EmailKey(req.EmailAddress), Locale: locale,
			Quotas: NewQuotas(), CreatedAt: tx.Unix(), Seq: tx.Seq(),
		}
		if app != nil {
			a.CreatedByClientID = app.ClientID
		}
		if err := state.Put(tx, state.TableAccounts, a); err != nil {
			return err
		}
		resp.Account = View(a)
		if app != nil {
			tok, err := oauth.IssueToken(tx, a.ID, app, nil, "")
			if err != nil {
				return err
			}
			resp.OAuthData = tok
		}
		return sendConfirmationEmail(tx, a)
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

type accountVerifyRequest struct {
	EmailAddress string `json:"email_address"`
}

// accountVerify tells whether an account exists for an address: {} when not.
func accountVerify(c *api.Call) (any, error) {
	var req accountVerifyRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := param.CheckEmail("email_address", req.EmailAddress); err != nil {
		return nil, err
	}
	a, err := state.AccountByEmail(c.Read(), req.EmailAddress)
	if err != nil {
		return accountVerifyResponse{}, nil
	}
	return accountVerifyResponse{Account: &accountVerifyAccount{EmailAddress: a.Email}}, nil
}
