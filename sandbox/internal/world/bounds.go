package world

import (
	"fmt"
	"time"
)

// MinInstant and MaxInstant bound a world's clock. Jobs are due at Unix
// nanoseconds, which run from 1677 to 2262, and an export writes the clock
// in RFC 3339, which ends with the year 9999: a clock kept within 1970 and
// 2200 schedules every job (delays of decades included) at a representable
// instant and exports an instant its import reads back, so the exact round
// trip holds for every instant the clock can reach.
var (
	MinInstant = time.Date(1970, time.January, 1, 0, 0, 0, 0, time.UTC)
	MaxInstant = time.Date(2200, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// CheckInstant refuses an instant outside the clock's range, naming the
// limit.
func CheckInstant(t time.Time) error {
	switch {
	case t.Before(MinInstant):
		return fmt.Errorf("%s is before %s, the earliest instant a world's clock can show", t.UTC().Format(time.RFC3339Nano), MinInstant.Format(time.RFC3339))
	case t.After(MaxInstant):
		return fmt.Errorf("%s is after %s, the last instant a world's clock can reach (jobs are scheduled in Unix nanoseconds, which end in 2262)",
			t.UTC().Format(time.RFC3339Nano), MaxInstant.Format(time.RFC3339))
	}
	return nil
}

// KnownJob reports whether the world's scheduler runs jobs of kind (an
// import refuses the others).
func (w *World) KnownJob(kind string) bool { return w.jobs.get(kind) != nil }

// checkMode refuses a clock mode that is neither fake nor real ("" keeps
// the world's).
func checkMode(mode ClockMode) error {
	switch mode {
	case "", ClockFake, ClockReal:
		return nil
	}
	return fmt.Errorf("clock.mode must be %q or %q, not %q", ClockFake, ClockReal, mode)
}
