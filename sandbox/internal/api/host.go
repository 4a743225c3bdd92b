package api

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

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/credentials"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Host serves the operations and control calls of one Sandbox: its
// registry, its worlds and what their calls share. Its fields are set once,
// by NewHost from a HostConfig, and read through accessors: no area can
// change what another reads.
type Host struct {
	log      *slog.Logger
	fixtures *fixtureload.Set
	reg      *Registry
	budget   *state.Budget
	client   *http.Client
	router   *mux.Router
	// routeOps names the operation of each API route (read-only after New).
	routeOps map[*mux.Route]string
	// routes is Router's fast path (see routeIndex), built with it.
	routes *routeIndex

	baseURL           string
	seed              string
	apiKey            string
	offline           bool
	maxWorlds         int
	randomCredentials bool
	shard             string

	worldMade    func(id string)
	worldAdded   func(w *world.World, spec WorldSpec) error
	worldDropped func(w *world.World)
	notReady     func() string
	gauges       func() []metrics.Family

	mu           sync.RWMutex
	worlds       map[string]*world.World
	order        []*world.World // creation order, for credential lookups
	created      int            // worlds created so far (seeds the next one)
	defaultWorld *world.World
	// creds finds the world of a credential (and the deleted world of one
	// that no longer has any).
	creds credentials.Index
}

// WorldSeed derives the seed of the n-th world created at run time.
func WorldSeed(base string, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/world/%d", base, n)))
	return hex.EncodeToString(sum[:16])
}

// NewWorld creates, seeds and registers a world.
func (s *Host) NewWorld(spec WorldSpec) (*world.World, error) {
	opts := world.Options{
		ID: spec.ID, Seed: spec.Seed, Mode: spec.Mode, Start: spec.Start, Jobs: s.reg.jobs, Logger: s.log,
		Clock: spec.Clock, Init: s.SeedFunc(spec.Derive), Secrets: s.secretSource(spec),
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
	if s.worlds == nil {
		s.worlds = map[string]*world.World{}
	}
	s.worlds[spec.ID] = w
	s.order = append(s.order, w)
	s.mu.Unlock()
	if s.worldAdded != nil {
		if err := s.worldAdded(w, spec); err != nil {
			s.DropWorld(w)
			return nil, err
		}
	}
	return w, nil
}

// SeedFunc writes the fixtures into a new (or reset) world.
func (s *Host) SeedFunc(derive bool) func(tx *state.Txn) error {
	return func(tx *state.Txn) error {
		o := fixtureload.ApplyOptions{DeriveKeys: derive}
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

// CountCreated raises the count of worlds created so far to at least n
// (the worlds a data directory made before a restart), so that the next
// world gets a fresh id and seed.
func (s *Host) CountCreated(n int) {
	s.mu.Lock()
	s.created = max(s.created, n)
	s.mu.Unlock()
}

// CreateWorld makes a fresh world from the fixtures (POST /_sandbox/worlds).
func (s *Host) CreateWorld(mode world.ClockMode, start time.Time) (*world.World, error) {
	return s.CreateWorldSeeded(mode, start, "")
}

// CreateWorldSeeded makes a fresh world; an explicit seed makes its
// credentials follow the seed (tests that want them fixed), none makes
// them random under WithRandomCredentials.
func (s *Host) CreateWorldSeeded(mode world.ClockMode, start time.Time, seed string) (*world.World, error) {
	s.mu.Lock()
	if max := s.maxWorlds; max > 0 && len(s.order)-1 >= max {
		s.mu.Unlock()
		return nil, apierr.Conflictf("This sandbox already holds %d worlds, its limit; DELETE /_sandbox/world with a world's key removes one.", max)
	}
	s.created++
	n := s.created
	s.mu.Unlock()
	spec := WorldSpec{ID: s.runtimeWorldID(n), Number: n, Seed: WorldSeed(s.seed, n), Mode: mode, Start: start, Derive: true, Random: seed == "" && s.randomCredentials}
	if seed != "" {
		spec.Seed = seed
	}
	return s.NewWorld(spec)
}

// DropWorld removes a world: one deleted, one freed for idling, one that
// failed to initialize.
func (s *Host) DropWorld(w *world.World) {
	s.mu.Lock()
	delete(s.worlds, w.ID)
	for i, o := range s.order {
		if o == w {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	s.creds.Forget(w)
	w.Close()
	w.Store.Release()
	if s.worldDropped != nil {
		s.worldDropped(w)
	}
}

// World returns a world by id.
func (s *Host) World(id string) *world.World {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.worlds[id]
}

// FirstAccountID is every world's first account: the first of the
// fixtures, the default caller whose credentials WorldInfo reports.
func (s *Host) FirstAccountID() string { return s.fixtures.Accounts[0].ID }

// PublicBase is the scheme and host the sandbox's own URLs use.
func (s *Host) PublicBase(r *http.Request) string {
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

// Worlds lists the worlds in creation order.
func (s *Host) Worlds() []*world.World {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]*world.World(nil), s.order...)
}

// FindWorld returns the first world (in creation order) for which match
// holds: calls find their world by what they carry (credentials, an OAuth
// code or refresh token).
func (s *Host) FindWorld(match func(*world.World) bool) *world.World {
	for _, w := range s.Worlds() {
		if match(w) {
			return w
		}
	}
	return nil
}
