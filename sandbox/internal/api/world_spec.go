package api

import (
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/secret"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// WorldSpec is everything a world is made from: what NewWorld needs, and
// what a data directory keeps to make the same world again on restart.
type WorldSpec struct {
	ID    string
	Seed  string
	Mode  world.ClockMode
	Start time.Time
	// Clock is a clock the embedding program gave (default world only).
	Clock clockwork.Clock
	// Derive gives the world keys of its own instead of the fixture keys.
	Derive bool
	// Random draws the world's secrets from crypto/rand (worlds created at
	// run time without an explicit seed); otherwise they follow the seed.
	Random bool
	// Number is the world's place in creation order (0: the default world).
	Number int
}

// secretSource is where a world's secrets come from: nil (its seed) for
// the default world and worlds created with an explicit seed, random ones
// carrying the server's shard tag otherwise.
func (s *Host) secretSource(spec WorldSpec) func() string {
	if !spec.Random {
		return nil
	}
	return secret.Source(s.shard)
}

// admitWorld refuses a new world whose first key another world already
// holds: two worlds created with the same explicit seed would share their
// credentials, and the second could never be reached.
func (s *Host) admitWorld(w *world.World, spec WorldSpec) error {
	if spec.ID == "default" {
		return nil
	}
	key := state.PrimaryKeyOf(w.Store.Read(), s.FirstAccountID())
	if other, _ := s.FindAPIKey(key); other != nil {
		return apierr.Conflictf("World %s already has the credentials seed %q gives; choose another seed (or none, for random credentials).", other.ID, spec.Seed)
	}
	return nil
}

// runtimeWorldID names the n-th world created at run time: "w<n>", or
// "<shard>-w<n>" under WithShard, so that the page and file URLs of a
// world (/_sandbox/w/<id>/...) tell a router its server as its
// credentials do, and two servers never hand out the same world id.
func (s *Host) runtimeWorldID(n int) string {
	if s.shard != "" {
		return fmt.Sprintf("%s-w%d", s.shard, n)
	}
	return fmt.Sprintf("w%d", n)
}
