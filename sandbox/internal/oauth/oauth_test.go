package oauth_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
)

// TestCodeTokenRefreshRevoke: a code is exchanged once for a bearer token
// that calls the API; the refresh token gives a new one; a revoked token
// is refused.
func TestCodeTokenRefreshRevoke(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "s1"})
	body := map[string]any{"client_id": apitest.ClientID, "client_secret": secret, "code": code, "grant_type": "authorization_code", "state": "s1"}
	r := srv.DoAs("", http.MethodPost, "/v3/oauth/token", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var tok apitest.TokenResponse
	require.NoError(t, r.JSON(&tok))
	assert.Equal(t, "Bearer", tok.TokenType)
	assert.Positive(t, tok.ExpiresIn)
	require.NotNil(t, tok.State)
	assert.Equal(t, "s1", *tok.State)

	again := apitest.ErrorOf(t, srv.DoAs("", http.MethodPost, "/v3/oauth/token", body))
	assert.Equal(t, "code", again.Path, "a code is used once: %s", again.Msg)

	call := func(access string) int {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/v3/account", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+access)
		return srv.Send(req).Status
	}
	assert.Equal(t, http.StatusOK, call(tok.AccessToken))

	r = srv.DoAs("", http.MethodPost, "/v3/oauth/token?refresh", map[string]any{
		"grant_type": "refresh_token", "refresh_token": tok.RefreshToken, "client_id": apitest.ClientID, "client_secret": secret,
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var fresh apitest.TokenResponse
	require.NoError(t, r.JSON(&fresh))
	assert.NotEqual(t, tok.AccessToken, fresh.AccessToken)
	assert.Equal(t, http.StatusOK, call(fresh.AccessToken))

	srv.Control(http.MethodPost, "/oauth/tokens/"+fresh.AccessToken+"/revoke", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, call(fresh.AccessToken))
}

// TestTokenRequestErrors: each mistake in a token request is a 4xx naming
// the parameter at fault.
func TestTokenRequestErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "s1"})
	full := func(change map[string]any) map[string]any {
		b := map[string]any{"client_id": apitest.ClientID, "client_secret": secret, "code": code, "grant_type": "authorization_code", "state": "s1"}
		for k, v := range change {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	for _, tc := range []struct {
		name, path, errName, errPath string
		body                         map[string]any
	}{
		{"no client_id", "/v3/oauth/token", "bad_request", "client_id", full(map[string]any{"client_id": nil})},
		{"no state", "/v3/oauth/token", "bad_request", "state", full(map[string]any{"state": nil})},
		{"other grant", "/v3/oauth/token", "bad_request", "grant_type", full(map[string]any{"grant_type": "password"})},
		{"unknown code", "/v3/oauth/token", "bad_request", "code", full(map[string]any{"code": "nope"})},
		{"other client", "/v3/oauth/token", "bad_request", "client_id", full(map[string]any{"client_id": "0123456789abcdef0123456789abcdef"})},
		{"other state", "/v3/oauth/token", "bad_request", "state", full(map[string]any{"state": "s2"})},
		{"wrong secret", "/v3/oauth/token", "unauthorized", "client_secret", full(map[string]any{"client_secret": "x"})},
		{"refresh without token", "/v3/oauth/token?refresh", "bad_request", "refresh_token", map[string]any{"grant_type": "refresh_token"}},
		{"refresh other grant", "/v3/oauth/token?refresh", "bad_request", "grant_type", map[string]any{"grant_type": "authorization_code", "refresh_token": "x"}},
		{"refresh unknown token", "/v3/oauth/token?refresh", "bad_request", "refresh_token", map[string]any{"grant_type": "refresh_token", "refresh_token": "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := apitest.ErrorOf(t, srv.DoAs("", http.MethodPost, tc.path, tc.body))
			assert.Equal(t, tc.errName, e.Name, e.Msg)
			assert.Equal(t, tc.errPath, e.Path, e.Msg)
		})
	}
	// The code survived every failed exchange.
	r := srv.DoAs("", http.MethodPost, "/v3/oauth/token", full(nil))
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// TestAuthorizeRefusesUnknownScopes names the scope at fault and lists
// the valid ones.
func TestAuthorizeRefusesUnknownScopes(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{
		"client_id": apitest.ClientID, "state": "s", "scopes": []string{oauth.Scopes[0], "everything"},
	})
	e := apitest.ErrorOf(t, r)
	assert.Equal(t, "scopes[1]", e.Path)
	for _, s := range oauth.Scopes {
		assert.Contains(t, e.Msg, s)
	}
	e = apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": apitest.ClientID}))
	assert.Equal(t, "state", e.Path, "a code without state could never be exchanged")
}
