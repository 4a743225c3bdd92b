package sandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// fixtureClientID is the API app of fixtures/world.json.
const fixtureClientID = "7d1043473d55bfa90e8530d35801d4e3"

type tokenResponse struct {
	AccessToken  string  `json:"access_token"`
	TokenType    string  `json:"token_type"`
	RefreshToken string  `json:"refresh_token"`
	ExpiresIn    int64   `json:"expires_in"`
	State        *string `json:"state"`
}

// clientSecret reads the fixture app's secret from the control plane.
func clientSecret(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	var w struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	srv.Control(http.MethodGet, "/world", nil, &w)
	require.Equal(t, fixtureClientID, w.ClientID)
	require.NotEmpty(t, w.ClientSecret)
	return w.ClientSecret
}

// authorize stands in for a user granting the app access and returns the
// authorization code.
func authorize(t *testing.T, srv *sandboxtest.Server, body map[string]any) string {
	t.Helper()
	if body["client_id"] == nil {
		body["client_id"] = fixtureClientID
	}
	var out struct {
		Code        string `json:"code"`
		State       string `json:"state"`
		ExpiresAt   int64  `json:"expires_at"`
		RedirectURL string `json:"redirect_url"`
	}
	srv.Control(http.MethodPost, "/oauth/authorize", body, &out)
	require.NotEmpty(t, out.Code)
	assert.Equal(t, srv.Now().Add(10*time.Minute).Unix(), out.ExpiresAt)
	assert.Contains(t, out.RedirectURL, "code="+out.Code)
	return out.Code
}

// exchange trades a code for tokens at path (no credentials).
func exchange(t *testing.T, srv *sandboxtest.Server, path, code, secret, state string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs("", http.MethodPost, path, map[string]any{
		"client_id": fixtureClientID, "client_secret": secret, "code": code,
		"grant_type": "authorization_code", "state": state,
	})
}

// bearer sends a request with an OAuth access token.
func bearer(t *testing.T, srv *sandboxtest.Server, token, method, path string, body string) *sandboxtest.Response {
	t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	var req *http.Request
	if rd != nil {
		req, _ = http.NewRequest(method, srv.URL+path, rd)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, _ = http.NewRequest(method, srv.URL+path, nil)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return srv.Send(req)
}

func decodeToken(t *testing.T, r *sandboxtest.Response) tokenResponse {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var tok tokenResponse
	require.NoError(t, r.JSON(&tok))
	require.Regexp(t, `^[0-9a-f]{64}$`, tok.AccessToken)
	require.NotEmpty(t, tok.RefreshToken)
	assert.Equal(t, "Bearer", tok.TokenType)
	assert.Equal(t, int64(3600), tok.ExpiresIn)
	return tok
}

func TestOAuthFlowExpiryAndRefresh(t *testing.T) {
	srv := newServer(t)
	secret := clientSecret(t, srv)

	// The official SDK's OAuth class posts to /oauth/token (no /v3); an SDK
	// configured with the sandbox's /v3 base posts to /v3/oauth/token.
	for _, path := range []string{"/oauth/token", "/v3/oauth/token"} {
		t.Run(path, func(t *testing.T) {
			code := authorize(t, srv, map[string]any{"state": "xyz"})
			r := exchange(t, srv, path, code, secret, "xyz")
			tok := decodeToken(t, r)
			require.NotNil(t, tok.State)
			assert.Equal(t, "xyz", *tok.State)
			assert.NotEmpty(t, r.Header.Get("X-RateLimit-Limit"), "token answers carry the rate-limit headers of the account")

			// The code is single use.
			r = exchange(t, srv, path, code, secret, "xyz")
			assert.Equal(t, http.StatusBadRequest, r.Status)
			_, _, p := errorOf(t, r.Body)
			assert.Equal(t, "code", p)

			acct := bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
			require.Equal(t, http.StatusOK, acct.Status, "%s", acct.Body)
			assert.Equal(t, "owner@sandbox.example", acct.Map()["account"].(map[string]any)["email_address"])
		})
	}

	code := authorize(t, srv, map[string]any{"state": "s1"})
	tok := decodeToken(t, exchange(t, srv, "/oauth/token", code, secret, "s1"))

	// The token lives one hour on the world clock.
	srv.Advance(59*time.Minute + 59*time.Second)
	require.Equal(t, http.StatusOK, bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
	srv.Advance(time.Second)
	r := bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusUnauthorized, r.Status)
	name, msg, _ := errorOf(t, r.Body)
	assert.Equal(t, "unauthorized", name)
	assert.Contains(t, msg, "expired")

	// Refresh as the official SDK sends it: POST /oauth/token?refresh.
	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
	fresh := decodeToken(t, r)
	assert.Nil(t, fresh.State, "a refresh has no state")
	assert.NotEqual(t, tok.AccessToken, fresh.AccessToken)
	require.Equal(t, http.StatusOK, bearer(t, srv, fresh.AccessToken, http.MethodGet, "/v3/account", "").Status)
	r = bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	assert.Equal(t, http.StatusUnauthorized, r.Status, "the old access token is refused after a refresh")

	// A refresh token works once.
	r = srv.DoAs("", http.MethodPost, "/v3/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p := errorOf(t, r.Body)
	assert.Equal(t, "refresh_token", p)

	// The refresh grant is recognized without the ?refresh marker too.
	r = srv.DoAs("", http.MethodPost, "/oauth/token", map[string]any{"grant_type": "refresh_token", "refresh_token": fresh.RefreshToken})
	decodeToken(t, r)
}

func TestOAuthTokenRequestsAsForms(t *testing.T) {
	srv := newServer(t)
	secret := clientSecret(t, srv)
	code := authorize(t, srv, map[string]any{"state": "f"})
	form := url.Values{"client_id": {fixtureClientID}, "client_secret": {secret}, "code": {code}, "grant_type": {"authorization_code"}, "state": {"f"}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Sandboxtest-No-Auth", "1")
	decodeToken(t, srv.Send(req))
}

func TestOAuthTokenErrors(t *testing.T) {
	srv := newServer(t)
	secret := clientSecret(t, srv)
	code := authorize(t, srv, map[string]any{"state": "good"})
	full := map[string]any{"client_id": fixtureClientID, "client_secret": secret, "code": code, "grant_type": "authorization_code", "state": "good"}
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
			_, _, p := errorOf(t, r.Body)
			assert.Equal(t, tc.path, p)
		})
	}
	// None of the failures used the code up.
	decodeToken(t, srv.DoAs("", http.MethodPost, "/oauth/token", full))

	// Codes expire after ten minutes on the world clock.
	late := authorize(t, srv, map[string]any{"state": "late"})
	srv.Advance(10 * time.Minute)
	r := exchange(t, srv, "/oauth/token", late, secret, "late")
	assert.Equal(t, http.StatusBadRequest, r.Status)

	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p := errorOf(t, r.Body)
	assert.Equal(t, "refresh_token", p)
	r = srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "authorization_code", "refresh_token": "x"})
	assert.Equal(t, http.StatusBadRequest, r.Status)

	// Control-plane authorize errors.
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	// Without state the code could never be exchanged (the token endpoint
	// requires it): authorize refuses it, naming the parameter.
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": fixtureClientID})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p = errorOf(t, r.Body)
	assert.Equal(t, "state", p)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": "nope", "state": "s"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": fixtureClientID, "state": "s", "email_address": "nobody@example.com"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": fixtureClientID, "scope": "typo"})
	assert.Equal(t, http.StatusBadRequest, r.Status, "unknown control parameters are refused")
}

func TestOAuthScopesAndKeyOnlyOperations(t *testing.T) {
	srv := newServer(t)
	secret := clientSecret(t, srv)
	code := authorize(t, srv, map[string]any{"state": "s", "scopes": []string{"basic_account_info"}, "email_address": "teammate@sandbox.example"})
	tok := decodeToken(t, exchange(t, srv, "/oauth/token", code, secret, "s"))

	r := bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusOK, r.Status, "basic_account_info is enough to read the account")
	assert.Equal(t, "teammate@sandbox.example", r.Map()["account"].(map[string]any)["email_address"], "the token acts for the account that granted it")

	r = bearer(t, srv, tok.AccessToken, http.MethodPut, "/v3/account", `{"locale":"fr-FR"}`)
	require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	name, msg, _ := errorOf(t, r.Body)
	assert.Equal(t, "forbidden", name)
	assert.Contains(t, msg, "account_access")

	// Fax, report and other API-key-only operations refuse tokens whatever
	// their scopes.
	for _, p := range []string{"/v3/fax/list", "/v3/fax_line/list"} {
		r = bearer(t, srv, tok.AccessToken, http.MethodGet, p, "")
		assert.Equal(t, http.StatusUnauthorized, r.Status, p)
		name, _, _ = errorOf(t, r.Body)
		assert.Equal(t, "unauthorized", name)
	}

	// A revoked token stops working at once.
	srv.Control(http.MethodPost, "/oauth/tokens/"+tok.AccessToken+"/revoke", nil, nil)
	r = bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "")
	assert.Equal(t, http.StatusUnauthorized, r.Status)
	_, msg, _ = errorOf(t, r.Body)
	assert.Contains(t, msg, "revoked")
}

func TestOAuthTokenTTLFollowsWorldConfig(t *testing.T) {
	srv := newServer(t)
	srv.Control(http.MethodPatch, "/config", map[string]any{"oauth_token_ttl": "2h"}, nil)
	secret := clientSecret(t, srv)
	code := authorize(t, srv, map[string]any{"state": "s"})
	r := exchange(t, srv, "/oauth/token", code, secret, "s")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var tok tokenResponse
	require.NoError(t, r.JSON(&tok))
	assert.Equal(t, int64(7200), tok.ExpiresIn)
	srv.Advance(90 * time.Minute)
	assert.Equal(t, http.StatusOK, bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
}

func TestOAuthTokensStayInTheirWorld(t *testing.T) {
	srv := newServer(t)
	w := srv.NewWorld()
	require.NotEmpty(t, w.ClientSecret)
	// Authorize in the new world (control calls act on the world of their key).
	r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": w.ClientID, "state": "w"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	code, _ := r.Map()["code"].(string)
	r = srv.DoAs("", http.MethodPost, "/oauth/token", map[string]any{"client_id": w.ClientID, "client_secret": w.ClientSecret, "code": code, "grant_type": "authorization_code", "state": "w"})
	tok := decodeToken(t, r)
	// The token reaches the new world: a change there is not seen in the
	// default world.
	require.Equal(t, http.StatusOK, bearer(t, srv, tok.AccessToken, http.MethodPut, "/v3/account", `{"locale":"nl-NL"}`).Status)
	assert.Equal(t, "nl-NL", srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)["locale"])
	assert.Equal(t, "en-US", srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)["locale"])
}

// The redirect URL carries the state as a query parameter, escaped, so that
// an app reading its callback's query gets the state it sent back.
func TestOAuthAuthorizeRedirectEscapesState(t *testing.T) {
	srv := newServer(t)
	var out struct {
		Code        string `json:"code"`
		RedirectURL string `json:"redirect_url"`
	}
	srv.Control(http.MethodPost, "/oauth/authorize", map[string]any{"client_id": fixtureClientID, "state": "a b&c=d"}, &out)
	u, err := url.Parse(out.RedirectURL)
	require.NoError(t, err)
	assert.Equal(t, "a b&c=d", u.Query().Get("state"))
	assert.Equal(t, out.Code, u.Query().Get("code"))
	decodeToken(t, exchange(t, srv, "/oauth/token", out.Code, clientSecret(t, srv), "a b&c=d"))
}
