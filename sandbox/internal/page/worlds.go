package page

// Which world a page URL belongs to. The URLs the sandbox hands out (sign
// and details pages, file URLs, claim and editor pages, report and team
// invitation links) name the world they were issued in:
// /_sandbox/w/{world}/... . They are stored with the objects (requests keep
// their world URL, the outbox keeps its links), so a world's export carries
// them byte for byte, and a world imported from another world's export
// (another sandbox's, a recording replayed in-process) still holds URLs
// naming the world it came from. Pages therefore use the world the URL
// names when it holds the page's token or object, and otherwise the world
// that does. Tokens are secrets and ids come from each world's own seeded
// sequence, so two worlds of one sandbox hold the same one only if one is
// a copy of the other, and a copy cannot live beside its original (their
// API keys would collide: checkKeysFree).

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// WorldFor resolves a page's world: the world named id when it holds
// what the page is about, else the first world (in creation order) that
// does, else the named world (nil when there is none), whose own answer
// (404, expired, ...) the page then gives.
func WorldFor(s *api.Host, id string, holds func(tx *state.Txn) bool) *world.World {
	named := s.World(id)
	if named != nil && holds(named.Store.Read()) {
		return named
	}
	if w := s.FindWorld(func(w *world.World) bool { return w != named && holds(w.Store.Read()) }); w != nil {
		return w
	}
	return named
}

// HoldsRow reports whether a world has the row id in table.
func HoldsRow[T any](table, id string) func(tx *state.Txn) bool {
	return func(tx *state.Txn) bool {
		_, err := state.Get[T](tx, table, id)
		return err == nil
	}
}
