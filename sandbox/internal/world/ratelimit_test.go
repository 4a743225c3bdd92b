package world

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRateCounterWindowsPerAccount(t *testing.T) {
	c := NewRateCounter()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 500_000_000, time.UTC)
	s := c.Count("a", t0, 2, time.Minute)
	assert.Equal(t, RateStatus{Limit: 2, Remaining: 1, Reset: t0.Truncate(time.Second).Add(time.Minute).Unix()}, s)
	s = c.Count("a", t0.Add(10*time.Second), 2, time.Minute)
	assert.Equal(t, 0, s.Remaining)
	assert.False(t, s.Exceeded)
	s = c.Count("a", t0.Add(20*time.Second), 2, time.Minute)
	assert.True(t, s.Exceeded)
	assert.Equal(t, 0, s.Remaining, "remaining never goes negative")

	other := c.Count("b", t0.Add(20*time.Second), 2, time.Minute)
	assert.Equal(t, 1, other.Remaining, "accounts are counted apart")

	s = c.Count("a", t0.Add(time.Minute), 2, time.Minute)
	assert.Equal(t, 1, s.Remaining, "a new window starts when the old one ends")
	assert.Equal(t, t0.Add(time.Minute).Truncate(time.Second).Add(time.Minute).Unix(), s.Reset)

	c.Reset()
	s = c.Count("a", t0.Add(time.Minute), 2, 0)
	assert.Equal(t, 1, s.Remaining)
	assert.Equal(t, t0.Add(2*time.Minute).Truncate(time.Second).Unix(), s.Reset, "a zero window means a minute")
}
