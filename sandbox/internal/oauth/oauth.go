package oauth

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Register adds the token operations (generate, refresh) and the control
// calls that authorize an app and revoke a token to r.
func Register(r *api.Registry) {
	r.Handle("oauthTokenGenerate", oauthTokenGenerate)
	r.Handle("oauthTokenRefresh", oauthTokenRefresh)
	r.Control(http.MethodPost, "/oauth/authorize", controlOAuthAuthorize)
	r.ControlNoBody(http.MethodPost, "/oauth/tokens/{access_token}/revoke", controlOAuthRevoke)
}

// oauthCodeTTL is how long an authorization code can be exchanged.
const oauthCodeTTL = 10 * time.Minute

// IssueToken creates an access and refresh token for account acting through
// app, expiring on the world clock after the world's OAuth token TTL.
// scopes nil means the app's configured scopes.
func IssueToken(tx *state.Txn, accountID string, app *model.APIApp, scopes []string, st string) (*TokenResponse, error) {
	ttl := state.GetConfig(tx).OAuthTokenTTL.D()
	if scopes == nil && app.OAuth != nil {
		scopes = slices.Clone(app.OAuth.Scopes)
	}
	t := &model.OAuthToken{
		AccessToken: tx.NewSecret(), RefreshToken: tx.NewSecret(), AccountID: accountID, ClientID: app.ClientID,
		Scopes: scopes, ExpiresAt: tx.Now().Add(ttl).Unix(),
	}
	if err := state.Put(tx, state.TableOAuthToken, t); err != nil {
		return nil, err
	}
	return tokenResponse(t, ttl, st), nil
}

func tokenResponse(t *model.OAuthToken, ttl time.Duration, st string) *TokenResponse {
	return &TokenResponse{
		AccessToken: t.AccessToken, TokenType: "Bearer", RefreshToken: t.RefreshToken,
		ExpiresIn: int64(ttl / time.Second), State: api.NullString(st),
	}
}

type oauthGenerateRequest struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Code         string `json:"code"`
	GrantType    string `json:"grant_type"`
	State        string `json:"state"`
}

// oauthTokenGenerate exchanges an authorization code for tokens. The request
// carries no credentials: the code names the world.
func oauthTokenGenerate(c *api.Call) (any, error) {
	var req oauthGenerateRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	// The official SDK posts refresh requests to the same path; they are
	// recognized by their grant type even without the ?refresh marker.
	if req.GrantType == "refresh_token" {
		return oauthTokenRefresh(c)
	}
	for _, f := range []struct{ name, v string }{{"client_id", req.ClientID}, {"client_secret", req.ClientSecret}, {"code", req.Code}, {"grant_type", req.GrantType}, {"state", req.State}} {
		if f.v == "" {
			return nil, apierr.Missing(f.name)
		}
	}
	if req.GrantType != "authorization_code" {
		return nil, apierr.Badf("grant_type", "grant_type must be authorization_code.")
	}
	w := c.Host.FindWorld(func(w *world.World) bool {
		_, err := state.Get[model.OAuthCode](w.Store.Read(), state.TableOAuthCodes, req.Code)
		return err == nil
	})
	if w == nil {
		return nil, apierr.Badf("code", "Invalid or expired authorization code.")
	}
	c.EnterWorld(w)
	var resp *TokenResponse
	err := c.Update(func(tx *state.Txn) error {
		code, err := state.Get[model.OAuthCode](tx, state.TableOAuthCodes, req.Code)
		if err != nil || code.Used || tx.Unix() >= code.ExpiresAt {
			return apierr.Badf("code", "Invalid or expired authorization code.")
		}
		if code.ClientID != req.ClientID {
			return apierr.Badf("client_id", "The code was not issued to this client_id.")
		}
		if code.State != req.State {
			return apierr.Badf("state", "state does not match the state of the authorization.")
		}
		app, err := state.Get[model.APIApp](tx, state.TableAPIApps, req.ClientID)
		if err != nil || app.OAuth == nil || app.OAuth.Secret != req.ClientSecret {
			return apierr.New(apierr.Unauthorized, "Invalid client_id or client_secret.").WithPath("client_secret")
		}
		used := state.Clone(code)
		used.Used = true
		if err := state.Put(tx, state.TableOAuthCodes, used); err != nil {
			return err
		}
		resp, err = IssueToken(tx, code.AccountID, app, code.Scopes, req.State)
		if err != nil {
			return err
		}
		c.Account, _ = state.Get[model.Account](tx, state.TableAccounts, code.AccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

type oauthRefreshRequest struct {
	GrantType    string `json:"grant_type"`
	RefreshToken string `json:"refresh_token"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// oauthTokenRefresh trades a refresh token for a new access token; the old
// access token stops working.
func oauthTokenRefresh(c *api.Call) (any, error) {
	var req oauthRefreshRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if req.GrantType == "" {
		return nil, apierr.Missing("grant_type")
	}
	if req.GrantType != "refresh_token" {
		return nil, apierr.Badf("grant_type", "grant_type must be refresh_token.")
	}
	if req.RefreshToken == "" {
		return nil, apierr.Missing("refresh_token")
	}
	w := c.Host.FindWorld(func(w *world.World) bool {
		_, err := state.First[model.OAuthToken](w.Store.Read(), state.TableOAuthToken, state.IndexRefresh, req.RefreshToken)
		return err == nil
	})
	if w == nil {
		return nil, apierr.Badf("refresh_token", "Invalid refresh token.")
	}
	c.EnterWorld(w)
	var resp *TokenResponse
	err := c.Update(func(tx *state.Txn) error {
		old, err := state.First[model.OAuthToken](tx, state.TableOAuthToken, state.IndexRefresh, req.RefreshToken)
		if err != nil || old.Revoked {
			return apierr.Badf("refresh_token", "Invalid refresh token.")
		}
		app, err := state.Get[model.APIApp](tx, state.TableAPIApps, old.ClientID)
		if err != nil {
			return apierr.Badf("refresh_token", "The app of this refresh token no longer exists.")
		}
		if req.ClientID != "" && (req.ClientID != app.ClientID || app.OAuth == nil || req.ClientSecret != app.OAuth.Secret) {
			return apierr.New(apierr.Unauthorized, "Invalid client_id or client_secret.").WithPath("client_id")
		}
		if err := tx.Delete(state.TableOAuthToken, old); err != nil {
			return err
		}
		resp, err = IssueToken(tx, old.AccountID, app, old.Scopes, "")
		if err != nil {
			return err
		}
		c.Account, _ = state.Get[model.Account](tx, state.TableAccounts, old.AccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

type oauthAuthorizeRequest struct {
	ClientID     string   `json:"client_id"`
	AccountID    string   `json:"account_id"`
	EmailAddress string   `json:"email_address"`
	State        string   `json:"state"`
	Scopes       []string `json:"scopes"`
}

type oauthAuthorizeResponse struct {
	Code        string `json:"code"`
	State       string `json:"state"`
	ExpiresAt   int64  `json:"expires_at"`
	RedirectURL string `json:"redirect_url,omitempty"`
}

// controlOAuthAuthorize stands in for a user granting an app access on the
// real authorization page: it issues the code the app's callback would get.
func controlOAuthAuthorize(c *api.Call) (any, error) {
	var req oauthAuthorizeRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	if req.ClientID == "" {
		return nil, apierr.Missing("client_id")
	}
	// The token endpoint requires state (as the official
	// OAuthTokenGenerateRequest does), so a code issued without one could
	// never be exchanged: refuse it here, where the mistake is made.
	if req.State == "" {
		return nil, apierr.Missing("state")
	}
	for i, s := range req.Scopes {
		if !slices.Contains(Scopes, s) {
			return nil, apierr.Badf(apierr.IndexPath("scopes", i), "Invalid OAuth scope %q: use %s.", param.Shorten(s), strings.Join(Scopes, ", "))
		}
	}
	var out oauthAuthorizeResponse
	err := c.Update(func(tx *state.Txn) error {
		app, err := state.Get[model.APIApp](tx, state.TableAPIApps, req.ClientID)
		if err != nil {
			return api.ErrControlNotFound("API app", req.ClientID)
		}
		if app.OAuth == nil {
			return apierr.Badf("client_id", "The API app has no OAuth configuration.")
		}
		var acct *model.Account
		switch {
		case req.AccountID != "":
			acct, err = state.Get[model.Account](tx, state.TableAccounts, req.AccountID)
		case req.EmailAddress != "":
			acct, err = state.AccountByEmail(tx, req.EmailAddress)
		default:
			acct, err = state.Get[model.Account](tx, state.TableAccounts, c.ActingAccountID())
		}
		if err != nil {
			return api.ErrControlNotFound("account", req.AccountID+req.EmailAddress)
		}
		scopes := app.OAuth.Scopes
		if len(req.Scopes) > 0 {
			scopes = req.Scopes
		}
		code := &model.OAuthCode{Code: tx.NewSecret()[:32], ClientID: app.ClientID, AccountID: acct.ID, State: req.State,
			Scopes: slices.Clone(scopes), ExpiresAt: tx.Now().Add(oauthCodeTTL).Unix()}
		if err := state.Put(tx, state.TableOAuthCodes, code); err != nil {
			return err
		}
		out = oauthAuthorizeResponse{Code: code.Code, State: code.State, ExpiresAt: code.ExpiresAt}
		if app.OAuth.CallbackURL != "" {
			sep := "?"
			if strings.Contains(app.OAuth.CallbackURL, "?") {
				sep = "&"
			}
			out.RedirectURL = app.OAuth.CallbackURL + sep + "code=" + url.QueryEscape(code.Code) + "&state=" + url.QueryEscape(req.State)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// controlOAuthRevoke revokes an access token (as a user removing an app's
// access would).
func controlOAuthRevoke(c *api.Call) (any, error) {
	tok := c.Param("access_token")
	err := c.Update(func(tx *state.Txn) error {
		t, err := state.Get[model.OAuthToken](tx, state.TableOAuthToken, tok)
		if err != nil {
			return api.ErrControlNotFound("access token", tok)
		}
		r := state.Clone(t)
		r.Revoked = true
		return state.Put(tx, state.TableOAuthToken, r)
	})
	if err != nil {
		return nil, err
	}
	return api.EmptyOK(), nil
}

// Scopes are the scopes an app may ask for (SubOAuth.scopes; the
// official enum also lists "", which the sandbox drops).
var Scopes = []string{
	"request_signature", "basic_account_info", "account_access", "signature_request_access",
	"template_access", "team_access", "api_app_access",
}

// TokenResponse is OAuthTokenResponse.
type TokenResponse struct {
	AccessToken  string  `json:"access_token"`
	TokenType    string  `json:"token_type"`
	RefreshToken string  `json:"refresh_token"`
	ExpiresIn    int64   `json:"expires_in"`
	State        *string `json:"state"`
}
