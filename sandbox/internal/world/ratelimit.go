package world

import (
	"sync"
	"time"
)

// RateCounter counts requests per account in fixed windows on the world
// clock. It feeds the X-RateLimit-* headers of every 2xx answer and, when a
// world enforces limits, the 429 exceeded_rate answer.
type RateCounter struct {
	mu      sync.Mutex
	windows map[string]rateWindow
}

type rateWindow struct {
	start time.Time
	count int
}

// RateStatus is what the headers show after a request was counted.
type RateStatus struct {
	Limit     int
	Remaining int
	Reset     int64 // Unix seconds at which the window ends
	Exceeded  bool
}

// NewRateCounter returns an empty counter.
func NewRateCounter() *RateCounter { return &RateCounter{windows: map[string]rateWindow{}} }

// Count records one request of account at now and reports the status. The
// window starts with the account's first request and lasts window.
func (c *RateCounter) Count(account string, now time.Time, limit int, window time.Duration) RateStatus {
	if window <= 0 {
		window = time.Minute
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.windows[account]
	if w.start.IsZero() || !now.Before(w.start.Add(window)) {
		w = rateWindow{start: now.Truncate(time.Second)}
	}
	w.count++
	c.windows[account] = w
	remaining := limit - w.count
	if remaining < 0 {
		remaining = 0
	}
	return RateStatus{Limit: limit, Remaining: remaining, Reset: w.start.Add(window).Unix(), Exceeded: w.count > limit}
}

// Reset forgets every window (world reset).
func (c *RateCounter) Reset() {
	c.mu.Lock()
	c.windows = map[string]rateWindow{}
	c.mu.Unlock()
}
