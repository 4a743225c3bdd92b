package recording_test

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
)

// wallClock is a clock the world treats as real (its time moves by
// itself, it cannot be advanced through the control plane) but that the
// test moves, so that "three seconds of wall time pass" takes no time.
type wallClock struct{ clockwork.Clock }

// A real-clock recording replays: time that passed by itself before a
// control call (here a signer viewing the request three seconds after it
// was sent) is recorded as an advance step in front of that call, as it is
// for API calls, so the replay's answer carries the same timestamps. Every
// call of a recorded world whose time flows has an instant of its own
// (the send, on a clock that has not moved since the recording started,
// one nanosecond after the start), so every call follows an advance.
func TestRealClockRecordingOfControlCallsReplays(t *testing.T) {
	fake := clockwork.NewFakeClockAt(time.Date(2025, time.March, 3, 9, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "wall.yaml")
	srv := apitest.ScenarioServer(t, sandbox.WithClock(wallClock{fake}), sandbox.WithOfflineFiles(), sandbox.WithRecording(path))
	_, sigs := apitest.QuickSend(t, srv, srv.APIKey, "Wall time", "a@example.com")
	fake.Advance(3 * time.Second)
	r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[0]+"/view", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	fake.Advance(2 * time.Second)
	r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[0]+"/sign", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assertNoCredentials(t, doc, worldCredentials(t, srv, srv.APIKey)...)
	assert.Equal(t, 3, strings.Count(string(doc), "advance:"), "one advance before each call")
	assert.Contains(t, string(doc), "to: \"2025-03-03T09:00:00.000000001Z\"", "the send, a nanosecond after the start")
	assert.Contains(t, string(doc), "to: \"2025-03-03T09:00:03Z\"", "the view, three seconds later")
	assert.Contains(t, string(doc), "to: \"2025-03-03T09:00:05Z\"", "the signature, two more")
	res := runDoc(t, "wall.yaml", doc)
	assert.True(t, res.OK(), "%+v", res)
	assert.Equal(t, 6, res.Steps)
}

// POST /_sandbox/clock/pin pins a world whose time flows: each answer then
// carries its call's instant, a later call's after an earlier one's;
// DELETE undoes the pin. A fake clock the world owns needs none.
func TestClockPinMarksEachCallsInstant(t *testing.T) {
	fake := clockwork.NewFakeClockAt(time.Date(2025, time.March, 3, 9, 0, 0, 0, time.UTC))
	srv := apitest.ScenarioServer(t, sandbox.WithClock(wallClock{fake}))
	var pin struct {
		Pinned  bool   `json:"pinned"`
		Instant string `json:"instant"`
	}
	srv.Control(http.MethodPost, "/clock/pin", nil, &pin)
	assert.True(t, pin.Pinned)
	assert.Equal(t, "2025-03-03T09:00:00Z", pin.Instant)
	first := srv.Do(http.MethodGet, "/v3/account", nil).Header.Get("X-Signsandbox-Instant")
	assert.Equal(t, "2025-03-03T09:00:00.000000001Z", first, "after the pin's instant")
	fake.Advance(1500 * time.Millisecond)
	assert.Equal(t, "2025-03-03T09:00:01.5Z", srv.Do(http.MethodGet, "/v3/account", nil).Header.Get("X-Signsandbox-Instant"))
	srv.Control(http.MethodDelete, "/clock/pin", nil, &pin)
	assert.False(t, pin.Pinned)
	assert.Empty(t, srv.Do(http.MethodGet, "/v3/account", nil).Header.Get("X-Signsandbox-Instant"))
	srv.Control(http.MethodDelete, "/clock/pin", nil, &pin)
	assert.False(t, pin.Pinned, "an unmatched DELETE changes nothing")

	owned := apitest.ScenarioServer(t)
	owned.Control(http.MethodPost, "/clock/pin", nil, &pin)
	assert.False(t, pin.Pinned, "a fake clock is discrete already")
	assert.Empty(t, owned.Do(http.MethodGet, "/v3/account", nil).Header.Get("X-Signsandbox-Instant"))
}
