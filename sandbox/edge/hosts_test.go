package edge

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostSetAllows(t *testing.T) {
	s := newHostSet(Config{BaseURL: "https://Sign.Example.com:8443/prefix", AllowedHosts: []string{"sandbox.internal", " 10.0.0.5 ", "[fd00::1]"}})
	for _, h := range []string{"", "localhost", "LOCALHOST", "localhost.", "app.localhost", "127.0.0.1", "127.8.9.1", "::1", "sign.example.com", "SIGN.example.com.", "sandbox.internal", "10.0.0.5", "fd00::1"} {
		assert.True(t, s.allows(h), h)
	}
	for _, h := range []string{"evil.example", "localhost.evil.example", "127.0.0.1.evil.example", "0.0.0.0", "10.0.0.6", "example.com", "sign.example.com.evil"} {
		assert.False(t, s.allows(h), h)
	}
}

func TestCheckAllowedHost(t *testing.T) {
	for _, h := range []string{"sandbox.internal", "10.0.0.5", "::1", "[::1]"} {
		assert.NoError(t, CheckAllowedHost(h), h)
	}
	for _, h := range []string{"", "http://sandbox.internal", "sandbox.internal:8080", "a b", "sandbox.internal/x", "user@host"} {
		assert.Error(t, CheckAllowedHost(h), h)
	}
}

// The three rules of hosts.go, one request each.
func TestHostRules(t *testing.T) {
	s := newHostSet(Config{AllowedHosts: []string{"sandbox.internal"}})
	req := func(method, host, path string, hdr map[string]string) *http.Request {
		r := httptest.NewRequest(method, path, nil)
		r.Host = host
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		return r
	}
	auth := map[string]string{"Authorization": "Basic a2V5Og=="}
	for _, tc := range []struct {
		name    string
		r       *http.Request
		admin   bool
		refused bool
	}{
		{"loopback control", req("GET", "127.0.0.1:8080", "/_sandbox/state", nil), false, false},
		{"rebinding control", req("GET", "evil.example:8080", "/_sandbox/state", nil), false, true},
		{"rebinding page", req("GET", "evil.example:8080", "/_sandbox/w/default/sign/tok", nil), false, true},
		{"rebinding health", req("GET", "evil.example:8080", "/_sandbox/health", nil), false, false},
		{"foreign host with a key", req("GET", "sandbox-svc:8080", "/_sandbox/state", auth), false, false},
		{"foreign host with the admin token", req("POST", "sandbox-svc:8080", "/_sandbox/worlds", nil), true, false},
		{"foreign host API without credentials (the API answers 401)", req("GET", "sandbox-svc:8080", "/v3/account", nil), false, false},
		{"allowed host", req("GET", "sandbox.internal", "/_sandbox/state", nil), false, false},
		{"rebinding browser with a key", req("GET", "evil.example:8080", "/_sandbox/state", map[string]string{"Authorization": "Basic a2V5Og==", "Sec-Fetch-Site": "same-origin"}), false, true},
		{"rebinding browser API", req("GET", "evil.example:8080", "/v3/account", map[string]string{"Origin": "http://evil.example:8080"}), false, true},
		{"cross-site form post", req("POST", "127.0.0.1:8080", "/_sandbox/reset", map[string]string{"Origin": "http://evil.example"}), false, true},
		{"opaque origin post", req("POST", "127.0.0.1:8080", "/_sandbox/reset", map[string]string{"Origin": "null"}), false, true},
		{"sec-fetch-site cross-site post", req("POST", "127.0.0.1:8080", "/_sandbox/clock/advance", map[string]string{"Sec-Fetch-Site": "cross-site"}), false, true},
		{"cross-site post to the API", req("POST", "127.0.0.1:8080", "/v3/oauth/token", map[string]string{"Origin": "https://evil.example"}), false, true},
		{"cross-site GET link", req("GET", "127.0.0.1:8080", "/_sandbox/w/default/sign/tok", map[string]string{"Sec-Fetch-Site": "cross-site"}), false, false},
		{"same-origin page post", req("POST", "127.0.0.1:8080", "/_sandbox/w/default/sign/tok", map[string]string{"Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-origin"}), false, false},
		{"local app post", req("POST", "localhost:8080", "/_sandbox/reset", map[string]string{"Origin": "http://localhost:3000", "Sec-Fetch-Site": "same-site"}), false, false},
		{"cross-site post with a key", req("POST", "127.0.0.1:8080", "/_sandbox/reset", map[string]string{"Origin": "http://evil.example", "Authorization": "Basic a2V5Og=="}), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := s.check(tc.r, tc.admin)
			if !tc.refused {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, http.StatusForbidden, e.Status())
		})
	}
}

func TestAdminToken(t *testing.T) {
	a := newAdminToken("s3cret")
	r := func(method, path string, hdr map[string]string) *http.Request {
		req := httptest.NewRequest(method, path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		return req
	}
	good := map[string]string{AdminHeader: "s3cret"}
	bad := map[string]string{AdminHeader: "s3cret2"}
	key := map[string]string{"Authorization": "Basic a2V5Og=="}
	assert.True(t, a.presented(r("POST", "/_sandbox/worlds", good)))
	assert.False(t, a.presented(r("POST", "/_sandbox/worlds", bad)))
	assert.False(t, newAdminToken("").presented(r("POST", "/_sandbox/worlds", map[string]string{AdminHeader: ""})))

	for _, tc := range []struct {
		r      *http.Request
		needed bool
	}{
		{r("POST", "/_sandbox/worlds", nil), true},
		{r("DELETE", "/_sandbox/world", key), true},
		{r("PUT", "/_sandbox/state", key), true},
		{r("GET", "/_sandbox/state", key), false},
		{r("POST", "/_sandbox/clock/advance", key), false},
		{r("POST", "/_sandbox/clock/advance", nil), true},
		{r("GET", "/_sandbox/api_keys", nil), true},
		{r("GET", "/_sandbox/health", nil), false},
		{r("GET", "/_sandbox/ready", nil), false},
		{r("GET", "/_sandbox/operations", nil), false},
		{r("GET", "/_sandbox/w/default/sign/tok", nil), false},
		{r("GET", "/v3/account", nil), false},
	} {
		assert.Equal(t, tc.needed, needed(tc.r), "%s %s", tc.r.Method, tc.r.URL.Path)
		e := a.check(tc.r, false)
		assert.Equal(t, tc.needed, e != nil)
		if e != nil {
			assert.Equal(t, http.StatusUnauthorized, e.Status())
		}
		assert.Nil(t, a.check(tc.r, true), "the token opens every call")
		assert.Nil(t, newAdminToken("").check(tc.r, false), "without a token nothing changes")
	}
	e := a.check(r("POST", "/_sandbox/worlds", bad), false)
	require.NotNil(t, e)
	assert.Contains(t, e.Msg, "not valid")
}
