package api

import (
	"log/slog"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// HostConfig is what a Host is made of: the facade fills it from its
// options (tests with what they need).
type HostConfig struct {
	Log      *slog.Logger
	Fixtures *fixtureload.Set
	// Reg is what the sandbox serves and runs (operations, control routes,
	// job kinds, hooks); NewHost binds its jobs to the Host (bindJobs).
	Reg *Registry
	// Budget bounds the file bytes of all the worlds together
	// (WithMaxStoredBytes); every world's store counts in it.
	Budget *state.Budget
	Client *http.Client

	// The options the pipeline and the world registry read.
	BaseURL           string
	Seed              string
	APIKey            string
	Offline           bool
	MaxWorlds         int
	RandomCredentials bool
	Shard             string

	// The facade's part in a world's life (all optional): WorldMade when a
	// world is made, before it starts (the idle janitor's clock);
	// WorldAdded once it is registered (the data directory); WorldDropped
	// once it is gone. Fields rather than a Registry hook because they are
	// the embedding facade's, which sits above everything and makes the Host.
	WorldMade    func(id string)
	WorldAdded   func(w *world.World, spec WorldSpec) error
	WorldDropped func(w *world.World)
	// NotReady says why the server cannot serve its worlds ("" when it
	// can); Gauges are the facade's metrics beside the worlds'.
	NotReady func() string
	Gauges   func() []metrics.Family
}

// NewHost returns the Host of c, its registry's jobs bound to it. Build its
// router (NewRouter) once every area has registered.
func NewHost(c HostConfig) *Host {
	s := &Host{
		log: c.Log, fixtures: c.Fixtures, reg: c.Reg, budget: c.Budget, client: c.Client,
		baseURL: c.BaseURL, seed: c.Seed, apiKey: c.APIKey, offline: c.Offline, maxWorlds: c.MaxWorlds,
		randomCredentials: c.RandomCredentials, shard: c.Shard,
		worldMade: c.WorldMade, worldAdded: c.WorldAdded, worldDropped: c.WorldDropped,
		notReady: c.NotReady, gauges: c.Gauges,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.reg == nil {
		s.reg = NewRegistry()
	}
	bindJobs(s)
	return s
}

// Log is the sandbox's logger.
func (s *Host) Log() *slog.Logger { return s.log }

// Fixtures are the seed data of every world.
func (s *Host) Fixtures() *fixtureload.Set { return s.fixtures }

// Reg is what this sandbox serves and runs; read-only once New returned,
// except that a test bridge may swap a fault point of its own sandbox
// (CallbacksSetFault).
func (s *Host) Reg() *Registry { return s.reg }

// Budget bounds the file bytes of all the worlds together.
func (s *Host) Budget() *state.Budget { return s.budget }

// Client makes the sandbox's outbound requests (file_urls, callbacks).
func (s *Host) Client() *http.Client { return s.client }

// Router is the router NewRouter built (nil before).
func (s *Host) Router() *mux.Router { return s.router }

// BaseURL is the public base URL the sandbox was given ("" to follow each
// request's host; see PublicBase).
func (s *Host) BaseURL() string { return s.baseURL }

// Seed is the sandbox's seed, from which run-time worlds derive theirs.
func (s *Host) Seed() string { return s.seed }

// APIKey is the default world's primary API key.
func (s *Host) APIKey() string { return s.apiKey }

// Offline reports whether new worlds fetch no file_urls.
func (s *Host) Offline() bool { return s.offline }

// MaxWorlds bounds the run-time worlds (0: no bound).
func (s *Host) MaxWorlds() int { return s.maxWorlds }

// RandomCredentials reports whether run-time worlds get random credentials.
func (s *Host) RandomCredentials() bool { return s.randomCredentials }

// Shard is the shard tag credentials start with ("" for none).
func (s *Host) Shard() string { return s.shard }

// DefaultWorld is the world calls without credentials reach.
func (s *Host) DefaultWorld() *world.World { return s.defaultWorld }

// SetDefaultWorld names the default world: once, after making it and
// before the Host serves a call.
func (s *Host) SetDefaultWorld(w *world.World) { s.defaultWorld = w }

// NotReady says why the server cannot serve its worlds ("" when it can).
func (s *Host) NotReady() string {
	if s.notReady == nil {
		return ""
	}
	return s.notReady()
}

// Gauges are the facade's metrics beside the worlds' (none when it gave no
// function).
func (s *Host) Gauges() []metrics.Family {
	if s.gauges == nil {
		return nil
	}
	return s.gauges()
}
