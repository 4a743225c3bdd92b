package world

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// TimerAt returns a timer of w's clock that fires when the world time
// reaches due, for the loops that wait for work due later (callback
// retries, the SMTP relay's retries). On a clock the world moves by hand
// the timer is made at a reading known to be current, so that an advance
// to exactly due fires it. While a pinned call holds the world at an
// earlier instant there is no timer (nil channel): the loop must also wake
// on TopicUnpinned, which the call's end publishes.
func TimerAt(w *World, due time.Time) (clockwork.Timer, <-chan time.Time) {
	for {
		clk := w.Clock()
		now := clk.Now()
		wait := due.Sub(now)
		if wait <= 0 {
			if w.Pinned() && w.Now().Before(due) {
				return nil, nil
			}
			ch := make(chan time.Time, 1)
			ch <- now
			return nil, ch
		}
		t := clk.NewTimer(wait)
		if w.TimeFlows() || (clk.Now().Equal(now) && w.Clock() == clk) {
			return t, t.Chan()
		}
		t.Stop()
	}
}
