package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// persistedGets reads everything a client can read of the default world
// and of the world of key: the exact state export and the answers of the
// API and control plane.
func persistedGets(t *testing.T, srv *sandboxtest.Server, keys ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, key := range keys {
		for _, path := range []string{"/_sandbox/state", "/_sandbox/world", "/_sandbox/clock", "/_sandbox/callbacks",
			"/_sandbox/emails", "/_sandbox/config", "/v3/account", "/v3/api_app/list", "/v3/team"} {
			r := srv.DoAs(key, http.MethodGet, path, nil)
			out[key[:8]+" "+path] = string(rune(r.Status)) + string(r.Body)
		}
	}
	return out
}

func TestRestartOnTheSameDataDirAnswersEveryGetAsBefore(t *testing.T) {
	dir := t.TempDir()
	recv := sandboxtest.NewReceiver(t)
	recv.Fail()
	opts := []sandbox.Option{sandbox.WithDataDir(dir, "always"), sandbox.WithRandomCredentials()}
	var w sandboxtest.World
	var defKey string
	var before map[string]string
	t.Run("before", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		defKey = srv.APIKey
		w = srv.NewWorld()
		srv.NewWorld() // deleted below: it must stay deleted
		gone := srv.NewWorld()
		require.Equal(t, http.StatusOK, srv.DoAs(gone.APIKey, http.MethodDelete, "/_sandbox/world", nil).Status)
		r := srv.DoAs(w.APIKey, http.MethodPut, "/v3/account", map[string]any{"callback_url": recv.URL})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = srv.DoAs(w.APIKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "kept", "domains": []string{"kept.example.com"}})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		r = srv.DoAs(defKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "default's", "domains": []string{"d.example.com"}})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		r = srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "90s", "wait_callbacks": true})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = srv.DoAs(w.APIKey, http.MethodPatch, "/_sandbox/config", map[string]any{"rate_limit": map[string]any{"limit": 7}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.NotEmpty(t, recv.Deliveries(), "the callback was attempted and refused")
		before = persistedGets(t, srv, defKey, w.APIKey)
		assert.Equal(t, http.StatusUnauthorized, srv.DoAs(gone.APIKey, http.MethodGet, "/v3/account", nil).Status)
	})
	_, err := os.Stat(filepath.Join(dir, "worlds", w.WorldID, "world.json"))
	require.NoError(t, err)

	t.Run("after", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		after := persistedGets(t, srv, defKey, w.APIKey)
		for k, v := range before {
			assert.Equal(t, v, after[k], "%s answers as before the restart", k)
		}
		assert.Equal(t, http.StatusUnauthorized, srv.DoAs(srv.APIKey[:8]+"0", http.MethodGet, "/v3/account", nil).Status)
		third := srv.NewWorld()
		assert.Equal(t, "w4", third.WorldID, "world numbers go on where they were")

		// The refused callback is retried on its schedule after the restart.
		recv.Ack()
		r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "24h", "wait_callbacks": true})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = srv.DoAs(w.APIKey, http.MethodGet, "/_sandbox/callbacks", nil)
		assert.Contains(t, string(r.Body), `"delivered":true`, "the callback was delivered after the restart: %s", r.Body)
	})

	t.Run("without a data dir nothing is restored", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
		assert.Equal(t, http.StatusUnauthorized, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Status)
	})
}

func TestDataDirIsLockedAndOptionsChecked(t *testing.T) {
	dir := t.TempDir()
	s, err := sandbox.New(sandbox.WithDataDir(dir, ""))
	require.NoError(t, err)
	defer s.Close()
	_, err = sandbox.New(sandbox.WithDataDir(dir, ""))
	assert.ErrorContains(t, err, "another server")
	_, err = sandbox.New(sandbox.WithDataDir(t.TempDir(), "sometimes"))
	assert.Error(t, err)
}

// TestCallbacksThatFellDueWhileDownAreDelivered: the clock of the second
// start stands a day later than where the first stopped (the time the
// server was down); the callback retry that fell due meanwhile is made
// without anyone moving the clock.
func TestCallbacksThatFellDueWhileDownAreDelivered(t *testing.T) {
	dir := t.TempDir()
	recv := sandboxtest.NewReceiver(t)
	recv.Fail()
	t.Run("before", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, sandbox.WithDataDir(dir, "always"))
		r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": recv.URL})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		srv.WaitCallbacks()
		require.NotEmpty(t, recv.Deliveries(), "the first attempt was refused")
	})
	recv.Ack()
	refused := len(recv.Deliveries())
	clk := clockwork.NewFakeClockAt(sandboxtest.Start.Add(24 * time.Hour))
	srv := apitest.NewControlCheckedServer(t, sandbox.WithDataDir(dir, "always"), sandbox.WithClock(clk))
	require.Eventually(t, func() bool {
		r := srv.Do(http.MethodGet, "/_sandbox/callbacks", nil)
		return strings.Contains(string(r.Body), `"delivered":true`)
	}, 10*time.Second, 10*time.Millisecond, "the retry that fell due while the server was down is made on start")
	assert.Greater(t, len(recv.Deliveries()), refused)
	assert.Equal(t, sandboxtest.Start.Add(24*time.Hour), srv.Now(), "the clock did not move back")
}
