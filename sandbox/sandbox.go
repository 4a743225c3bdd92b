// Package sandbox is a high-fidelity, in-memory stand-in for the Dropbox Sign
// (formerly HelloSign) API v3. A *Sandbox is an http.Handler: serve it with
// net/http, mount it in httptest, or run the signsandbox binary.
//
// All state lives in worlds (see POST /_sandbox/worlds); each world has its
// own database, clock, scheduler and ID sequence, and requests reach the
// world of their credentials. The /_sandbox/ control plane moves clocks, acts
// as signers, inspects callbacks and e-mails, and loads scenarios.
package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixture"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// DefaultSeed seeds the ID sequences when no seed is given.
const DefaultSeed = "signsandbox"

// Sandbox is the API server. It is safe for concurrent use.
type Sandbox struct {
	// host is the request pipeline and the world registry every handler
	// reaches; the Sandbox adds what only the embedding program sets up:
	// options, the data directory, the idle-world janitor, the HTTP edge.
	host    *host
	cfg     config
	handler http.Handler

	closeOnce sync.Once
	// persist is the data directory, when there is one (persist.go).
	persist persistence
}

// host serves the operations and control calls of one Sandbox: its
// registry, its worlds and what their calls share.
type host struct {
	log      *slog.Logger
	fixtures *fixture.Set
	jobs     *world.JobRegistry
	// reg is what this sandbox serves and runs (operations, control
	// routes, job kinds, hooks); read-only after New, except that a test
	// bridge may swap a fault point of its own sandbox (CallbacksSetFault).
	reg *registry
	// budget bounds the file bytes of all the worlds together
	// (WithMaxStoredBytes); every world's store counts in it.
	budget *state.Budget
	client *http.Client
	router *mux.Router
	// routeOps names the operation of each API route (read-only after New).
	routeOps map[*mux.Route]string

	// The options the pipeline and the world registry read.
	baseURL           string
	seed              string
	apiKey            string
	offline           bool
	maxWorlds         int
	randomCredentials bool
	shard             string

	// The facade's part in a world's life (all optional): worldMade when a
	// world is made, before it starts (the idle janitor's clock);
	// worldAdded once it is registered (the data directory); worldDropped
	// once it is gone.
	worldMade    func(id string)
	worldAdded   func(w *world.World, spec worldSpec) error
	worldDropped func(w *world.World)
	// notReady says why the server cannot serve its worlds ("" when it
	// can); gauges are the facade's metrics beside the worlds'.
	notReady func() string
	gauges   func() []metrics.Family

	mu       sync.RWMutex
	worlds   map[string]*world.World
	order    []*world.World // creation order, for credential lookups
	created  int            // worlds created so far (seeds the next one)
	defWorld *world.World
	// creds caches credentialKey -> world (see findCredential); entries
	// are checked on use, so a stale one (a deleted key, a refreshed token)
	// only costs a fallback scan and is dropped then.
	creds sync.Map
}

// New creates a Sandbox with its default world seeded from the fixtures.
func New(opts ...Option) (*Sandbox, error) {
	cfg := config{seed: DefaultSeed, clockMode: "fake", maxWorlds: DefaultMaxWorlds, maxStoredBytes: DefaultMaxStoredBytes}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if cfg.fixtures == nil {
		cfg.fixtures = fixtures.FS
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	if cfg.httpClient == nil {
		cfg.httpClient = &http.Client{Timeout: 30 * time.Second, CheckRedirect: noRedirects}
	}
	set, err := fixture.Load(cfg.fixtures)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	h := &host{
		log:               cfg.logger,
		fixtures:          set,
		jobs:              world.NewJobRegistry(),
		reg:               newRegistry(),
		budget:            state.NewBudget(cfg.maxStoredBytes),
		client:            cfg.httpClient,
		worlds:            map[string]*world.World{},
		routeOps:          map[*mux.Route]string{},
		baseURL:           cfg.baseURL,
		seed:              cfg.seed,
		apiKey:            cfg.apiKey,
		offline:           cfg.offline,
		maxWorlds:         cfg.maxWorlds,
		randomCredentials: cfg.randomCredentials,
		shard:             cfg.shard,
	}
	s := &Sandbox{host: h, cfg: cfg}
	h.worldAdded = s.worldAdded
	h.worldDropped = s.worldDropped
	h.notReady = s.notReady
	h.gauges = s.persistenceGauges
	if cfg.idle != nil {
		h.worldMade = cfg.idle.touch
	}
	for _, edit := range cfg.registryEdits {
		edit(h.reg)
	}
	registerJobs(h)
	if err := s.openData(); err != nil {
		return nil, err
	}
	h.router = h.newRouter()
	var hd http.Handler = h.router
	hd = h.recoverer(hd)
	for i := len(cfg.middleware) - 1; i >= 0; i-- {
		hd = cfg.middleware[i](hd)
	}
	s.handler = edge.Guard(hd, edge.Config{BaseURL: cfg.baseURL, AllowedHosts: cfg.allowedHosts, AdminToken: cfg.adminToken})

	mode := world.ClockMode(cfg.clockMode)
	def, err := h.newWorld(worldSpec{ID: "default", Seed: cfg.seed, Mode: mode, Start: cfg.start, Clock: cfg.clock})
	if err != nil {
		s.Close() // releases the data directory
		return nil, err
	}
	h.defWorld = def
	if err := s.restoreWorlds(); err != nil {
		s.Close()
		return nil, err
	}
	for _, sc := range s.startScenarios() {
		if _, err := loadScenarioSource(h, def, sc.name, sc.data, nil); err != nil {
			s.Close()
			return nil, fmt.Errorf("sandbox: scenario %s: %w", sc.name, err)
		}
	}
	if cfg.record != "" {
		if err := startFileRecording(h, def, cfg.record); err != nil {
			s.Close()
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if cfg.idle != nil {
		cfg.idle.start(h)
	}
	return s, nil
}

// noRedirects keeps the callback and file fetch clients from following
// redirects: a receiver that redirects has not acknowledged the event.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// ServeHTTP serves the API, the OAuth endpoints and the control plane.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close stops the background work of every world.
func (s *Sandbox) Close() {
	s.closeOnce.Do(func() {
		if s.cfg.idle != nil {
			s.cfg.idle.close()
		}
		for _, w := range s.host.worldsSnapshot() {
			w.Close()
		}
		s.closeData()
	})
}

// worldSeed derives the seed of the n-th world created at run time.
func worldSeed(base string, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/world/%d", base, n)))
	return hex.EncodeToString(sum[:16])
}

// newWorld creates, seeds and registers a world.
func (s *host) newWorld(spec worldSpec) (*world.World, error) {
	opts := world.Options{
		ID: spec.ID, Seed: spec.Seed, Mode: spec.Mode, Start: spec.Start, Jobs: s.jobs, Logger: s.log,
		Clock: spec.Clock, Init: s.seedFunc(spec.Derive), Secrets: s.secretSource(spec),
	}
	w, err := world.New(opts)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if err := s.admitWorld(w, spec); err != nil {
		w.Close()
		return nil, err
	}
	w.Store.SetBudget(s.budget)
	if s.worldMade != nil {
		s.worldMade(w.ID) // its idle time starts when it is made
	}
	s.startWorld(w)
	s.mu.Lock()
	s.worlds[spec.ID] = w
	s.order = append(s.order, w)
	s.mu.Unlock()
	if s.worldAdded != nil {
		if err := s.worldAdded(w, spec); err != nil {
			s.dropWorld(w)
			return nil, err
		}
	}
	return w, nil
}

// seedFunc writes the fixtures into a new (or reset) world.
func (s *host) seedFunc(derive bool) func(tx *state.Txn) error {
	return func(tx *state.Txn) error {
		o := fixture.ApplyOptions{DeriveKeys: derive}
		if !derive {
			o.PrimaryKey = s.apiKey
		}
		if err := s.fixtures.Apply(tx, o); err != nil {
			return err
		}
		if s.offline {
			c := state.GetConfig(tx)
			c.FetchFileURLs = false
			return state.PutConfig(tx, c)
		}
		return nil
	}
}

// createWorld makes a fresh world from the fixtures (POST /_sandbox/worlds).
func (s *host) createWorld(mode world.ClockMode, start time.Time) (*world.World, error) {
	return s.createWorldSeeded(mode, start, "")
}

// createWorldSeeded makes a fresh world; an explicit seed makes its
// credentials follow the seed (tests that want them fixed), none makes
// them random under WithRandomCredentials.
func (s *host) createWorldSeeded(mode world.ClockMode, start time.Time, seed string) (*world.World, error) {
	s.mu.Lock()
	if max := s.maxWorlds; max > 0 && len(s.order)-1 >= max {
		s.mu.Unlock()
		return nil, apierr.Conflictf("This sandbox already holds %d worlds, its limit; DELETE /_sandbox/world with a world's key removes one.", max)
	}
	s.created++
	n := s.created
	s.mu.Unlock()
	spec := worldSpec{ID: s.runtimeWorldID(n), Number: n, Seed: worldSeed(s.seed, n), Mode: mode, Start: start, Derive: true, Random: seed == "" && s.randomCredentials}
	if seed != "" {
		spec.Seed = seed
	}
	return s.newWorld(spec)
}

// dropWorld removes a world that failed to initialize.
func (s *host) dropWorld(w *world.World) {
	s.mu.Lock()
	delete(s.worlds, w.ID)
	for i, o := range s.order {
		if o == w {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	// Cached credentials of the world must not reach it any more.
	s.creds.Range(func(k, v any) bool {
		if v == w {
			s.creds.Delete(k)
		}
		return true
	})
	w.Close()
	w.Store.Release()
	if s.worldDropped != nil {
		s.worldDropped(w)
	}
}

// world returns a world by id.
func (s *host) world(id string) *world.World {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.worlds[id]
}

// DefaultAPIKey is the primary API key of the default world's first account.
func (s *Sandbox) DefaultAPIKey() string {
	return state.PrimaryKeyOf(s.host.defWorld.Store.Read(), s.host.firstAccountID())
}

// firstAccountID is every world's first account: the first of the
// fixtures, the default caller whose credentials WorldInfo reports.
func (s *host) firstAccountID() string { return s.fixtures.Accounts[0].ID }

// publicBase is the scheme and host the sandbox's own URLs use.
func (s *host) publicBase(r *http.Request) string {
	if s.baseURL != "" {
		return strings.TrimSuffix(s.baseURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if host == "" {
		host = "localhost"
	}
	return scheme + "://" + host
}

// worldsSnapshot lists the worlds in creation order.
func (s *host) worldsSnapshot() []*world.World {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]*world.World(nil), s.order...)
}

// findWorld returns the first world (in creation order) for which match
// holds: calls find their world by what they carry (credentials, an OAuth
// code or refresh token).
func (s *host) findWorld(match func(*world.World) bool) *world.World {
	for _, w := range s.worldsSnapshot() {
		if match(w) {
			return w
		}
	}
	return nil
}
