package api

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// CallRecord is what a call observer learns of one API or control call,
// once its answer is written: enough for metrics (count, status and
// latency by operation) without reaching into the call.
type CallRecord struct {
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

// ObserveCalls adds a call observer: it sees every API and control call in
// the goroutine that served it, after the answer was written. It must be
// fast and safe for concurrent use. Recording and scenario rules keep
// their own hooks (AfterCallHooks), which see the call itself.
func (r *Registry) ObserveCalls(fn func(CallRecord)) {
	r.CallObservers = append(r.CallObservers, fn)
	if r.CallClock == nil {
		r.CallClock = clockwork.NewRealClock()
	}
}

// CallStart reads the observer clock when a call begins, and only when
// someone observes calls: the zero time otherwise.
func (s *Host) CallStart() time.Time {
	if len(s.reg.CallObservers) == 0 {
		return time.Time{}
	}
	return s.reg.CallClock.Now()
}

// observeCall hands the record of a finished call to every call observer.
func (s *Host) observeCall(c *Call, operation string, control bool, start time.Time, status int) {
	if len(s.reg.CallObservers) == 0 {
		return
	}
	rec := CallRecord{Operation: operation, Control: control, Status: status, Duration: s.reg.CallClock.Since(start)}
	if c.World != nil {
		rec.World = c.World.ID
	}
	for _, fn := range s.reg.CallObservers {
		fn(rec)
	}
}
