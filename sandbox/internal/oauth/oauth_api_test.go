package oauth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestOAuthFlowExpiryAndRefresh(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)

	// The official SDK's OAuth class posts to /oauth/token (no /v3); an SDK
	// configured with the sandbox's /v3 base posts to /v3/oauth/token.
	for _, path := range []string{"/oauth/token", "/v3/oauth/token"} {
		t.Run(path, func(t *testing.T) {
			code := apitest.Authorize(t, srv, map[string]any{"state": "xyz"})
			r := apitest.Exchange(t, srv, path, code, secret, "xyz")
			tok := apitest.DecodeToken(t, r)
			require.NotNil(t, tok.State)
			assert.Equal(t, "xyz", *tok.State)
			assert.NotEmpty(t, r.Header.Get("X-RateLimit-Limit"), "token answers carry the rate-limit headers of the account")

			// The code is single use.
			r = apitest.Exchange(t, srv, path, code, secret, "xyz")
			assert.Equal(t, http.StatusBadRequest, r.Status)
			_, _, p := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, "code", p)

			acct := apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
			require.Equal(t, http.StatusOK, acct.Status, "%s", acct.Body)
			assert.Equal(t, "owner@sandbox.example", acct.Map()["account"].(map[string]any)["email_address"])
		})
	}

	code := apitest.Authorize(t, srv, map[string]any{"state": "s1"})
	tok := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", code, secret, "s1"))

	// The token lives one hour on the world clock.
	srv.Advance(59*time.Minute + 59*time.Second)
	require.Equal(t, http.StatusOK, apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
	srv.Advance(time.Second)
	r := apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusUnauthorized, r.Status)
	name, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "unauthorized", name)
	assert.Contains(t, msg, "expired")

	// Refresh as the official SDK sends it: POST /oauth/token?refresh.
	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
	fresh := apitest.DecodeToken(t, r)
	assert.Nil(t, fresh.State, "a refresh has no state")
	assert.NotEqual(t, tok.AccessToken, fresh.AccessToken)
	require.Equal(t, http.StatusOK, apitest.Bearer(t, srv, fresh.AccessToken, http.MethodGet, "/v3/account", "").Status)
	r = apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	assert.Equal(t, http.StatusUnauthorized, r.Status, "the old access token is refused after a refresh")

	// A refresh token works once.
	r = srv.DoAs("", http.MethodPost, "/v3/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "refresh_token", p)

	// The refresh grant is recognized without the ?refresh marker too.
	r = srv.DoAs("", http.MethodPost, "/oauth/token", map[string]any{"grant_type": "refresh_token", "refresh_token": fresh.RefreshToken})
	apitest.DecodeToken(t, r)
}

func TestOAuthTokenRequestsAsForms(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "f"})
	form := url.Values{"client_id": {apitest.ClientID}, "client_secret": {secret}, "code": {code}, "grant_type": {"authorization_code"}, "state": {"f"}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Sandboxtest-No-Auth", "1")
	apitest.DecodeToken(t, srv.Send(req))
}

func TestOAuthTokenErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "good"})
	full := map[string]any{"client_id": apitest.ClientID, "client_secret": secret, "code": code, "grant_type": "authorization_code", "state": "good"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range full {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		path   string
	}{
		{"missing code", with("code", nil), 400, "code"},
		{"missing state", with("state", nil), 400, "state"},
		{"missing client_secret", with("client_secret", nil), 400, "client_secret"},
		{"wrong grant", with("grant_type", "password"), 400, "grant_type"},
		{"unknown code", with("code", "nope"), 400, "code"},
		{"wrong state", with("state", "bad"), 400, "state"},
		{"wrong client", with("client_id", "0000"), 400, "client_id"},
		{"wrong secret", with("client_secret", "bad"), 401, "client_secret"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.DoAs("", http.MethodPost, "/oauth/token", tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			_, _, p := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.path, p)
		})
	}
	// None of the failures used the code up.
	apitest.DecodeToken(t, srv.DoAs("", http.MethodPost, "/oauth/token", full))

	// Codes expire after ten minutes on the world clock.
	late := apitest.Authorize(t, srv, map[string]any{"state": "late"})
	srv.Advance(10 * time.Minute)
	r := apitest.Exchange(t, srv, "/oauth/token", late, secret, "late")
	assert.Equal(t, http.StatusBadRequest, r.Status)

	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "refresh_token", p)
	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "authorization_code", "refresh_token": "x"})
	assert.Equal(t, http.StatusBadRequest, r.Status)

	// Control-plane authorize errors.
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	// Without state the code could never be exchanged (the token endpoint
	// requires it): authorize refuses it, naming the parameter.
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": apitest.ClientID})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p = apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "state", p)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": "nope", "state": "s"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": apitest.ClientID, "state": "s", "email_address": "nobody@example.com"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": apitest.ClientID, "scope": "typo"})
	assert.Equal(t, http.StatusBadRequest, r.Status, "unknown control parameters are refused")
}

func TestOAuthScopesAndKeyOnlyOperations(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "s", "scopes": []string{"basic_account_info"}, "email_address": "teammate@sandbox.example"})
	tok := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", code, secret, "s"))

	r := apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusOK, r.Status, "basic_account_info is enough to read the account")
	assert.Equal(t, "teammate@sandbox.example", r.Map()["account"].(map[string]any)["email_address"], "the token acts for the account that granted it")

	r = apitest.Bearer(t, srv, tok.AccessToken, http.MethodPut, "/v3/account", `{"locale":"fr-FR"}`)
	require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	name, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "forbidden", name)
	assert.Contains(t, msg, "account_access")

	// Fax, report and other API-key-only operations refuse tokens whatever
	// their scopes.
	for _, p := range []string{"/v3/fax/list", "/v3/fax_line/list"} {
		r = apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, p, "")
		assert.Equal(t, http.StatusUnauthorized, r.Status, p)
		name, _, _ = apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "unauthorized", name)
	}

	// A revoked token stops working at once.
	srv.Control(http.MethodPost, "/oauth/tokens/"+tok.AccessToken+"/revoke", nil, nil)
	r = apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	assert.Equal(t, http.StatusUnauthorized, r.Status)
	_, msg, _ = apitest.ErrorParts(t, r.Body)
	assert.Contains(t, msg, "revoked")
}

func TestOAuthTokenTTLFollowsWorldConfig(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Control(http.MethodPatch, "/config", map[string]any{"oauth_token_ttl": "2h"}, nil)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "s"})
	r := apitest.Exchange(t, srv, "/oauth/token", code, secret, "s")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var tok apitest.TokenResponse
	require.NoError(t, r.JSON(&tok))
	assert.Equal(t, int64(7200), tok.ExpiresIn)
	srv.Advance(90 * time.Minute)
	assert.Equal(t, http.StatusOK, apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
}

func TestOAuthTokensStayInTheirWorld(t *testing.T) {
	srv := apitest.NewServer(t)
	w := srv.NewWorld()
	require.NotEmpty(t, w.ClientSecret)
	// Authorize in the new world (control calls act on the world of their key).
	r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": w.ClientID, "state": "w"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	code, _ := r.Map()["code"].(string)
	r = srv.DoAs("", http.MethodPost, "/oauth/token", map[string]any{"client_id": w.ClientID, "client_secret": w.ClientSecret, "code": code, "grant_type": "authorization_code", "state": "w"})
	tok := apitest.DecodeToken(t, r)
	// The token reaches the new world: a change there is not seen in the
	// default world.
	require.Equal(t, http.StatusOK, apitest.Bearer(t, srv, tok.AccessToken, http.MethodPut, "/v3/account", `{"locale":"nl-NL"}`).Status)
	assert.Equal(t, "nl-NL", srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)["locale"])
	assert.Equal(t, "en-US", srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)["locale"])
}

// The redirect URL carries the state as a query parameter, escaped, so that
// an app reading its callback's query gets the state it sent back.
func TestOAuthAuthorizeRedirectEscapesState(t *testing.T) {
	srv := apitest.NewServer(t)
	var out struct {
		Code        string `json:"code"`
		RedirectURL string `json:"redirect_url"`
	}
	srv.Control(http.MethodPost, "/oauth/authorize", map[string]any{"client_id": apitest.ClientID, "state": "a b&c=d"}, &out)
	u, err := url.Parse(out.RedirectURL)
	require.NoError(t, err)
	assert.Equal(t, "a b&c=d", u.Query().Get("state"))
	assert.Equal(t, out.Code, u.Query().Get("code"))
	apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", out.Code, apitest.ClientSecret(t, srv), "a b&c=d"))
}
