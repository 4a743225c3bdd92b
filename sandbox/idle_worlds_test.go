package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// A world created at run time that no call reaches for the idle time is
// freed: its key answers 401 as after DELETE /_sandbox/world. Calls keep a
// world alive, and the default world is never freed.
func TestIdleWorldsAreFreed(t *testing.T) {
	wall := clockwork.NewFakeClockAt(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := apitest.NewServer(t, sandbox.WithIdleWorldTTL(time.Hour, wall))
	keptWorld, freedWorld := srv.NewWorld(), srv.NewWorld()
	kept, freed := keptWorld.APIKey, freedWorld.APIKey
	status := func(key string) int {
		return srv.DoAs(key, http.MethodGet, "/v3/account", nil).Status
	}
	// listed asks the world list (a call of no world) whether a world is
	// still there: a call with the world's own key would touch it, and a
	// poll that touched it would keep it alive while the janitor is slow.
	listed := func(id string) bool {
		r := srv.DoAs("", http.MethodGet, "/_sandbox/worlds", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return strings.Contains(string(r.Body), `"`+id+`"`)
	}
	// advance moves the wall clock once the janitor waits on its ticker,
	// then lets it sweep.
	advance := func(d time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		require.NoError(t, wall.BlockUntilContext(ctx, 1))
		wall.Advance(d)
	}
	for range 3 { // 45 minutes: both are within the hour
		advance(15 * time.Minute)
	}
	require.Equal(t, http.StatusOK, status(kept))
	for range 2 { // 30 more: the unused one is idle past the hour
		advance(15 * time.Minute)
	}
	require.Eventually(t, func() bool { return !listed(freedWorld.WorldID) }, 60*time.Second, 10*time.Millisecond,
		"the world nobody called for an hour is freed")
	assert.Equal(t, http.StatusUnauthorized, status(freed), "a freed world's key answers 401")
	assert.Equal(t, http.StatusOK, status(kept), "a world called 30 minutes ago stays")
	assert.Equal(t, http.StatusOK, status(srv.APIKey), "the default world is never freed")
}
