package sandbox

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// callRecord is what a call observer learns of one API or control call,
// once its answer is written: enough for metrics (count, status and
// latency by operation) without reaching into the call.
type callRecord struct {
	// Operation is the official operationId of an API call, or for a
	// control call its method and route ("POST /_sandbox/clock/advance").
	Operation string
	// Control is true for calls of the /_sandbox control plane.
	Control bool
	// World is the id of the world the call reached ("" when none was
	// found: refused credentials, public pages).
	World string
	// Status is the HTTP status of the answer.
	Status int
	// Duration is the wall time from the router's hand-over to the
	// written answer, read from the observer clock.
	Duration time.Duration
}

// observeCalls adds a call observer: it sees every API and control call in
// the goroutine that served it, after the answer was written. It must be
// fast and safe for concurrent use. Recording and scenario rules keep
// their own hooks (afterCallHooks), which see the call itself.
func (r *registry) observeCalls(fn func(callRecord)) {
	r.callObservers = append(r.callObservers, fn)
	if r.callClock == nil {
		r.callClock = clockwork.NewRealClock()
	}
}

// callStart reads the observer clock when a call begins, and only when
// someone observes calls: the zero time otherwise.
func (s *host) callStart() time.Time {
	if len(s.reg.callObservers) == 0 {
		return time.Time{}
	}
	return s.reg.callClock.Now()
}

// observeCall hands the record of a finished call to every call observer.
func (s *host) observeCall(c *call, operation string, control bool, start time.Time, status int) {
	if len(s.reg.callObservers) == 0 {
		return
	}
	rec := callRecord{Operation: operation, Control: control, Status: status, Duration: s.reg.callClock.Since(start)}
	if c.w != nil {
		rec.World = c.w.ID
	}
	for _, fn := range s.reg.callObservers {
		fn(rec)
	}
}
