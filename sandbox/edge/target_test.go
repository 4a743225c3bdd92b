package edge

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// Paths that are not one resource's path name nothing (404); targets that
// are not paths at all are bad requests (400); plain paths pass, encoded
// characters other than "/" included; paths with empty segments are
// redirected to the same segments without them.
func TestCheckTarget(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   apierr.Name // "" passes
	}{
		{"/v3/account", ""},
		{"/v3/account/", ""},
		{"/", ""},
		{"/v3/template/abc%20def", ""},
		{"/_sandbox/scenarios/my%20scenario", ""},
		{"/v3/account?x=../..", ""},
		{"http://127.0.0.1/v3/account", ""},
		{"/v3/template/..%2F..%2Fv3%2Faccount", apierr.NotFound},
		{"/v3/template/a%2fb", apierr.NotFound},
		{"/v3/template/files%2Fabc", apierr.NotFound},
		{"/v3/template/..", apierr.NotFound},
		{"/v3/template/.", apierr.NotFound},
		{"/v3/template/%2e%2e", apierr.NotFound},
		{"/v3/template/%2E.", apierr.NotFound},
		{"/v3/../v3/account", apierr.NotFound},
		{"/v3/./account", apierr.NotFound},
		{"/v3//../account", apierr.NotFound},
		{"/v3//a%2Fb", apierr.NotFound},
		{"*", apierr.BadRequest},
		{"ftp://127.0.0.1/v3/account", apierr.BadRequest},
	} {
		t.Run(tc.target, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, tc.target, nil)
			e, redirect := checkTarget(r)
			assert.Empty(t, redirect)
			if tc.want == "" {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, tc.want, e.Name)
		})
	}
	// Targets httptest cannot build: authority form (CONNECT) and opaque.
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RequestURI, r.URL.Path, r.URL.Host = "127.0.0.1:443", "", "127.0.0.1:443"
	e, _ := checkTarget(r)
	require.NotNil(t, e)
	r = httptest.NewRequest(http.MethodGet, "/", nil)
	r.RequestURI, r.URL.Path, r.URL.Opaque = "http:v3", "", "v3"
	e, _ = checkTarget(r)
	require.NotNil(t, e)
	// A refused target is repeated only in part.
	long := "/v3/template/..%2F" + strings.Repeat("a", 5000)
	e, _ = checkTarget(httptest.NewRequest(http.MethodGet, long, nil))
	require.NotNil(t, e)
	assert.Less(t, len(e.Msg), 600)

	for target, want := range map[string]string{
		"//v3/account":                "/v3/account",
		"/v3//account":                "/v3/account",
		"/v3/bulk_send_job//abc":      "/v3/bulk_send_job/abc",
		"/v3/account//":               "/v3/account/",
		"//":                          "/",
		"/v3//template/a%20b?x=1&y=2": "/v3/template/a%20b?x=1&y=2",
	} {
		e, redirect := checkTarget(httptest.NewRequest(http.MethodGet, target, nil))
		assert.Nil(t, e, target)
		assert.Equal(t, want, redirect, target)
	}
}

// A head over MaxHeaderBytes answers 431 in the envelope; one just under
// passes.
func TestCheckHeaderSize(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/v3/account", nil)
	r.Header.Set("X-Pad", strings.Repeat("a", MaxHeaderBytes-200))
	assert.Nil(t, checkHeaderSize(r))
	r.Header.Set("Authorization", "Basic "+strings.Repeat("a", 300))
	e := checkHeaderSize(r)
	require.NotNil(t, e)
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, e.Status())
	assert.Equal(t, apierr.BadRequest, e.Name)
	assert.Contains(t, e.Msg, "65536")
}
