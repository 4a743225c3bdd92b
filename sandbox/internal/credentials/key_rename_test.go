package credentials_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// Keys can be generated, renamed, deleted and made primary (the seed
// specification's rule 6): PATCH /_sandbox/api_keys/{key} renames one,
// and nothing else about it changes.
func TestAPIKeyRename(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"name": "CI"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	second := apitest.APIKeys(t, srv, srv.APIKey)[1]

	r = srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+second.Key, map[string]any{"name": "  Deploys  "})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	keys := apitest.APIKeys(t, srv, srv.APIKey)
	require.Len(t, keys, 2)
	assert.Equal(t, "Deploys", keys[1].Name, "trimmed")
	assert.Equal(t, second.Key, keys[1].Key)
	assert.Equal(t, second.CreatedAt, keys[1].CreatedAt)
	assert.False(t, keys[1].Primary)
	assert.Equal(t, srv.APIKey, apitest.PrimaryKey(keys), "the primary key stays primary")
	assert.Equal(t, http.StatusOK, srv.DoAs(second.Key, http.MethodGet, "/v3/account", nil).Status, "the key still works")

	// The primary key can be renamed too.
	r = srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+srv.APIKey, map[string]any{"name": "Main"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "Main", apitest.APIKeys(t, srv, srv.APIKey)[0].Name)

	other := srv.NewWorld()
	for _, tc := range []struct {
		name   string
		key    string
		body   map[string]any
		status int
		path   string
	}{
		{"no name", second.Key, map[string]any{}, 400, "name"},
		{"blank name", second.Key, map[string]any{"name": " \t"}, 400, "name"},
		{"name too long", second.Key, map[string]any{"name": strings.Repeat("é", 256)}, 400, "name"},
		{"name not a string", second.Key, map[string]any{"name": map[string]any{"a": 1}}, 400, "name"},
		{"unknown parameter", second.Key, map[string]any{"name": "x", "primary": true}, 400, "primary"},
		{"unknown key", "no-such-key", map[string]any{"name": "x"}, 404, ""},
		{"another world's key", other.APIKey, map[string]any{"name": "x"}, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+tc.key, tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			if tc.path != "" {
				_, _, p := apitest.ErrorParts(t, r.Body)
				assert.Equal(t, tc.path, p)
			}
		})
	}
	assert.Equal(t, "Deploys", apitest.APIKeys(t, srv, srv.APIKey)[1].Name, "nothing refused changed the name")
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"name": strings.Repeat("x", 256)})
	require.Equal(t, http.StatusBadRequest, r.Status, "a new key's name has the same bounds: %s", r.Body)

	// Export and import carry the name.
	state := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, state.Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/_sandbox/reset", nil).Status)
	assert.NotEqual(t, "Main", apitest.APIKeys(t, srv, srv.APIKey)[0].Name, "reset to the fixtures")
	req, err := http.NewRequest(http.MethodPut, srv.URL+"/_sandbox/state", bytes.NewReader(state.Body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(srv.APIKey, "")
	r = srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	keys = apitest.APIKeys(t, srv, srv.APIKey)
	assert.Equal(t, []string{"Main", "Deploys"}, []string{keys[0].Name, keys[1].Name})
}

// A rename goes into the data directory's journal: a restart finds it.
func TestAPIKeyRenameSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	opts := []sandbox.Option{sandbox.WithDataDir(dir, "always"), sandbox.WithRandomCredentials()}
	var key string
	t.Run("before", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		key = srv.APIKey
		r := srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+key, map[string]any{"name": "Renamed before the restart"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	})
	t.Run("after", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		require.Equal(t, key, srv.APIKey)
		assert.Equal(t, "Renamed before the restart", apitest.APIKeys(t, srv, key)[0].Name)
	})
}
