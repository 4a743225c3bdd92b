package apitest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// OAuth: the authorization code flow of the fixture app.

// TokenResponse is the token answer of /oauth/token.
type TokenResponse struct {
	AccessToken  string  `json:"access_token"`
	TokenType    string  `json:"token_type"`
	RefreshToken string  `json:"refresh_token"`
	ExpiresIn    int64   `json:"expires_in"`
	State        *string `json:"state"`
}

// ClientSecret reads the fixture app's secret from the control plane.
func ClientSecret(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	var w struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	srv.Control(http.MethodGet, "/world", nil, &w)
	require.Equal(t, ClientID, w.ClientID)
	require.NotEmpty(t, w.ClientSecret)
	return w.ClientSecret
}

// Authorize stands in for a user granting the app access and returns the
// authorization code.
func Authorize(t *testing.T, srv *sandboxtest.Server, body map[string]any) string {
	t.Helper()
	if body["client_id"] == nil {
		body["client_id"] = ClientID
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

// Exchange trades a code for tokens at path (no credentials).
func Exchange(t *testing.T, srv *sandboxtest.Server, path, code, secret, state string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs("", http.MethodPost, path, map[string]any{
		"client_id": ClientID, "client_secret": secret, "code": code,
		"grant_type": "authorization_code", "state": state,
	})
}

// Bearer sends a request with an OAuth access token.
func Bearer(t *testing.T, srv *sandboxtest.Server, token, method, path string, body string) *sandboxtest.Response {
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

// DecodeToken decodes a 200 token answer and checks its shape.
func DecodeToken(t *testing.T, r *sandboxtest.Response) TokenResponse {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var tok TokenResponse
	require.NoError(t, r.JSON(&tok))
	require.Regexp(t, `^[0-9a-f]{64}$`, tok.AccessToken)
	require.NotEmpty(t, tok.RefreshToken)
	assert.Equal(t, "Bearer", tok.TokenType)
	assert.Equal(t, int64(3600), tok.ExpiresIn)
	return tok
}
