package events

import "time"

// Retry schedule. A delivery is attempted at once; every attempt that does
// not count (another status or body, a timeout, a refused or closed
// connection, a redirect) is retried after a delay that doubles from one
// minute: 1m, 2m, 4m, ... 2048m. The last of the 12 retries comes 4095
// minutes (68h15m, about three days) after the first attempt; when it fails
// too the delivery is given up. The real service documents "exponential
// backoff for about three days" without the exact steps.
const (
	// FirstRetryDelay is the delay before the first retry.
	FirstRetryDelay = time.Minute
	// Retries is how many retries follow the first attempt.
	Retries = 12
)

// MaxAttempts is the number of attempts of one round of a delivery.
const MaxAttempts = Retries + 1

// Offset is when attempt n (0 for the first) of a round is due, counted from
// the start of the round: 0, 1m, 3m, 7m, 15m, ... (2^n - 1) minutes. ok is
// false when there is no attempt n (the delivery is given up).
func Offset(n int) (d time.Duration, ok bool) {
	if n < 0 || n >= MaxAttempts {
		return 0, false
	}
	return FirstRetryDelay * time.Duration((1<<n)-1), true
}

// Schedule lists the offsets of every attempt of a round, for documentation
// and the control plane.
func Schedule() []time.Duration {
	out := make([]time.Duration, MaxAttempts)
	for i := range out {
		out[i], _ = Offset(i)
	}
	return out
}
