package recording_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
	"github.com/signsandbox/signsandbox/scenarios"
)

// realLikeClock is a clock whose time moves by itself, as a real one does:
// every reading moves it on by an irregular step below a quarter of a
// second (a fixed pseudo-random sequence), so that calls, jobs and their
// timestamps fall anywhere within a second, and the test moves it by whole
// spans as wall time passing. The world treats it as a real clock (it is
// not a *clockwork.FakeClock): the control plane cannot advance it, and
// its jobs run by themselves when their timers fire. Which goroutine reads
// it when is up to the scheduler, so no two runs see the same instants;
// the recording must replay whatever they were.
type realLikeClock struct {
	*clockwork.FakeClock
	mu    sync.Mutex
	state uint64
}

func newRealLikeClock(start time.Time, seed uint64) *realLikeClock {
	return &realLikeClock{FakeClock: clockwork.NewFakeClockAt(start), state: seed}
}

// Now moves the clock on by the next step and reads it.
func (c *realLikeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = c.state*6364136223846793005 + 1442695040888963407
	c.FakeClock.Advance(time.Duration(1 + (c.state>>17)%uint64(250*time.Millisecond)))
	return c.FakeClock.Now()
}

func (c *realLikeClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
func (c *realLikeClock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// Pass lets d of wall time pass.
func (c *realLikeClock) Pass(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.FakeClock.Advance(d)
}

// subSecondAdvance is an advance step of a recording to an instant with a
// fraction of a second.
var subSecondAdvance = regexp.MustCompile(`to: "?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z`)

// Every ready scenario's flow, recorded in a world whose clock moves by
// itself, replays byte for byte: each step of the replay answers the
// recorded status and exactly the recorded bytes. The flows run their
// steps on the recorded world as a client would (their advance steps are
// wall time passing), against a callback receiver that outlives the
// recording, so that the replay's deliveries meet the same answers. They
// are recorded twice: by the world itself (--record), and by the
// recording proxy in front of it, which pins the world's time while it
// records and notes each call's instant from its answer.
func TestRealClockRecordingsOfEveryReadyScenarioReplayByteForByte(t *testing.T) {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "Hello API Event Received")
	}))
	t.Cleanup(receiver.Close)
	for i, name := range scenarios.Names() {
		data, err := scenarios.Read(name)
		require.NoError(t, err)
		start := time.Date(2025, time.June, 2, 8, 59, 59, 400_000_000, time.UTC)
		t.Run(name, func(t *testing.T) {
			clock := newRealLikeClock(start, uint64(i+1))
			path := filepath.Join(t.TempDir(), name+".yaml")
			srv := apitest.ScenarioServer(t, sandbox.WithClock(clock), sandbox.WithScenario(name, data), sandbox.WithRecording(path))
			runFlow(t, srv.URL, srv.APIKey, name, data, clock, receiver.URL)
			doc, err := os.ReadFile(path)
			require.NoError(t, err)
			checkRealClockRecording(t, srv, name, doc)
		})
		t.Run(name+"/proxy", func(t *testing.T) {
			clock := newRealLikeClock(start, uint64(100+i))
			upstream := apitest.ScenarioServer(t, sandbox.WithClock(clock), sandbox.WithScenario(name, data))
			path := filepath.Join(t.TempDir(), name+".yaml")
			proxy, err := sandbox.NewRecordingProxy(upstream.URL, path, nil)
			require.NoError(t, err)
			ps := httptest.NewServer(proxy)
			t.Cleanup(ps.Close)
			runFlow(t, ps.URL, upstream.APIKey, name, data, clock, receiver.URL)
			require.NoError(t, proxy.Close())
			require.NoError(t, proxy.Err())
			r := upstream.Do(http.MethodGet, "/v3/account", nil)
			assert.Empty(t, r.Header.Get("X-Signsandbox-Instant"), "the proxy's pin is undone")
			doc, err := os.ReadFile(path)
			require.NoError(t, err)
			checkRealClockRecording(t, upstream, name, doc)
		})
	}
}

// runFlow runs a scenario's steps on the world of key at base; they must
// pass there.
func runFlow(t *testing.T, base, key, name string, data []byte, clock *realLikeClock, receiver string) {
	t.Helper()
	var out strings.Builder
	failed, steps, err := apitest.StepsInWorld(base, key, name+".yaml", data, clock.Pass, receiver+"/callback", &out)
	require.NoError(t, err)
	require.Empty(t, failed, "the flow itself, on the recorded world:\n%s", out.String())
	require.Positive(t, steps)
}

// checkRealClockRecording checks a recording of srv's world on its clock
// that moves by itself: it holds no credential of the world, and it
// replays byte for byte.
func checkRealClockRecording(t *testing.T, srv *sandboxtest.Server, name string, doc []byte) {
	t.Helper()
	assert.Contains(t, string(doc), "mode: real", "the recording is of a real clock")
	assert.Regexp(t, subSecondAdvance, string(doc), "calls happen at instants with fractions of a second")
	assertNoCredentials(t, doc, worldCredentials(t, srv, srv.APIKey)...)
	res := runDoc(t, name+".yaml", doc)
	require.True(t, res.OK(), "%+v", res)
	assert.Equal(t, strings.Count(string(doc), "\n  - request: ")+strings.Count(string(doc), "\n  - advance:"), res.Steps)
}
