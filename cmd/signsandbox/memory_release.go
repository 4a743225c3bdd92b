package main

import (
	"context"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// Memory given back once the server falls quiet.
//
// The collector leaves room for the heap to grow between collections, and
// the runtime keeps the pages of that room after a burst of work: a suite
// that sends 100,000 requests and stops leaves the server holding twice
// and more the memory its worlds need, for as long as nothing else runs.
// A shared server spends most of its life waiting, so once no request has
// come for a while the releaser collects and hands the free pages back to
// the system (debug.FreeOSMemory), once per quiet spell. The cost is one
// full collection of the live heap, paid while nobody is waiting.

// defaultReleaseIdle is --release-idle's default: long enough that a suite
// pausing between steps does not pay a collection each time.
const defaultReleaseIdle = 30 * time.Second

// releaser counts the requests it passes on and, on a ticker, frees memory
// after a tick in which none came following one in which some did, when
// none is in flight.
type releaser struct {
	quiet    time.Duration
	requests atomic.Uint64
	inFlight atomic.Int64
	// release frees the memory; tests replace it.
	release func()
}

func newReleaser(quiet time.Duration) *releaser {
	return &releaser{quiet: quiet, release: debug.FreeOSMemory}
}

// watchless are the paths that do not count as work: probes and metrics
// scrapers poll them more often than any quiet period, and they allocate
// next to nothing.
var watchless = map[string]bool{
	"/_sandbox/health":  true,
	"/_sandbox/ready":   true,
	"/_sandbox/metrics": true,
}

// wrap counts each request before handing it to next, and how many are in
// flight.
func (r *releaser) wrap(next http.Handler) http.Handler {
	if r.quiet <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if watchless[req.URL.Path] {
			next.ServeHTTP(w, req)
			return
		}
		r.requests.Add(1)
		r.inFlight.Add(1)
		defer r.inFlight.Add(-1)
		next.ServeHTTP(w, req)
	})
}

// run checks every quiet period until ctx ends. A server that has served
// nothing since it last released (or since it started) releases nothing:
// the first quiet spell after work pays for one collection, the rest of
// the night is free.
func (r *releaser) run(ctx context.Context) {
	if r.quiet <= 0 {
		return
	}
	t := time.NewTicker(r.quiet)
	defer t.Stop()
	r.loop(ctx.Done(), t.C)
}

// loop is run's body, driven by ticks.
func (r *releaser) loop(done <-chan struct{}, ticks <-chan time.Time) {
	var q quietWatch
	q.seen = r.requests.Load()
	for {
		select {
		case <-done:
			return
		case <-ticks:
		}
		if q.tick(r.requests.Load(), r.inFlight.Load() > 0) {
			r.release()
		}
	}
}

// quietWatch follows the request count from tick to tick.
type quietWatch struct {
	seen uint64
	busy bool
}

// tick takes the count at a tick, and whether a request is in flight, and
// says whether to release: at the first tick without new requests after
// one with some, once none is in flight (a request longer than a quiet
// period holds the release back until it ends).
func (q *quietWatch) tick(n uint64, inFlight bool) bool {
	switch {
	case n != q.seen:
		q.seen, q.busy = n, true
	case q.busy && !inFlight:
		q.busy = false
		return true
	}
	return false
}
