package callbacks

// The dispatcher makes delivery attempts off the request path. Each world has
// one: a loop goroutine that picks due deliveries from the deliveries table
// (never from a channel of events, so nothing piles up in memory) and at most
// maxConcurrentAttempts attempts in flight. API requests only write rows and
// wake the loop; a slow, hanging or dead receiver costs one attempt slot for
// at most the world's callback_timeout.
//
// Time: attempts are due on the world clock. The loop sleeps on a timer of
// the world's clock (a fake clock's timer fires when the clock is advanced
// past it), so after an advance the attempts that fell due are made,
// asynchronously and in (due, queue) order. Results are written in their own
// transactions that never take IDs from the world's sequence, so the IDs
// and timestamps of API objects never depend on when a receiver answered.

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

const (
	// extCallbacks is the dispatcher's key in world.Ext.
	extCallbacks = "callbacks"
	// maxConcurrentAttempts bounds the attempts in flight per world.
	maxConcurrentAttempts = 4
)

// dispatcher delivers one world's callbacks.
type dispatcher struct {
	s      *api.Host
	w      *world.World
	sender *callbackSender

	ctx      context.Context
	cancel   context.CancelFunc
	wakeCh   chan struct{}
	sem      chan struct{}
	attempts sync.WaitGroup
	loopDone chan struct{}
	once     sync.Once

	mu sync.Mutex
	// inflight holds the deliveries claimed by an attempt.
	inflight map[string]bool
	// changed is closed (and replaced) whenever an attempt finishes or the
	// world is replaced, for waiters.
	changed chan struct{}
}

// startCallbacks creates and starts a world's dispatcher (OnWorldStart).
func startCallbacks(s *api.Host, w *world.World) { dispatcherOf(s, w) }

// dispatcherOf returns the world's dispatcher, starting it on first use.
func dispatcherOf(s *api.Host, w *world.World) *dispatcher {
	return world.Ext(w, extCallbacks, func() *dispatcher {
		ctx, cancel := context.WithCancel(context.Background())
		d := &dispatcher{
			s: s, w: w, sender: newCallbackSender(s.Client()),
			ctx: ctx, cancel: cancel,
			wakeCh:   make(chan struct{}, 1),
			sem:      make(chan struct{}, maxConcurrentAttempts),
			loopDone: make(chan struct{}),
			inflight: map[string]bool{},
			changed:  make(chan struct{}),
		}
		w.On(state.TopicEvents, d.wake)
		w.On(world.TopicUnpinned, d.wake)
		go d.loop()
		return d
	})
}

// wake makes the loop look at the table again.
func (d *dispatcher) wake() {
	select {
	case d.wakeCh <- struct{}{}:
	default:
	}
}

// Close stops the loop, cancels attempts in flight and waits for them
// (world.Close calls it).
func (d *dispatcher) Close() {
	d.once.Do(func() {
		d.cancel()
		<-d.loopDone
		d.attempts.Wait()
	})
}

// replaced runs after the world's database was swapped (reset, import).
// Attempts in flight need no special care: their results are recorded only
// if the new database holds the same delivery waiting for the same attempt
// (see recordAttempt), which is then a true account of what was sent.
func (d *dispatcher) replaced() {
	d.mu.Lock()
	d.signalLocked()
	d.mu.Unlock()
	d.wake()
}

func (d *dispatcher) signalLocked() {
	close(d.changed)
	d.changed = make(chan struct{})
}

func (d *dispatcher) loop() {
	defer close(d.loopDone)
	for {
		next := d.pass()
		var timer clockwork.Timer
		var fire <-chan time.Time
		if next > 0 {
			timer, fire = world.TimerAt(d.w, time.Unix(0, next))
		}
		select {
		case <-d.ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-d.wakeCh:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// pass starts an attempt for every due delivery that is not in flight, and
// returns when the next pending one is due (Unix nanoseconds, 0 for none).
func (d *dispatcher) pass() int64 {
	tx := d.w.Store.Read()
	now := tx.Now().UnixNano()
	for _, del := range state.DueDeliveries(tx, now) {
		if !d.claim(del.ID) {
			continue
		}
		select {
		case d.sem <- struct{}{}:
		case <-d.ctx.Done():
			d.finish(del.ID)
			return 0
		}
		d.attempts.Add(1)
		go d.attempt(del)
	}
	if next := state.NextDue(tx, now+1); next != nil {
		return next.Due
	}
	return 0
}

// claim marks a delivery in flight; false when it already is.
func (d *dispatcher) claim(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inflight[id] {
		return false
	}
	d.inflight[id] = true
	return true
}

// finish releases a claimed delivery and tells waiters and the loop.
func (d *dispatcher) finish(id string) {
	d.mu.Lock()
	delete(d.inflight, id)
	d.signalLocked()
	d.mu.Unlock()
	d.wake()
}

// attempt makes one attempt of del (as read when it was claimed) and records
// the result.
func (d *dispatcher) attempt(del *model.Delivery) {
	defer d.attempts.Done()
	defer func() { <-d.sem }()
	defer d.finish(del.ID)
	cur, err := state.Get[model.Delivery](d.w.Store.Read(), state.TableDeliveries, del.ID)
	if err != nil || !sameAttempt(cur, del) {
		return
	}
	// The attempt's duration is measured on a real world clock only: a fake
	// clock moves when a caller advances it, which may happen while the
	// attempt is in flight, so there an attempt takes no time and tests stay
	// deterministic. A replay of a real-clock recording takes the duration
	// the recording measured (attemptDurations).
	clk, real := d.w.Clock(), d.w.TimeFlows()
	start := clk.Now()
	res := d.sender.send(d.ctx, d.s, d.w, cur)
	if real {
		res.duration = max(clk.Now().Sub(start), 0)
	} else if dur, ok := replayedDuration(d.w, cur); ok {
		res.duration = dur
	}
	if d.ctx.Err() != nil {
		return // the world is closing; the attempt did not really happen
	}
	gaveUp := false
	err = d.w.Store.Update(func(tx *state.Txn) (err error) {
		gaveUp, err = recordAttempt(tx, del, res)
		return err
	})
	if err == nil && real && res.duration.Milliseconds() > 0 {
		observed(d.w, AttemptKey(cur), res.duration.Milliseconds())
	}
	logAttempt(d.w, cur, res, gaveUp && err == nil)
}

// logAttempt tells an operator what became of an attempt (debug), that a
// destination was refused, with its address (info: someone may be probing
// the server's network), and that a delivery was given up (info): the
// delivery log (GET /_sandbox/callbacks) has the same facts, without the
// address, and a log line is where one looks first. The world is in the
// logger's attributes.
func logAttempt(w *world.World, del *model.Delivery, res attemptResult, gaveUp bool) {
	log := w.Logger()
	attrs := []any{"event_type", del.EventType, "url", del.URL, "delivery", del.ID, "attempt", del.RoundAttempts + 1}
	if res.status != 0 {
		attrs = append(attrs, "status", res.status)
	}
	if res.delivered {
		log.Debug("callback delivered", attrs...)
		return
	}
	log.Debug("callback attempt failed", append(attrs, "err", res.err)...)
	if res.refused != "" {
		log.Info("callback destination not allowed", append(attrs, "refused", res.refused)...)
	}
	if gaveUp {
		log.Info("callback delivery given up", append(attrs, "err", res.err)...)
	}
}

// sameAttempt reports whether cur is still waiting for the attempt that
// was claimed from claimed (not redelivered, replaced or finished since).
func sameAttempt(cur, claimed *model.Delivery) bool {
	return cur.Open() && cur.Round == claimed.Round && cur.Due == claimed.Due && cur.Seq == claimed.Seq
}

// waitStatus is the answer of a wait.
type waitStatus struct {
	Settled bool `json:"settled"`
	// Due counts deliveries due now and not yet attempted or in flight.
	Due int `json:"due"`
	// Pending counts unfinished deliveries (due later or waiting).
	Pending   int `json:"pending"`
	Delivered int `json:"delivered"`
	Failed    int `json:"failed"`
	// NextAttemptAt is when the next attempt is due (Unix seconds), if any.
	NextAttemptAt int64 `json:"next_attempt_at,omitempty"`
}

// wait blocks until every attempt due at the world's current time has been
// made and recorded, or ctx ends.
func (d *dispatcher) wait(ctx context.Context) waitStatus {
	for {
		d.mu.Lock()
		ch := d.changed
		inflight := len(d.inflight)
		d.mu.Unlock()
		tx := d.w.Store.Read()
		due := len(state.DueDeliveries(tx, tx.Now().UnixNano()))
		if due == 0 && inflight == 0 {
			st := deliveryCounts(tx)
			st.Settled = true
			return st
		}
		select {
		case <-ch:
		case <-ctx.Done():
			st := deliveryCounts(tx)
			st.Due = due
			return st
		}
	}
}

// deliveryCounts summarizes the deliveries table (from the counters kept
// as deliveries change: waits are frequent and the table is long).
func deliveryCounts(tx *state.Txn) waitStatus {
	n := state.CountDeliveries(tx)
	st := waitStatus{Pending: int(n.Pending), Delivered: int(n.Delivered), Failed: int(n.Failed)}
	if next := state.NextDue(tx, tx.Now().UnixNano()+1); next != nil {
		st.NextAttemptAt = time.Unix(0, next.Due).Unix()
	}
	return st
}
