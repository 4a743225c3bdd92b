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
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/mailrelay"
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
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
	host    *api.Host
	cfg     config
	handler http.Handler

	closeOnce sync.Once
	// persist is the data directory, when there is one (persist.go).
	persist persistence
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
	client, err := outboundClient(&cfg)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	set, err := fixtureload.Load(cfg.fixtures)
	if err != nil {
		if cfg.fixturesDir != "" {
			err = optionError("WithFixturesDir", fmt.Errorf("%s: %w", cfg.fixturesDir, err))
		}
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s := &Sandbox{cfg: cfg}
	var worldMade func(id string)
	if cfg.idle != nil {
		worldMade = cfg.idle.touch
	}
	h := api.NewHost(api.HostConfig{
		Log:               cfg.logger,
		Fixtures:          set,
		Reg:               newRegistry(),
		Budget:            state.NewBudget(cfg.maxStoredBytes),
		Client:            client,
		BaseURL:           cfg.baseURL,
		Seed:              cfg.runtimeSeed(),
		APIKey:            cfg.apiKey,
		Offline:           cfg.offline,
		MaxWorlds:         cfg.maxWorlds,
		RandomCredentials: cfg.randomCredentials,
		Shard:             cfg.shard,
		WorldMade:         worldMade,
		WorldAdded:        s.worldAdded,
		WorldDropped:      s.worldDropped,
		NotReady:          s.notReady,
		Gauges:            s.persistenceGauges,
	})
	s.host = h
	if cfg.smtpRelay != "" {
		// The one area only some sandboxes have: the relay's workers run
		// only where the operator named a mail server.
		mailrelay.Register(h.Reg(), cfg.smtpRelay)
	}
	for _, edit := range cfg.registryEdits {
		edit(h.Reg())
	}
	if err := s.openData(); err != nil {
		return nil, optionError("WithDataDir", err)
	}
	h.NewRouter()
	hd := h.Routes()
	hd = h.Recoverer(hd)
	for i := len(cfg.middleware) - 1; i >= 0; i-- {
		hd = cfg.middleware[i](hd)
	}
	s.handler = edge.Guard(hd, edge.Config{BaseURL: cfg.baseURL, AllowedHosts: cfg.allowedHosts, AdminToken: cfg.adminToken})

	mode := world.ClockMode(cfg.clockMode)
	def, err := h.NewWorld(api.WorldSpec{ID: "default", Seed: cfg.seed, Mode: mode, Start: cfg.start, Clock: cfg.clock})
	if err != nil {
		s.Close() // releases the data directory
		return nil, err
	}
	h.SetDefaultWorld(def)
	if err := s.restoreWorlds(); err != nil {
		s.Close()
		return nil, optionError("WithDataDir", err)
	}
	for _, sc := range s.startScenarios() {
		if _, err := scenarioworld.LoadSource(h, def, sc.name, sc.data, nil); err != nil {
			s.Close()
			return nil, scenarioError(sc.name, err)
		}
	}
	if cfg.record != "" {
		if err := recording.StartFile(def, cfg.record, cfg.recordCredentials); err != nil {
			s.Close()
			return nil, optionError("WithRecording", fmt.Errorf("sandbox: %w", err))
		}
	}
	if cfg.idle != nil {
		cfg.idle.start(h)
	}
	return s, nil
}

// ServeHTTP serves the API, the OAuth endpoints and the control plane.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close stops the background work of every world.
func (s *Sandbox) Close() {
	s.closeOnce.Do(func() {
		if s.cfg.idle != nil {
			s.cfg.idle.close()
		}
		for _, w := range s.host.Worlds() {
			w.Close()
		}
		s.closeData()
	})
}

// DefaultAPIKey is the primary API key of the default world's first account.
func (s *Sandbox) DefaultAPIKey() string {
	return state.PrimaryKeyOf(s.host.DefaultWorld().Store.Read(), s.host.FirstAccountID())
}

// OperationID returns the official operationId a request is routed to, or ""
// (used by the conformance tests to pick the schema of a response).
func (s *Sandbox) OperationID(r *http.Request) string { return s.host.OperationID(r) }
