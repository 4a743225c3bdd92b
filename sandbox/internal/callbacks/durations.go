package callbacks

// The measured durations of delivery attempts in recordings and their
// replays. On a world whose time flows, an attempt's duration_ms is how
// long the receiver took; a replay (on a fake clock) cannot measure that
// again, so a recording keeps each attempt's duration and the replay
// reports the recorded one for the same attempt.

import (
	"strconv"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// AttemptKey names the attempt about to be made of d: its id and the
// number of attempts it has logged. A replay makes the same attempts of
// the same deliveries, so the key names the same attempt there.
func AttemptKey(d *model.Delivery) string { return d.ID + "/" + strconv.Itoa(len(d.Attempts)) }

const extDurations = "callbacks.durations"

type replayDurations struct {
	mu sync.Mutex
	ms map[string]int64
	// observe, when set, sees each measured duration (ObserveAttempts).
	observe func(attempt string, ms int64)
}

// ObserveAttempts makes fn see the measured duration (milliseconds) of
// each delivery attempt of a world whose time flows, by AttemptKey (nil
// stops it): a recording keeps them, so that its replay reports the same.
func ObserveAttempts(w *world.World, fn func(attempt string, ms int64)) {
	rd := world.Ext(w, extDurations, func() *replayDurations { return &replayDurations{} })
	rd.mu.Lock()
	defer rd.mu.Unlock()
	rd.observe = fn
}

// observed tells the observer, if any, an attempt's measured duration.
func observed(w *world.World, attempt string, ms int64) {
	rd := world.Ext(w, extDurations, func() *replayDurations { return &replayDurations{} })
	rd.mu.Lock()
	fn := rd.observe
	rd.mu.Unlock()
	if fn != nil {
		fn(attempt, ms)
	}
}

// ReplayDurations gives a world the attempt durations (milliseconds, by
// AttemptKey) of the recording it replays.
func ReplayDurations(w *world.World, ms map[string]int64) {
	rd := world.Ext(w, extDurations, func() *replayDurations { return &replayDurations{} })
	rd.mu.Lock()
	defer rd.mu.Unlock()
	rd.ms = ms
}

// replayedDuration is the recorded duration of the attempt about to be
// made of d, if the world replays a recording that measured it.
func replayedDuration(w *world.World, d *model.Delivery) (time.Duration, bool) {
	rd := world.Ext(w, extDurations, func() *replayDurations { return &replayDurations{} })
	rd.mu.Lock()
	defer rd.mu.Unlock()
	ms, ok := rd.ms[AttemptKey(d)]
	return time.Duration(ms) * time.Millisecond, ok
}
