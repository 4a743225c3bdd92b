package world

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// wallLike is a clock the world takes for a real one (it is not a
// *clockwork.FakeClock) that only the test moves.
type wallLike struct{ *clockwork.FakeClock }

func pinnedTestWorld(t *testing.T) (*World, *clockwork.FakeClock, chan time.Time) {
	t.Helper()
	ran := make(chan time.Time, 16)
	jobs := testJobs()
	jobs.Handle("signal", func(w *World, tx *state.Txn, job *model.Job) error {
		ran <- tx.Now()
		return nil
	})
	fc := clockwork.NewFakeClockAt(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	w := newTestWorld(t, Options{Clock: wallLike{fc}, Jobs: jobs})
	require.Equal(t, ClockReal, w.Mode())
	return w, fc, ran
}

func scheduleSignal(t *testing.T, w *World, in time.Duration) time.Time {
	t.Helper()
	var due time.Time
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		job, err := state.Schedule(tx, "signal", "", in, nil)
		due = job.DueTime()
		return err
	}))
	return due
}

// In pinned time a call happens at one instant however long it takes,
// and a job runs at its due time, not when its timer fired or a call
// caught it up: as on a fake clock advanced to each call's instant.
func TestPinnedTimeRunsCallsAtOneInstantAndJobsWhenDue(t *testing.T) {
	w, fc, ran := pinnedTestWorld(t)
	var start time.Time
	require.True(t, w.StartPinned(func(now time.Time) { start = now }))
	t.Cleanup(w.Unpin)
	assert.Equal(t, fc.Now(), start)

	// A job the background loop runs, long after it was due.
	due := scheduleSignal(t, w, time.Second)
	fc.Advance(3*time.Second + 400*time.Millisecond)
	assert.Equal(t, due, <-ran, "the loop ran the job at its due time")
	// The job reported before the loop's run was over. Writes in a server
	// happen in calls, which wait for the gate; this test writes outside a
	// call, so it waits for the loop to leave the gate as a call would (a
	// write inside the loop's run reads the loop's pinned instant).
	w.pin.gate.Lock()
	w.pin.gate.Unlock() //nolint:staticcheck // SA2001: an empty critical section on purpose: waiting for the loop
	// A job a call catches up before its timer could fire.
	due = scheduleSignal(t, w, 500*time.Millisecond)
	fc.Advance(time.Second)
	leave := w.EnterCall()
	select {
	case at := <-ran:
		assert.Equal(t, due, at, "the call's catch-up ran the job at its due time")
	default:
		t.Fatal("a call entered after a job fell due without running it")
	}
	instant := w.Now()
	assert.Equal(t, fc.Now(), instant)
	fc.Advance(2 * time.Second)
	assert.Equal(t, instant, w.Now(), "the call's time does not move while it runs")
	leave()
	// Checked with the gate held, so that neither a call nor the loop (its
	// timer for the job the call ran may still fire) is in pinned time.
	w.pin.gate.Lock()
	assert.Equal(t, fc.Now(), w.Now(), "between calls the world's time is the clock's")
	w.pin.gate.Unlock()

	// Calls on a clock that has not moved get instants of their own.
	leave = w.EnterCall()
	first := w.Now()
	leave()
	leave = w.EnterCall()
	assert.Equal(t, first.Add(time.Nanosecond), w.Now())
	leave()
}

// Without pinning, a job on a clock that moves by itself carries the time
// it ran at: what a recording could not replay.
func TestUnpinnedJobsRunWhenTheyAreReached(t *testing.T) {
	w, fc, ran := pinnedTestWorld(t)
	due := scheduleSignal(t, w, time.Second)
	fc.Advance(3 * time.Second)
	leave := w.EnterCall()
	leave()
	at := <-ran
	assert.True(t, at.After(due), "ran at %s, due at %s", at, due)
}

// A replay world shows a real clock but its time moves only when advanced,
// running jobs at their due times.
func TestReplayWorldShowsARealClockThatOnlyAdvancesMove(t *testing.T) {
	start := time.Date(2030, 1, 1, 0, 0, 0, 250_000_000, time.UTC)
	ran := make(chan time.Time, 4)
	jobs := testJobs()
	jobs.Handle("signal", func(w *World, tx *state.Txn, job *model.Job) error {
		ran <- tx.Now()
		return nil
	})
	w := newTestWorld(t, Options{Clock: NewReplayClock(start), Jobs: jobs})
	assert.Equal(t, ClockReal, w.Mode())
	assert.False(t, w.TimeFlows())
	assert.Equal(t, start, w.Now())
	due := scheduleSignal(t, w, time.Second)
	w.CatchUp()
	assert.Empty(t, ran, "a replay's time does not move by itself")
	_, err := w.Advance(3 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, due, <-ran)
	assert.Equal(t, start.Add(3*time.Second), w.Now())
	st, err := Export(w)
	require.NoError(t, err)
	assert.Equal(t, ClockReal, st.Clock.Mode, "its export shows the recorded clock's mode")
}
