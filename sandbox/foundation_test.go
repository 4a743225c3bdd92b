package sandbox_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestAccountGetWithDefaultKey(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	acct := r.Map()["account"].(map[string]any)
	assert.Equal(t, "owner@sandbox.example", acct["email_address"])
	assert.Len(t, acct["account_id"], 40)
	quotas := acct["quotas"].(map[string]any)
	assert.EqualValues(t, 1000, quotas["api_signature_requests_left"])
	assert.Nil(t, quotas["documents_left"], "unlimited quotas are null")
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-Ratelimit-Reset"} {
		assert.NotEmpty(t, r.Header.Get(h), h)
	}
}

func TestAuthenticationFailures(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name, header string
	}{
		{"missing", ""},
		{"unknown key", "Basic " + base64.StdEncoding.EncodeToString([]byte("nope:"))},
		{"not base64", "Basic !!!"},
		{"empty user", "Basic " + base64.StdEncoding.EncodeToString([]byte(":"))},
		{"other scheme", "Digest abc"},
		{"unknown token", "Bearer abc"},
		{"empty bearer", "Bearer "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v3/account", nil)
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			} else {
				req.Header.Set("X-Sandboxtest-No-Auth", "1")
			}
			r := srv.Send(req)
			assert.Equal(t, http.StatusUnauthorized, r.Status)
			name, msg, _ := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, "unauthorized", name)
			assert.True(t, strings.HasPrefix(msg, "Unauthorized user."), msg)
		})
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/nothing/here", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "not_found", name)

	r = srv.Do(http.MethodDelete, "/v3/account", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, r.Status)
	name, _, _ = apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "method_not_supported", name)
}

func TestAccountUpdateValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "en-us"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	name, _, path := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "bad_request", name)
	assert.Equal(t, "locale", path)

	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": "ftp://example.com/x"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, path = apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "callback_url", path)

	r = srv.Do(http.MethodPut, "/v3/account", `{"locale": `)
	assert.Equal(t, http.StatusBadRequest, r.Status)

	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "fr-FR"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "fr-FR", r.Map()["account"].(map[string]any)["locale"])
}

func TestAccountGetByEmailAndVerify(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/account?email_address=TEAMMATE@sandbox.example", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "teammate@sandbox.example", r.Map()["account"].(map[string]any)["email_address"])

	r = srv.Do(http.MethodGet, "/v3/account?email_address=nobody@example.com", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)

	r = srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "nobody@example.com"})
	require.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{}`, string(r.Body))

	r = srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "owner@sandbox.example"})
	require.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{"account":{"email_address":"owner@sandbox.example"}}`, string(r.Body))

	r = srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "new@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "NEW@example.com"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
}

func TestWorldsAreIsolated(t *testing.T) {
	srv := apitest.NewServer(t)
	w1 := srv.NewWorld()
	w2 := srv.NewWorld()
	require.NotEqual(t, w1.APIKey, w2.APIKey)
	require.NotEqual(t, srv.APIKey, w1.APIKey)

	r := srv.DoAs(w1.APIKey, http.MethodPut, "/v3/account", map[string]any{"locale": "de-DE"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.DoAs(w2.APIKey, http.MethodGet, "/v3/account", nil)
	assert.Equal(t, "en-US", r.Map()["account"].(map[string]any)["locale"])
	r = srv.DoAs(w1.APIKey, http.MethodGet, "/v3/account", nil)
	assert.Equal(t, "de-DE", r.Map()["account"].(map[string]any)["locale"])

	r = srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "sundial"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
}

func TestClockAdvance(t *testing.T) {
	srv := apitest.NewServer(t)
	start := srv.Now()
	srv.Advance(90 * time.Minute)
	assert.Equal(t, start.Add(90*time.Minute), srv.Now())

	r := srv.Do(http.MethodPost, "/_sandbox/clock/advance", map[string]any{"seconds": -1})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "soon"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
}

func TestStateRoundTripIsExact(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "ja-JP"})
	srv.Advance(time.Hour)
	first := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, first.Status)

	srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "ko-KR"})
	r := srv.Do(http.MethodPut, "/_sandbox/state", first.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	second := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(first.Body), string(second.Body))

	r = srv.Do(http.MethodPut, "/_sandbox/state", `{"format":"signsandbox-state/1","clock":{"now":"2025-01-01T00:00:00Z"},"tables":{"nope":[]}}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	// The failed import changed nothing.
	third := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(first.Body), string(third.Body))
}

func TestRateLimitEnforcement(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Control(http.MethodPatch, "/config", map[string]any{"rate_limit": map[string]any{"enforce": true, "limit": 3, "window": "1m"}}, nil)
	for i := 0; i < 3; i++ {
		r := srv.Do(http.MethodGet, "/v3/account", nil)
		require.Equal(t, http.StatusOK, r.Status)
		assert.Equal(t, "3", r.Header.Get("X-RateLimit-Limit"))
		assert.Equal(t, itoa(2-i), r.Header.Get("X-RateLimit-Remaining"))
	}
	r := srv.Do(http.MethodGet, "/v3/account", nil)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "exceeded_rate", name)
	srv.Advance(time.Minute)
	r = srv.Do(http.MethodGet, "/v3/account", nil)
	assert.Equal(t, http.StatusOK, r.Status)
}
