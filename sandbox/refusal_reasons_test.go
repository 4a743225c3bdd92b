package sandbox_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// noteLog keeps the call notes the sandbox hands to the writers of a
// server that asks for them (as the binary's access log does).
type noteLog struct {
	mu    sync.Mutex
	notes []sandbox.CallNote
}

func (l *noteLog) last(t *testing.T) sandbox.CallNote {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	require.NotEmpty(t, l.notes, "no call note")
	return l.notes[len(l.notes)-1]
}

// wrap serves next through writers that take notes.
func (l *noteLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&noteWriter{ResponseWriter: w, log: l}, r)
	})
}

type noteWriter struct {
	http.ResponseWriter
	log *noteLog
}

func (w *noteWriter) TakeNote(n sandbox.CallNote) {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	w.log.notes = append(w.log.notes, n)
}

// A refused call answers the official 401, byte for byte as before, and
// its note says which way the credential failed, without the credential:
// no credentials, a wrong scheme, a key no world has, a key whose world
// was deleted, an expired token (on the world clock), a revoked token.
func TestRefusedCallsTellTheLogWhy(t *testing.T) {
	var log noteLog
	srv := apitest.NewServer(t, sandbox.WithMiddleware(log.wrap))
	send := func(auth, method, path string) *sandboxtest.Response {
		if auth == "" {
			return srv.DoAs("", method, path, nil)
		}
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", auth)
		return srv.Send(req)
	}
	basic := func(key string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":")) }

	// A world made and deleted, and two OAuth tokens of the default world.
	var made struct {
		WorldID string `json:"world_id"`
		APIKey  string `json:"api_key"`
	}
	require.Equal(t, http.StatusCreated, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{}).Status)
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{})
	require.NoError(t, r.JSON(&made))
	require.Equal(t, http.StatusOK, srv.DoAs(made.APIKey, http.MethodDelete, "/_sandbox/world", nil).Status)
	secret := apitest.ClientSecret(t, srv)
	expiring := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", apitest.Authorize(t, srv, map[string]any{"state": "a"}), secret, "a"))
	revoked := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", apitest.Authorize(t, srv, map[string]any{"state": "b"}), secret, "b"))
	srv.Control(http.MethodPost, "/oauth/tokens/"+revoked.AccessToken+"/revoke", nil, nil)
	srv.Advance(2 * time.Hour)

	cases := []struct {
		name, auth, path string
		status           int
		body, reason     string
		secret           string
	}{
		{"no credentials", "", "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user. No credentials supplied.","error_name":"unauthorized"}}`,
			"no credentials: the request has no Authorization header", ""},
		{"wrong scheme", "Digest username=x", "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user. Use HTTP Basic with your API key or a Bearer access token.","error_name":"unauthorized"}}`,
			"wrong scheme: the Authorization header is neither Basic nor Bearer", "username=x"},
		{"no world has the key", basic("0123456789abcdef0123456789abcdef"), "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user.","error_name":"unauthorized"}}`,
			"no world has this API key", "0123456789abcdef"},
		{"the key's world was deleted", basic(made.APIKey), "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user.","error_name":"unauthorized"}}`,
			"the API key's world " + made.WorldID + " was deleted", made.APIKey},
		{"the token expired", "Bearer " + expiring.AccessToken, "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user. The access token has expired; use the refresh token to get a new one.","error_name":"unauthorized"}}`,
			"the access token expired at 2025-01-01T01:00:00Z on the world clock (now 2025-01-01T02:00:00Z)", expiring.AccessToken},
		{"the token was revoked", "Bearer " + revoked.AccessToken, "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user. The access token has been revoked.","error_name":"unauthorized"}}`,
			"the access token was revoked", revoked.AccessToken},
		{"no world has the token", "Bearer " + strings.Repeat("ab", 32), "/v3/account", 401,
			`{"error":{"error_msg":"Unauthorized user. The access token is not valid.","error_name":"unauthorized"}}`,
			"no world has this access token", strings.Repeat("ab", 32)},
		{"a control call with a dead key", basic(made.APIKey), "/_sandbox/clock", 401,
			`{"error":{"error_msg":"Unauthorized user.","error_name":"unauthorized"}}`,
			"the API key's world " + made.WorldID + " was deleted", made.APIKey},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := send(tc.auth, http.MethodGet, tc.path)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.body, string(r.Body), "the official answer")
			n := log.last(t)
			assert.Equal(t, tc.reason, n.Refusal)
			assert.Empty(t, n.World, "a refused call reaches no world")
			if tc.secret != "" {
				assert.NotContains(t, n.Refusal, tc.secret)
				assert.NotContains(t, n.Refusal, tc.secret[:8], "not even a prefix")
			}
		})
	}

	// A call that passes notes its operation and world, and no refusal.
	require.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	assert.Equal(t, sandbox.CallNote{Operation: "accountGet", World: "default"}, log.last(t))
	require.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/_sandbox/clock", nil).Status)
	assert.Equal(t, sandbox.CallNote{Operation: "GET /_sandbox/clock", World: "default"}, log.last(t))
}

// On a server with a shard tag, a key that no world holds and that does
// not start with the tag is noted as such: a router may have sent it to
// the wrong server.
func TestRefusedKeyOfAnotherShard(t *testing.T) {
	var log noteLog
	srv := apitest.NewServer(t, sandbox.WithMiddleware(log.wrap), sandbox.WithRandomCredentials(), sandbox.WithShard("a1"))
	r := srv.DoAs("b2"+strings.Repeat("0", 62), http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	assert.Equal(t, "no world has this API key (it does not start with this server's shard tag a1)", log.last(t).Refusal)
	r = srv.DoAs("a1"+strings.Repeat("0", 62), http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	assert.Equal(t, "no world has this API key", log.last(t).Refusal)
}

// The edge's refusals (an admin token missing or wrong) note why too, for
// a server that serves the sandbox through writers that take notes.
func TestEdgeRefusalsTellTheLogWhy(t *testing.T) {
	sb, err := sandbox.New(sandbox.WithAdminToken("the-admin-token"))
	require.NoError(t, err)
	t.Cleanup(sb.Close)
	var log noteLog
	hs := httptest.NewServer(log.wrap(sb))
	t.Cleanup(hs.Close)
	for token, reason := range map[string]string{"": "the call needs the admin token and sent none", "wrong": "the admin token is not valid"} {
		req, _ := http.NewRequest(http.MethodPost, hs.URL+"/_sandbox/worlds", strings.NewReader("{}"))
		if token != "" {
			req.Header.Set("X-Signsandbox-Admin-Token", token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Equal(t, reason, log.last(t).Refusal)
	}
}
