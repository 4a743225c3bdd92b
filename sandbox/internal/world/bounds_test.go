package world

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// TestAdvanceStopsAtMaxInstant: the clock reaches MaxInstant exactly and
// refuses to pass it, naming the limit, without moving.
func TestAdvanceStopsAtMaxInstant(t *testing.T) {
	w := newTestWorld(t, Options{Mode: ClockFake, Start: MaxInstant.Add(-time.Hour)})
	_, err := w.Advance(time.Hour + time.Nanosecond)
	require.ErrorContains(t, err, "2200-01-01T00:00:00Z, the last instant")
	assert.Equal(t, MaxInstant.Add(-time.Hour), w.Now())
	_, err = w.Advance(time.Hour)
	require.NoError(t, err)
	assert.Equal(t, MaxInstant, w.Now())
}

func TestClockRangeOnCreateAndImport(t *testing.T) {
	_, err := New(Options{Mode: ClockFake, Start: time.Date(10000, 1, 1, 1, 0, 0, 0, time.UTC)})
	require.ErrorContains(t, err, "the last instant")
	_, err = New(Options{Mode: ClockFake, Start: time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)})
	require.ErrorContains(t, err, "the earliest instant")

	w := newTestWorld(t, Options{Mode: ClockFake})
	before := w.Now()
	db, err := state.NewDB()
	require.NoError(t, err)
	require.ErrorContains(t, w.Import(db, "banana", before), `clock.mode must be "fake" or "real", not "banana"`)
	require.ErrorContains(t, w.Import(db, ClockFake, MaxInstant.Add(time.Second)), "clock.now")
	assert.Equal(t, before, w.Now())
	assert.True(t, w.KnownJob("test") == (w.jobs.get("test") != nil))
	assert.False(t, w.KnownJob("no such kind"))
}
