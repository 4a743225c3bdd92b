package control_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

type world struct {
	WorldID string `json:"world_id"`
	APIKey  string `json:"api_key"`
	Clock   string `json:"clock"`
	Now     int64  `json:"now"`
}

func newWorld(t *testing.T, srv *sandboxtest.Server, body map[string]any) world {
	t.Helper()
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", body)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var w world
	require.NoError(t, r.JSON(&w))
	require.NotEmpty(t, w.APIKey)
	return w
}

// TestWorldsAreApart: a new world starts at the time asked, has its own
// key and clock; advancing it leaves the default world where it was;
// deleting it makes its key unknown.
func TestWorldsAreApart(t *testing.T) {
	srv := apitest.NewServer(t)
	w := newWorld(t, srv, map[string]any{"clock": "fake", "time": "2030-06-01T12:00:00Z"})
	assert.Equal(t, time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC).Unix(), w.Now)

	r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "90m"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var clock struct {
		Now int64 `json:"now"`
	}
	require.NoError(t, srv.DoAs(w.APIKey, http.MethodGet, "/_sandbox/clock", nil).JSON(&clock))
	assert.Equal(t, w.Now+90*60, clock.Now)
	assert.Equal(t, sandboxtest.Start, srv.Now(), "the default world's clock did not move")

	r = srv.DoAs(w.APIKey, http.MethodDelete, "/_sandbox/world", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Status)

	e := apitest.ErrorOf(t, srv.Do(http.MethodDelete, "/_sandbox/world", nil))
	assert.Contains(t, e.Msg, "default world cannot be deleted")
}

// TestCreateWorldErrors name the parameter at fault.
func TestCreateWorldErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct {
		body map[string]any
		path string
	}{
		{map[string]any{"clock": "sundial"}, "clock"},
		{map[string]any{"clock": "fake", "time": "tomorrow"}, "time"},
		{map[string]any{"clock": "real", "time": "2030-01-01T00:00:00Z"}, "time"},
		{map[string]any{"seed": string(make([]byte, 201))}, "seed"},
		{map[string]any{"scenarios": []string{"no-such-scenario"}}, "scenarios[0]"},
	} {
		e := apitest.ErrorOf(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", tc.body))
		assert.Equal(t, tc.path, e.Path, "%v: %s", tc.body, e.Msg)
	}
}

// TestAPIKeys: keys are added, renamed, made primary and deleted (never
// the primary one), and a key in use is refused.
func TestAPIKeys(t *testing.T) {
	srv := apitest.NewServer(t)
	const key = "my-ci-key-0001"
	r := srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": key, "name": "CI"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusOK, srv.DoAs(key, http.MethodGet, "/v3/account", nil).Status, "the new key works")
	assert.Equal(t, http.StatusConflict, srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": key, "name": "again"}).Status)
	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": "a b", "name": "x"}))
	assert.Equal(t, "key", e.Path)

	r = srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+key, map[string]any{"name": "  Renamed "})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	e = apitest.ErrorOf(t, srv.Do(http.MethodPatch, "/_sandbox/api_keys/"+key, map[string]any{"name": " "}))
	assert.Equal(t, "name", e.Path)

	e = apitest.ErrorOf(t, srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+srv.APIKey, nil))
	assert.Equal(t, "key", e.Path, "the primary key stays: %s", e.Msg)
	r = srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+key, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs(key, http.MethodGet, "/v3/account", nil).Status)
}

// TestStateRoundTrip: a world's export imports back byte for byte, and a
// document that is not one is refused naming what is wrong.
func TestStateRoundTrip(t *testing.T) {
	srv := apitest.NewServer(t)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "fr-FR"}).Status)
	before := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, before.Status, "%s", before.Body)

	w := newWorld(t, srv, map[string]any{})
	require.Equal(t, http.StatusOK, srv.DoAs(w.APIKey, http.MethodDelete, "/_sandbox/world", nil).Status)
	r := srv.Do(http.MethodPost, "/_sandbox/reset", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodPut, "/_sandbox/state", rawJSON(before.Body))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	after := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(before.Body), string(after.Body))

	e := apitest.ErrorOf(t, srv.Do(http.MethodPut, "/_sandbox/state", map[string]any{"format": "other/9", "tables": map[string]any{}}))
	assert.Equal(t, "format", e.Path)
	after = srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(before.Body), string(after.Body), "a refused import changes nothing")
}

// rawJSON is a body sent as is.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
