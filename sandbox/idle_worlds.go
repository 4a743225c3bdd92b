package sandbox

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
)

// WithIdleWorldTTL frees the worlds created at run time (POST
// /_sandbox/worlds, or restored from a data directory) that no call has
// reached for ttl of wall time, as DELETE /_sandbox/world would: their
// keys answer 401 from then on. A server a team keeps running for days
// would otherwise hold every world a test suite ever made. The default
// world is never freed. clk measures the idle time (the binary gives the
// real clock; tests a fake one). Off unless given; the binary turns it on
// for 24 hours.
func WithIdleWorldTTL(ttl time.Duration, clk clockwork.Clock) Option {
	return func(cfg *config) error {
		if ttl <= 0 {
			return fmt.Errorf("the idle world time must be positive, not %s", ttl)
		}
		if clk == nil {
			return fmt.Errorf("the idle world time needs a clock")
		}
		idle := &idleWorlds{ttl: ttl, clk: clk, stop: make(chan struct{})}
		cfg.idle = idle
		cfg.registryEdits = append(cfg.registryEdits, func(r *api.Registry) {
			r.ObserveCalls(func(rec api.CallRecord) { idle.touch(rec.World) })
		})
		return nil
	}
}

// idleWorlds remembers when a call last reached each world and frees the
// run-time worlds idle for longer than ttl.
type idleWorlds struct {
	ttl time.Duration
	clk clockwork.Clock
	// last maps a world id to the Unix nanoseconds of its last call (an
	// *atomic.Int64), so that a call notes itself without a shared lock.
	last sync.Map
	stop chan struct{}
	done sync.WaitGroup
}

// touch notes a call to world id (the call observer; "" is no world).
func (i *idleWorlds) touch(id string) {
	if id == "" {
		return
	}
	now := i.clk.Now().UnixNano()
	if v, ok := i.last.Load(id); ok {
		v.(*atomic.Int64).Store(now)
		return
	}
	v := new(atomic.Int64)
	v.Store(now)
	if prev, loaded := i.last.LoadOrStore(id, v); loaded {
		prev.(*atomic.Int64).Store(now)
	}
}

// interval is how often the janitor looks: a quarter of the idle time,
// between one second and one minute.
func (i *idleWorlds) interval() time.Duration {
	return min(max(i.ttl/4, time.Second), time.Minute)
}

// start runs the janitor until stop is closed.
func (i *idleWorlds) start(s *api.Host) {
	t := i.clk.NewTicker(i.interval())
	i.done.Add(1)
	go func() {
		defer i.done.Done()
		defer t.Stop()
		for {
			select {
			case <-i.stop:
				return
			case <-t.Chan():
				i.sweep(s)
			}
		}
	}()
}

// sweep frees the run-time worlds idle for longer than ttl (a world's idle
// time starts when it is made: NewWorld touches it).
func (i *idleWorlds) sweep(s *api.Host) {
	now := i.clk.Now().UnixNano()
	live := map[string]bool{}
	for _, w := range s.Worlds() {
		if w == s.DefaultWorld() {
			continue
		}
		live[w.ID] = true
		v, seen := i.last.Load(w.ID)
		if !seen {
			i.touch(w.ID)
			continue
		}
		if time.Duration(now-v.(*atomic.Int64).Load()) > i.ttl {
			s.Log().Info("freeing an idle world", "world", w.ID, "idle_for", i.ttl.String())
			s.DropWorld(w)
			i.last.Delete(w.ID)
		}
	}
	i.last.Range(func(k, _ any) bool {
		if !live[k.(string)] {
			i.last.Delete(k) // deleted by its owner
		}
		return true
	})
}

// close stops the janitor (if it started) and waits for it.
func (i *idleWorlds) close() {
	close(i.stop)
	i.done.Wait()
}
