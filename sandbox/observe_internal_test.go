package sandbox

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// tickClock is a clock that moves a millisecond each time it is read, so
// that every observed call lasts exactly one millisecond.
type tickClock struct {
	clockwork.Clock
	mu  sync.Mutex
	now time.Time
}

func (k *tickClock) Now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.now = k.now.Add(time.Millisecond)
	return k.now
}

func (k *tickClock) Since(t time.Time) time.Duration { return k.Now().Sub(t) }

// withCallLog observes every call of the sandbox into a slice.
func withCallLog(log *[]api.CallRecord) Option {
	var mu sync.Mutex
	return withRegistry(func(r *api.Registry) {
		r.ObserveCalls(func(rec api.CallRecord) {
			mu.Lock()
			defer mu.Unlock()
			*log = append(*log, rec)
		})
		r.CallClock = &tickClock{Clock: clockwork.NewFakeClockAt(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))}
	})
}

// TestCallObserverSeesEveryCall: the one call observer sees API and control
// calls, refused ones included, with their operation, world, status and
// duration, in the order they were answered.
func TestCallObserverSeesEveryCall(t *testing.T) {
	var log []api.CallRecord
	s := optSandbox(t, withCallLog(&log))
	key := s.DefaultAPIKey()

	require.Equal(t, http.StatusOK, optDo(t, s, key, http.MethodGet, "/v3/account", "").Code)
	require.Equal(t, http.StatusUnauthorized, optDo(t, s, "not-a-key", http.MethodGet, "/v3/account", "").Code)
	require.Equal(t, http.StatusNotFound, optDo(t, s, key, http.MethodGet, "/v3/signature_request/0000", "").Code)
	require.Equal(t, http.StatusOK, optDo(t, s, key, http.MethodPost, "/_sandbox/clock/advance", `{"seconds":60}`).Code)
	require.Equal(t, http.StatusOK, optDo(t, s, "", http.MethodGet, "/_sandbox/health", "").Code)

	ms := time.Millisecond
	assert.Equal(t, []api.CallRecord{
		{Operation: "accountGet", World: "default", Status: http.StatusOK, Duration: ms},
		{Operation: "accountGet", Status: http.StatusUnauthorized, Duration: ms},
		{Operation: "signatureRequestGet", World: "default", Status: http.StatusNotFound, Duration: ms},
		{Operation: "POST /_sandbox/clock/advance", Control: true, World: "default", Status: http.StatusOK, Duration: ms},
		{Operation: "GET /_sandbox/health", Control: true, Status: http.StatusOK, Duration: ms},
	}, log)
}

// TestNoCallObserverNoClock: without observers a call reads no clock (the
// hot path stays as it was).
func TestNoCallObserverNoClock(t *testing.T) {
	s := optSandbox(t)
	assert.Empty(t, s.host.Reg().CallObservers)
	assert.True(t, s.host.CallStart().IsZero())
}

// TestCommitObserverThroughWorldStart: a journal wired at world start sees
// the rows an API call commits, in the world the call reached.
func TestCommitObserverThroughWorldStart(t *testing.T) {
	var mu sync.Mutex
	var tables []string
	s := optSandbox(t, withRegistry(func(r *api.Registry) {
		r.OnWorldStart(func(_ *api.Host, w *world.World) {
			w.Store.SetCommitObserver(func(c state.Commit) {
				mu.Lock()
				defer mu.Unlock()
				for _, ch := range c.Changes {
					tables = append(tables, w.ID+"/"+ch.Table)
				}
			})
		})
	}))
	rec := optDo(t, s, s.DefaultAPIKey(), http.MethodPut, "/v3/account", `{"locale":"fr-FR"}`)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, tables, "default/"+state.TableAccounts)
}
