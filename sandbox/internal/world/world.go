// Package world is the unit of isolation of the sandbox: one go-memdb
// database, one clock, one scheduler and one seeded ID sequence. Requests
// reach the world of their credentials; two worlds never share an object.
package world

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// ClockMode says whether a world's time moves by itself.
type ClockMode string

// The two clock modes.
const (
	ClockFake ClockMode = "fake"
	ClockReal ClockMode = "real"
)

// World is one isolated sandbox.
type World struct {
	ID   string
	Seed string
	// secrets is the store's secret source (nil: seeded secrets).
	secrets func() string

	Store *state.Store
	log   *slog.Logger

	clockMu sync.RWMutex
	clock   clockwork.Clock
	fake    *clockwork.FakeClock // nil for a real clock
	mode    ClockMode
	// external is true for a clock given by the embedding program (which
	// may move a fake one itself); such worlds run due jobs by themselves.
	external bool
	// replay is true for a world that replays a session recorded on a real
	// clock (Options.Replay).
	replay bool
	// pin is the pinned-time state (pinned.go).
	pin pinning

	jobs *JobRegistry
	// advanceMu serializes everything that runs jobs, so that jobs run one at
	// a time in (due, seq) order whoever triggers them.
	advanceMu sync.Mutex
	wake      chan struct{}
	stop      chan struct{}
	stopOnce  sync.Once
	loopDone  chan struct{}

	listenersMu sync.Mutex
	listeners   map[string][]func()

	// clockHook sees the clock after every Advance (see OnClockMove).
	clockHook atomic.Pointer[func(now time.Time)]

	// Rate is the per-account request counter behind the rate-limit headers.
	Rate *RateCounter

	// Ext holds per-world state of optional subsystems (scenario rules,
	// recorders, delivery workers), keyed by the subsystem's name.
	extMu sync.Mutex
	ext   map[string]any
}

// Options configure a new world.
type Options struct {
	ID    string
	Seed  string
	Mode  ClockMode
	Start time.Time // start instant of a fake clock
	// Clock, when set, is used instead of a new clock of Mode (a
	// ReplayClock makes a replay's world).
	Clock  clockwork.Clock
	Jobs   *JobRegistry
	Logger *slog.Logger
	// Init fills the new database (fixtures) in one transaction.
	Init func(tx *state.Txn) error
	// Secrets, when set, is where the world's secrets come from instead of
	// its seeded sequence (see state.Store.SetSecretSource); reset keeps it.
	Secrets func() string
}

// New creates a world and seeds it.
func New(o Options) (*World, error) {
	if o.Jobs == nil {
		o.Jobs = NewJobRegistry()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if !o.Start.IsZero() {
		if err := CheckInstant(o.Start); err != nil {
			return nil, err
		}
	}
	w := &World{
		ID:        o.ID,
		Seed:      o.Seed,
		secrets:   o.Secrets,
		log:       o.Logger.With("world", o.ID),
		jobs:      o.Jobs,
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		loopDone:  make(chan struct{}),
		listeners: map[string][]func(){},
		Rate:      NewRateCounter(),
		ext:       map[string]any{},
	}
	w.setClock(o.Clock, o.Mode, o.Start)
	db, err := w.freshDB(o.Init)
	if err != nil {
		return nil, err
	}
	w.Store = state.NewStore(db, w.Now)
	w.Store.SetSecretSource(w.secrets)
	w.Store.SetNotifier(w.notify)
	w.On(state.TopicJobs, w.Wake)
	go w.loop()
	return w, nil
}

// ReplayClock is the clock of a world that replays a session recorded on
// a real clock: the world shows a real clock (its mode, its exports,
// advances refused through the control plane) but its time is this fake
// clock, which only Advance moves, to the instants the recording gives, so
// that its calls and jobs happen at the recorded instants.
type ReplayClock struct{ *clockwork.FakeClock }

// NewReplayClock is a replay's clock at start.
func NewReplayClock(start time.Time) ReplayClock {
	return ReplayClock{clockwork.NewFakeClockAt(start.UTC())}
}

func (w *World) setClock(c clockwork.Clock, mode ClockMode, start time.Time) {
	w.clockMu.Lock()
	defer w.clockMu.Unlock()
	if start.IsZero() {
		start = DefaultStart
	}
	switch rc, replay := c.(ReplayClock); {
	case replay:
		w.fake = rc.FakeClock
		w.clock, w.mode, w.replay = w.fake, ClockReal, true
	case c != nil:
		w.clock, w.external = c, true
		w.fake, _ = c.(*clockwork.FakeClock)
		w.mode = ClockReal
		if w.fake != nil {
			w.mode = ClockFake
		}
	case mode == ClockReal:
		w.clock, w.fake, w.mode = clockwork.NewRealClock(), nil, ClockReal
	default:
		w.fake = clockwork.NewFakeClockAt(start.UTC())
		w.clock, w.mode = w.fake, ClockFake
	}
}

// DefaultStart is the instant fake clocks start at when no time is given:
// fixed, so that tests and replays see the same timestamps.
var DefaultStart = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// freshDB builds a new database, writes the meta row and runs init.
func (w *World) freshDB(initFn func(tx *state.Txn) error) (*memdb.MemDB, error) {
	db, err := state.NewDB()
	if err != nil {
		return nil, err
	}
	tmp := state.NewStore(db, w.Now)
	tmp.SetSecretSource(w.secrets)
	err = tmp.Update(func(tx *state.Txn) error {
		if err := state.InitMeta(tx, w.Seed); err != nil {
			return err
		}
		if err := state.PutConfig(tx, state.DefaultConfig()); err != nil {
			return err
		}
		if initFn != nil {
			return initFn(tx)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("world %s: seed: %w", w.ID, err)
	}
	return db, nil
}

// Reset puts the world back to a freshly seeded state at the current time
// (the clock is not moved back: a fake clock only ever moves forward).
func (w *World) Reset(initFn func(tx *state.Txn) error) error {
	w.advanceMu.Lock()
	defer w.advanceMu.Unlock()
	db, err := w.freshDB(initFn)
	if err != nil {
		return err
	}
	w.Store.Replace(db)
	w.Rate.Reset()
	w.notifyAll()
	return nil
}

// Now is the world time: the instant of the call or job running, in pinned
// time (pinned.go), else the clock's.
func (w *World) Now() time.Time {
	if at := w.pin.at.Load(); at != nil {
		return *at
	}
	return w.rawNow()
}

// rawNow is the clock's time.
func (w *World) rawNow() time.Time {
	w.clockMu.RLock()
	c := w.clock
	w.clockMu.RUnlock()
	return c.Now().UTC()
}

// Clock returns the world's clock.
func (w *World) Clock() clockwork.Clock {
	w.clockMu.RLock()
	defer w.clockMu.RUnlock()
	return w.clock
}

// TimeFlows reports whether the world's time is the wall time passing: a
// real clock, not the fake one of a replay (Options.Replay) that shows
// itself as real. Waits and measured durations need it.
func (w *World) TimeFlows() bool {
	w.clockMu.RLock()
	defer w.clockMu.RUnlock()
	return w.mode == ClockReal && !w.replay
}

// Mode is the clock mode.
func (w *World) Mode() ClockMode {
	w.clockMu.RLock()
	defer w.clockMu.RUnlock()
	return w.mode
}

// RandomSecrets reports whether the world's secrets come from a random
// source rather than its seed.
func (w *World) RandomSecrets() bool { return w.secrets != nil }

// OnClockMove installs fn to see the world time after every Advance: the
// clock is not in the database, so a journal records its moves this way.
// It runs while the world's jobs are held back, so moves arrive in order.
func (w *World) OnClockMove(fn func(now time.Time)) { w.clockHook.Store(&fn) }

// clockMoved tells the clock hook, if any, the world time.
func (w *World) clockMoved() {
	if fn := w.clockHook.Load(); fn != nil {
		(*fn)(w.Now())
	}
}

// Logger is the world's logger.
func (w *World) Logger() *slog.Logger { return w.log }

// Config reads the world's configuration (as of the last commit).
func (w *World) Config() model.Config { return w.Store.Config() }

// On registers fn to run after any commit that notifies topic.
func (w *World) On(topic string, fn func()) {
	w.listenersMu.Lock()
	w.listeners[topic] = append(w.listeners[topic], fn)
	w.listenersMu.Unlock()
}

// Tell runs the functions registered for topic, for a change that is not
// in the database (an e-mail's delivery at the SMTP relay).
func (w *World) Tell(topic string) { w.notify(topic) }

func (w *World) notify(topic string) {
	w.listenersMu.Lock()
	fns := append([]func(){}, w.listeners[topic]...)
	w.listenersMu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

func (w *World) notifyAll() {
	w.listenersMu.Lock()
	var fns []func()
	for _, l := range w.listeners {
		fns = append(fns, l...)
	}
	w.listenersMu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// Ext returns the per-world value of a subsystem, creating it with mk on
// first use.
func Ext[T any](w *World, name string, mk func() *T) *T {
	w.extMu.Lock()
	defer w.extMu.Unlock()
	if v, ok := w.ext[name]; ok {
		return v.(*T)
	}
	v := mk()
	w.ext[name] = v
	return v
}

// Lookup returns the per-world value of a subsystem, or nil when it was
// never made (a reader that must not start the subsystem).
func Lookup[T any](w *World, name string) *T {
	w.extMu.Lock()
	defer w.extMu.Unlock()
	if v, ok := w.ext[name]; ok {
		return v.(*T)
	}
	return nil
}

// Close stops the world's background work.
func (w *World) Close() {
	w.stopOnce.Do(func() { close(w.stop) })
	<-w.loopDone
	w.extMu.Lock()
	exts := make([]any, 0, len(w.ext))
	for _, v := range w.ext {
		exts = append(exts, v)
	}
	w.extMu.Unlock()
	for _, v := range exts {
		if c, ok := v.(interface{ Close() }); ok {
			c.Close()
		}
	}
}

// Stopped is closed when the world is closing.
func (w *World) Stopped() <-chan struct{} { return w.stop }

// ErrNotFake is returned when an operation needs a fake clock.
var ErrNotFake = errors.New("the world's clock is real; only a fake clock can be advanced")

// Import installs an imported database. A fake clock resumes at now (the
// same clock object moves, so that timers others hold on it stay valid); a
// real clock keeps the wall time.
func (w *World) Import(db *memdb.MemDB, mode ClockMode, now time.Time) error {
	if err := checkMode(mode); err != nil {
		return err
	}
	if err := CheckInstant(now); err != nil {
		return fmt.Errorf("clock.now: %w", err)
	}
	w.advanceMu.Lock()
	defer w.advanceMu.Unlock()
	w.clockMu.RLock()
	fake := w.fake
	w.clockMu.RUnlock()
	if fake != nil {
		fake.Advance(now.Sub(fake.Now()))
		w.movePinned(fake.Now().UTC())
	}
	w.Store.Replace(db)
	w.Rate.Reset()
	w.notifyAll()
	return nil
}
