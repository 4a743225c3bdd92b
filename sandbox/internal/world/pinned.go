package world

// Pinned time. A world whose time moves by itself (a real clock, or a
// clock the embedding program moves) is continuous: a call's transactions
// read the clock at different moments, and a job runs when its timer fires
// or a later call catches it up, a little after it was due, stamped with
// the moment it ran. A replay cannot reproduce that: it runs on a clock
// that moves only when told to. Pinning makes such a world discrete, as a
// fake clock is:
//
//   - calls run one at a time, each at one instant: the clock read once
//     when the call enters the world, never earlier than the instant of
//     the call or job before it (EnterCall);
//   - jobs run at their due times (or at the previous instant, for one
//     that was overdue), before any call at or after that time, whether
//     the background loop or a call's catch-up runs them.
//
// A world at such instants is a fake-clock world advanced to each call's
// instant before the call, so a replay that advances its fake clock to the
// recorded instants gets the same answers, to the byte. Recording pins the
// world it records; between calls the world's time is the clock's.

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// TopicUnpinned is notified when a pinned call leaves the world: work that
// waited for the world's time to move on (callback deliveries due after
// the call's instant) looks again.
const TopicUnpinned = "unpinned"

// pinning is a world's pinned-time state.
type pinning struct {
	// users counts the Pin calls not yet undone; 0 is continuous time.
	users atomic.Int32
	// gate is held by a pinned call from EnterCall to its leave, and by a
	// run of jobs in the background: one at a time.
	gate sync.Mutex
	// at is the instant Now answers while a pinned call or job runs (nil
	// otherwise).
	at atomic.Pointer[time.Time]
	// last is the latest instant a pinned call or job ran at (guarded by
	// gate).
	last time.Time
}

// Pinned reports whether the world's time is pinned.
func (w *World) Pinned() bool { return w.pin.users.Load() > 0 }

// StartPinned pins a world whose time moves by itself until Unpin, and
// runs fn at the instant pinned time starts from (what a recording
// exports), after the jobs due by then ran at their due times. It reports
// whether it pinned: a world whose fake clock only moves when advanced is
// discrete already, and fn runs at its time. When the world is pinned
// already, the caller is a pinned call, and fn runs at the call's instant.
func (w *World) StartPinned(fn func(now time.Time)) bool {
	if !w.selfRunning() {
		fn(w.Now())
		return false
	}
	if w.pin.users.Add(1) > 1 {
		fn(w.Now())
		return true
	}
	w.pin.gate.Lock()
	defer w.pin.gate.Unlock()
	t := w.rawNow()
	w.pin.last = t
	if job := state.NextJob(w.Store.Read()); job != nil && job.DueTime().Before(t) {
		w.pin.last = job.DueTime() // jobs the loop has not reached yet run at their due times
	}
	w.runDuePinned(t)
	w.pin.last = t
	w.pin.at.Store(&t)
	defer w.pin.at.Store(nil)
	fn(t)
	return true
}

// Unpin undoes a StartPinned that reported true.
func (w *World) Unpin() {
	if w.pin.users.Add(-1) < 0 {
		w.pin.users.Add(1)
	}
}

// EnterCall starts a call in the world and returns the function that ends
// it. In pinned time the call waits for the one before it, gets its
// instant, and runs the jobs due by then; otherwise a world whose time
// moves by itself runs the jobs already due (CatchUp).
func (w *World) EnterCall() (leave func()) {
	if w.pin.users.Load() == 0 {
		w.CatchUp()
		return func() {}
	}
	w.pin.gate.Lock()
	t := w.rawNow()
	if !t.After(w.pin.last) {
		t = w.pin.last.Add(time.Nanosecond) // every call has an instant of its own, after the last
	}
	w.runDuePinned(t)
	w.pin.last = t
	w.pin.at.Store(&t)
	return func() {
		w.pin.at.Store(nil)
		w.pin.gate.Unlock()
		w.notify(TopicUnpinned)
	}
}

// runDuePinned runs the jobs due by until, each at its due time or at the
// last instant when that is later, as an advance of a fake clock does;
// the pinned instant follows them. The gate is held.
func (w *World) runDuePinned(until time.Time) []RanJob {
	w.advanceMu.Lock()
	defer w.advanceMu.Unlock()
	floor := w.pin.last
	w.pin.at.Store(&floor)
	ran := w.runDueLocked(until, w.Now, func(due time.Time) {
		if due.After(w.Now()) {
			w.pin.at.Store(&due)
		}
	})
	if now := w.Now(); now.After(w.pin.last) {
		w.pin.last = now
	}
	return ran
}

// runDueInBackground is the loop's run of due jobs: in pinned time, under
// the gate, at their due times.
func (w *World) runDueInBackground() {
	if w.pin.users.Load() == 0 {
		w.RunDue()
		return
	}
	w.pin.gate.Lock()
	if now := w.rawNow(); now.After(w.pin.last) {
		w.runDuePinned(now) // the last instant moves to the last job's
	}
	w.pin.at.Store(nil)
	w.pin.gate.Unlock()
	w.notify(TopicUnpinned)
}

// PinnedInstant is the instant of the pinned call (or job) running now,
// if the world's time is pinned.
func (w *World) PinnedInstant() (time.Time, bool) { return w.pinnedCallInstant() }

// pinnedCallInstant is the instant of the pinned call running now (the
// gate is held by it), if any.
func (w *World) pinnedCallInstant() (time.Time, bool) {
	if w.pin.users.Load() == 0 {
		return time.Time{}, false
	}
	if at := w.pin.at.Load(); at != nil {
		return *at, true
	}
	return time.Time{}, false
}

// movePinned keeps a pinned call's instant on a fake clock that the call
// moved (an advance, an import): the gate is held by the call.
func (w *World) movePinned(now time.Time) {
	if _, ok := w.pinnedCallInstant(); ok {
		w.pin.at.Store(&now)
		w.pin.last = now
	}
}

// Stay is a call's stay in its world: entered once its world is known
// (EnterCall), left after its answer was written.
type Stay struct {
	w     *World
	leave func()
}

// Enter enters w (once; nil is no world yet).
func (s *Stay) Enter(w *World) {
	if w != nil && s.leave == nil {
		s.w, s.leave = w, w.EnterCall()
	}
}

// Leave ends the stay.
func (s *Stay) Leave() {
	if s.leave != nil {
		s.leave()
		s.leave = nil
	}
}

// InstantHeader carries, on the answer of a call that ran at a pinned
// instant, that instant (RFC 3339 with nanoseconds): a recording proxy in
// front of the sandbox notes it, as a world's own recording does.
const InstantHeader = "X-Signsandbox-Instant"

// Mark sets InstantHeader with set (an answer's Header().Set) when the call
// runs at a pinned instant.
func (s *Stay) Mark(set func(key, value string)) {
	if s.leave == nil {
		return
	}
	if at, ok := s.w.PinnedInstant(); ok {
		set(InstantHeader, at.Format(time.RFC3339Nano))
	}
}
