package mailrelay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// extRelay is the worker's key in world.Ext.
const extRelay = "mailrelay"

// retryAfter are the waits after each failed attempt, on the world clock:
// five attempts over about two and a half hours, then the e-mail is
// failed. A refusal for good (an SMTP 5xx reply) fails it at once.
var retryAfter = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour}

// statusLimit bounds the delivery states a worker keeps (as log_limit
// bounds the outbox): beyond it the oldest settled ones are forgotten.
const statusLimit = model.DefaultLogLimit

// queueLimit bounds the e-mails waiting for an attempt: with the relay
// down (or a fake clock not advanced to the next retry) a world that goes
// on sending would otherwise hold every e-mail in memory; one more is
// failed at once, saying why.
var queueLimit = model.DefaultLogLimit

// takeBatch is how many e-mails one read of the outbox takes.
const takeBatch = 256

// Register adds a relay to addr (host:port) to r: a worker for every
// world, started with the world. A sandbox without a relay registers
// none, so nothing of this package runs in it.
func Register(r *api.Registry, addr string) {
	r.OnWorldStart(func(_ *api.Host, w *world.World) { workerOf(w, addr) })
	r.WorldReplacedHooks = append(r.WorldReplacedHooks, func(_ *api.Host, w *world.World) { workerOf(w, addr).replaced() })
}

// Delivery is how e stands at w's relay: nil without a relay, or for an
// e-mail the world held before its worker started.
func Delivery(w *world.World, e *model.Email) *Status {
	if wk := world.Lookup[worker](w, extRelay); wk != nil {
		return wk.statusOf(e)
	}
	return nil
}

// item is an e-mail waiting for an attempt.
type item struct {
	email *model.Email
	// due is when the next attempt is due (world time, Unix seconds).
	due int64
}

// worker relays one world's outbox.
type worker struct {
	w    *world.World
	addr string

	ctx    context.Context
	cancel context.CancelFunc
	wakeCh chan struct{}
	done   chan struct{}
	once   sync.Once

	mu sync.Mutex
	// cursor is the Seq of the newest e-mail taken from the outbox.
	cursor uint64
	// resync is set when the database was replaced: the next pass skips
	// to the newest e-mail of the new one.
	resync bool
	queue  []*item
	status map[string]*Status
	// order holds the ids of status, oldest first.
	order []string
}

// workerOf returns the world's worker, starting it on first use.
func workerOf(w *world.World, addr string) *worker {
	return world.Ext(w, extRelay, func() *worker {
		ctx, cancel := context.WithCancel(context.Background())
		wk := &worker{
			w: w, addr: addr, ctx: ctx, cancel: cancel,
			wakeCh: make(chan struct{}, 1), done: make(chan struct{}),
			status: map[string]*Status{},
		}
		// The e-mails the world already holds were sent before the relay
		// saw them (a restored or imported world): only new ones go.
		wk.cursor = newestSeq(w.Store.Read())
		w.On(state.TopicEmails, wk.wake)
		w.On(world.TopicUnpinned, wk.wake) // a retry waiting for a pinned call to end
		go wk.loop()
		return wk
	})
}

// newestSeq is the Seq of the newest e-mail of the outbox (0: none).
func newestSeq(tx *state.Txn) uint64 {
	var seq uint64
	_ = state.WalkSeq(tx, state.TableEmails, math.MaxUint64, true, func(raw any) bool {
		seq = raw.(*model.Email).Seq
		return false
	})
	return seq
}

func (wk *worker) wake() {
	select {
	case wk.wakeCh <- struct{}{}:
	default:
	}
}

// Close stops the worker (world.Close calls it); an attempt in flight is
// cut.
func (wk *worker) Close() {
	wk.once.Do(func() {
		wk.cancel()
		<-wk.done
	})
}

// replaced forgets the old database's e-mails: their ids may come again
// in the new one.
func (wk *worker) replaced() {
	wk.mu.Lock()
	wk.resync = true
	wk.queue, wk.status, wk.order = nil, map[string]*Status{}, nil
	wk.mu.Unlock()
	wk.wake()
}

func (wk *worker) loop() {
	defer close(wk.done)
	for {
		next := wk.pass()
		var timer clockwork.Timer
		var fire <-chan time.Time
		if next > 0 {
			timer, fire = world.TimerAt(wk.w, time.Unix(next, 0))
		}
		select {
		case <-wk.ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-wk.wakeCh:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// pass takes the outbox's new e-mails, attempts every due one, and
// answers when the next is due (Unix seconds, 0 for none).
func (wk *worker) pass() int64 {
	tx := wk.w.Store.Read()
	wk.take(tx)
	now := tx.Unix()
	due := wk.dueAt(now)
	if len(due) > 0 {
		wk.attempt(due)
	}
	wk.mu.Lock()
	defer wk.mu.Unlock()
	var next int64
	for _, it := range wk.queue {
		if next == 0 || it.due < next {
			next = it.due
		}
	}
	return next
}

// take queues the e-mails added to the outbox since the last pass.
func (wk *worker) take(tx *state.Txn) {
	wk.mu.Lock()
	if wk.resync {
		wk.cursor, wk.resync = newestSeq(tx), false
	}
	from := wk.cursor
	wk.mu.Unlock()
	var taken []*model.Email
	for {
		page, err := state.PageEmails(tx, "", state.PageQuery{Limit: takeBatch, After: from}, nil)
		if err != nil {
			wk.w.Logger().Warn("e-mail relay: cannot read the outbox", "err", err)
			break
		}
		for _, e := range page.Rows {
			taken = append(taken, e)
			from = e.Seq
		}
		if page.Next == 0 {
			break
		}
	}
	if len(taken) == 0 {
		return
	}
	if wk.queueTaken(taken, from) {
		wk.w.Tell(state.TopicEmailDelivery)
	}
}

// queueTaken queues e-mails taken from the outbox up to the Seq from,
// unless the database was replaced meanwhile.
func (wk *worker) queueTaken(taken []*model.Email, from uint64) bool {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if wk.resync || from <= wk.cursor {
		return false // replaced meanwhile: the next pass starts over
	}
	wk.cursor = from
	for _, e := range taken {
		st := &Status{State: StatePending, NextAttemptAt: e.SentAt}
		switch {
		case e.Bounced:
			st = &Status{State: StateFailed, Error: "the sandbox bounced this e-mail before it was relayed"}
		case len(wk.queue) >= queueLimit:
			st = &Status{State: StateFailed, Error: fmt.Sprintf("not relayed: %d e-mails were already waiting for the relay", queueLimit)}
		default:
			wk.queue = append(wk.queue, &item{email: e, due: e.SentAt})
		}
		wk.remember(e.ID, st)
	}
	return true
}

// remember keeps an e-mail's state, forgetting the oldest settled ones
// beyond statusLimit.
func (wk *worker) remember(id string, st *Status) {
	if _, ok := wk.status[id]; !ok {
		wk.order = append(wk.order, id)
	}
	wk.status[id] = st
	for len(wk.order) > statusLimit {
		dropped := false
		for i, old := range wk.order {
			if s := wk.status[old]; s == nil || s.State != StatePending {
				delete(wk.status, old)
				if i == 0 {
					wk.order = wk.order[1:] // the usual case: no copy
				} else {
					wk.order = append(wk.order[:i], wk.order[i+1:]...)
				}
				dropped = true
				break
			}
		}
		if !dropped {
			return
		}
	}
}

// dueAt removes and answers the queued e-mails due at now, in the order
// they were sent.
func (wk *worker) dueAt(now int64) []*item {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	var due []*item
	kept := wk.queue[:0]
	for _, it := range wk.queue {
		if it.due <= now {
			due = append(due, it)
		} else {
			kept = append(kept, it)
		}
	}
	clear(wk.queue[len(kept):])
	wk.queue = kept
	return due
}

// attempt sends the due e-mails over one connection (made again after an
// error that breaks it) and records each outcome.
func (wk *worker) attempt(due []*item) {
	ctx, cancel := context.WithTimeout(wk.ctx, sessionTimeout)
	defer cancel()
	var sess *session
	defer func() {
		if sess != nil {
			sess.close()
		}
	}()
	for _, it := range due {
		var err error
		to := mail.Recipient(it.email)
		switch {
		case wk.ctx.Err() != nil:
			return // the world is closing
		case to == "":
			err = errNoRecipient
		default:
			if sess == nil {
				sess, err = dial(ctx, wk.addr)
			}
			if err == nil {
				err = sess.send(mail.SenderAddress, to, mail.Compose(it.email))
				var broken *brokenError
				if errors.As(err, &broken) {
					sess.close()
					sess = nil
				}
			}
		}
		if wk.ctx.Err() != nil {
			return
		}
		wk.record(it, err)
		wk.w.Tell(state.TopicEmailDelivery)
	}
}

// errNoRecipient fails an e-mail whose recipient is no address.
var errNoRecipient = errors.New("the e-mail has no recipient address")

// record notes an attempt's outcome: delivered, retried later, or failed.
func (wk *worker) record(it *item, err error) {
	now := wk.w.Now().Unix()
	log := wk.w.Logger()
	attrs := []any{"email", it.email.ID, "kind", it.email.Kind, "to", it.email.To, "relay", wk.addr}
	wk.mu.Lock()
	defer wk.mu.Unlock()
	st, ok := wk.status[it.email.ID]
	if !ok || wk.resync {
		return // forgotten by a reset or an import meanwhile
	}
	next := *st
	next.Attempts++
	next.LastAttemptAt, next.NextAttemptAt = now, 0
	switch {
	case err == nil:
		next.State, next.Error, next.DeliveredAt = StateDelivered, "", now
		log.Debug("e-mail relayed", attrs...)
	case permanent(err) || err == errNoRecipient || next.Attempts > len(retryAfter):
		next.State, next.Error = StateFailed, err.Error()
		log.Info("e-mail relay failed", append(attrs, "attempts", next.Attempts, "err", err)...)
	default:
		next.Error = err.Error()
		it.due = now + int64(retryAfter[next.Attempts-1]/time.Second)
		next.NextAttemptAt = it.due
		wk.queue = append(wk.queue, it)
		log.Debug("e-mail relay attempt failed", append(attrs, "attempts", next.Attempts, "err", err)...)
	}
	wk.status[it.email.ID] = &next
}

// statusOf answers a copy of e's state: pending for an e-mail the worker
// has not taken yet, nil for one sent before it started.
func (wk *worker) statusOf(e *model.Email) *Status {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if st, ok := wk.status[e.ID]; ok {
		c := *st
		return &c
	}
	if e.Seq > wk.cursor && !wk.resync {
		return &Status{State: StatePending, NextAttemptAt: e.SentAt}
	}
	return nil
}
