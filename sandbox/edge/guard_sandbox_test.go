package edge_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// send sends a request without the test client's credentials, with the
// given Host and headers, and reads the answer.
func send(t *testing.T, srv *sandboxtest.Server, method, path, host, body string, hdr map[string]string) rawResponse {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	require.NoError(t, err)
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return rawResponse{resp.StatusCode, resp.Header, b}
}

// worldCount is the number of worlds health reports.
func worldCount(t *testing.T, srv *sandboxtest.Server) float64 {
	t.Helper()
	r := srv.Do(http.MethodGet, "/_sandbox/health", nil)
	require.Equal(t, http.StatusOK, r.Status)
	return r.Map()["worlds"].(float64)
}

// The attacks of issue 17 item 6: a page of another site posting forms to
// the control plane, and a page reading it through DNS rebinding. Each is
// refused with a 403 in the envelope and changes nothing; local callers
// and callers with credentials are answered as before, and no answer lets
// another origin read it.
func TestNoWebPageCanDriveALocalSandbox(t *testing.T) {
	srv := newServer(t)
	local := hostOf(srv)
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"}

	// Cross-site form posts without credentials.
	for _, path := range []string{"/_sandbox/clock/advance", "/_sandbox/worlds", "/_sandbox/reset", "/_sandbox/api_keys"} {
		r := send(t, srv, http.MethodPost, path, "", "seconds=3600", form)
		assert.Equal(t, http.StatusForbidden, r.status, "%s: %s", path, r.body)
		requireEnvelope(t, r, apierr.Forbidden, "", "")
	}
	r := send(t, srv, http.MethodPost, "/_sandbox/clock/advance", "", `{"seconds":3600}`, map[string]string{"Sec-Fetch-Site": "cross-site"})
	assert.Equal(t, http.StatusForbidden, r.status)
	assert.Equal(t, sandboxtest.Start, srv.Now(), "the clock did not move")
	assert.Equal(t, float64(1), worldCount(t, srv), "no world was created")

	// DNS rebinding: the page's own host name.
	for _, path := range []string{"/_sandbox/state", "/_sandbox/api_keys", "/_sandbox/world", "/_sandbox/w/default/sign/abc"} {
		r := send(t, srv, http.MethodGet, path, "evil.example:"+strings.Split(local, ":")[1], "", nil)
		assert.Equal(t, http.StatusForbidden, r.status, "%s: %s", path, r.body)
		requireEnvelope(t, r, apierr.Forbidden, "", "")
		assert.NotContains(t, string(r.body), srv.APIKey)
	}
	// ... even with a key the page knows, when it is a browser asking.
	r = send(t, srv, http.MethodGet, "/v3/account", "evil.example", "", map[string]string{"Authorization": "Basic " + basic(srv.APIKey), "Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, http.StatusForbidden, r.status)
	requireEnvelope(t, r, apierr.Forbidden, "accountGet", "/v3/account")

	// Answered: loopback callers, same-origin pages, programs with keys
	// under any name, and the health probe under any name.
	r = send(t, srv, http.MethodPost, "/_sandbox/clock/advance", "", `{"seconds":60}`, map[string]string{"Origin": srv.URL, "Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r = send(t, srv, http.MethodGet, "/_sandbox/state", "localhost", "", nil)
	assert.Equal(t, http.StatusOK, r.status)
	r = send(t, srv, http.MethodGet, "/_sandbox/clock", "sandbox-service:8080", "", map[string]string{"Authorization": "Basic " + basic(srv.APIKey)})
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r = send(t, srv, http.MethodGet, "/_sandbox/health", "10.1.2.3:8080", "", nil)
	assert.Equal(t, http.StatusOK, r.status)

	// No CORS: neither a preflight nor an answer grants another origin.
	for _, method := range []string{http.MethodOptions, http.MethodGet} {
		r = send(t, srv, method, "/_sandbox/state", "", "", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "PUT"})
		for k := range r.header {
			assert.False(t, strings.HasPrefix(strings.ToLower(k), "access-control-"), "%s answers %s", method, k)
		}
	}
}

// --allowed-hosts and --base-url name the hosts a shared sandbox is
// reached by; calls without credentials are answered under them.
func TestAllowedHostsAndBaseURLHost(t *testing.T) {
	srv := newServer(t, sandbox.WithAllowedHosts("sandbox.internal"), sandbox.WithBaseURL("https://sign.example.com/prefix"))
	for _, host := range []string{"sandbox.internal", "sandbox.internal:8080", "SIGN.example.com", "127.0.0.1"} {
		r := send(t, srv, http.MethodGet, "/_sandbox/clock", host, "", nil)
		assert.Equal(t, http.StatusOK, r.status, host)
	}
	r := send(t, srv, http.MethodGet, "/_sandbox/clock", "other.internal", "", nil)
	assert.Equal(t, http.StatusForbidden, r.status)

	_, err := sandbox.New(sandbox.WithAllowedHosts("http://sandbox.internal"))
	assert.Error(t, err, "an allowed host is a name, not a URL")
}

// With an admin token, administration and control calls without a world
// key need it (401 without); the API, calls with a key, pages and the
// health probe do not.
func TestAdminTokenProtectsAdministration(t *testing.T) {
	const token = "team-admin-token"
	srv := newServer(t, sandbox.WithAdminToken(token))
	admin := map[string]string{edge.AdminHeader: token}

	r := send(t, srv, http.MethodPost, "/_sandbox/worlds", "", "{}", nil)
	assert.Equal(t, http.StatusUnauthorized, r.status, "%s", r.body)
	requireEnvelope(t, r, apierr.Unauthorized, "", "")
	r = send(t, srv, http.MethodPost, "/_sandbox/worlds", "", "{}", map[string]string{edge.AdminHeader: token + "x"})
	assert.Equal(t, http.StatusUnauthorized, r.status)
	assert.Contains(t, string(r.body), "not valid")
	assert.Equal(t, float64(1), worldCount(t, srv), "no world was created")

	r = send(t, srv, http.MethodPost, "/_sandbox/worlds", "", "{}", admin)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	var w struct {
		APIKey string `json:"api_key"`
	}
	require.NoError(t, jsonUnmarshal(r.body, &w))
	key := map[string]string{"Authorization": "Basic " + basic(w.APIKey)}

	// A world's key reaches its world, but not its deletion or import.
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/clock", "", "", key).status)
	r = send(t, srv, http.MethodPut, "/_sandbox/state", "", "{}", key)
	assert.Equal(t, http.StatusUnauthorized, r.status)
	r = send(t, srv, http.MethodDelete, "/_sandbox/world", "", "", key)
	assert.Equal(t, http.StatusUnauthorized, r.status)
	both := map[string]string{"Authorization": key["Authorization"], edge.AdminHeader: token}
	r = send(t, srv, http.MethodDelete, "/_sandbox/world", "", "", both)
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)

	// Control calls without a key act on the default world: admin only.
	assert.Equal(t, http.StatusUnauthorized, send(t, srv, http.MethodGet, "/_sandbox/api_keys", "", "", nil).status)
	assert.Equal(t, http.StatusUnauthorized, send(t, srv, http.MethodPost, "/_sandbox/reset", "", "", nil).status)
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/api_keys", "", "", admin).status)
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/health", "", "", nil).status)
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/ready", "", "", nil).status, "a readiness probe cannot carry the token")
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/operations", "", "", nil).status, "the route table is the same for every world")
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status, "the API is unchanged")

	// The admin token is a credential for the host rule too.
	r = send(t, srv, http.MethodPost, "/_sandbox/worlds", "sandbox.internal", "{}", admin)
	assert.Equal(t, http.StatusCreated, r.status, "%s", r.body)
}

// The edge's idea of the control plane is the sandbox's.
func TestEdgeKnowsTheControlPrefix(t *testing.T) {
	assert.Equal(t, "/_sandbox", sandbox.ControlPrefix)
	srv := newServer(t)
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/health", "evil.example", "", nil).status)
	assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/_sandbox/ready", "10.1.2.3:8080", "", nil).status, "an orchestrator probes by the pod's address")
}
