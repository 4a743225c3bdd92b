package credentials_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestCachedCredentialsFollowEveryCommit: a credential's account is taken
// from the credential cache only while its world's database is unchanged;
// a change to the account, a reset and an import are seen by the next
// call, in both worlds of a server, and a cached key the reset removed is
// refused.
func TestCachedCredentialsFollowEveryCommit(t *testing.T) {
	srv := apitest.NewServer(t)
	other := srv.NewWorld()
	locale := func(key string) any {
		t.Helper()
		r := srv.DoAs(key, http.MethodGet, "/v3/account", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return r.Map()["account"].(map[string]any)["locale"]
	}
	setLocale := func(key, l string) {
		t.Helper()
		r := srv.DoAs(key, http.MethodPut, "/v3/account", map[string]any{"locale": l})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	first := locale(srv.APIKey)
	assert.Equal(t, first, locale(other.APIKey))

	setLocale(srv.APIKey, "fr-FR")
	assert.Equal(t, "fr-FR", locale(srv.APIKey), "the account as changed, not as cached")
	assert.Equal(t, first, locale(other.APIKey), "the other world is untouched")

	// A key the reset removes: the cached row must not outlive its database.
	r := srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": "cached-then-reset-key"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusOK, srv.DoAs("cached-then-reset-key", http.MethodGet, "/v3/account", nil).Status, "warm the cache")

	var exported map[string]any
	srv.Control(http.MethodGet, "/state", nil, &exported)
	srv.Control(http.MethodPost, "/reset", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs("cached-then-reset-key", http.MethodGet, "/v3/account", nil).Status,
		"a key the reset removed stops working, cached or not")
	assert.Equal(t, first, locale(srv.APIKey), "the account as reset")
	srv.Control(http.MethodPut, "/state", exported, nil)
	assert.Equal(t, "fr-FR", locale(srv.APIKey), "the account as imported")
}
