// Package credentials finds the world a credential (an API key or an
// OAuth access token) belongs to, through a cache that follows the worlds'
// database snapshots, and remembers which deleted world a credential
// belonged to, so that a refused call can say why. It knows worlds and
// their tables, not HTTP.
package credentials

import (
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Index finds credentials in worlds and remembers where. The zero value
// is ready.
type Index struct {
	// cache maps key -> *Found; entries are checked on use, so a stale
	// one (a deleted key, a refreshed token) only costs a fallback scan
	// and is dropped then.
	cache  sync.Map
	graves graves
}

// key names a credential in the cache: the table it is stored in (API
// keys, OAuth tokens) and its value.
type key struct{ table, id string }

// Found is a credential as its world held it in one snapshot of its
// database: the world, the stored row (an API key or an OAuth token) and
// the row of its account (nil when there is none). A call whose world
// still serves that snapshot takes them from the cache instead of reading
// both rows again; the snapshot is held weakly, so that the cache never
// keeps an old database alive.
type Found struct {
	World   *world.World
	Key     *model.APIKey
	Token   *model.OAuthToken
	Account *model.Account
	snap    state.SnapshotRef
}

// read reads a credential and its account in one snapshot of w (nil when
// w does not hold it).
func read(w *world.World, tx *state.Txn, table, id string) *Found {
	found := &Found{World: w, snap: tx.Snapshot()}
	var accountID string
	switch table {
	case state.TableAPIKeys:
		k, err := state.Get[model.APIKey](tx, table, id)
		if err != nil {
			return nil
		}
		found.Key, accountID = k, k.AccountID
	default:
		tok, err := state.Get[model.OAuthToken](tx, table, id)
		if err != nil {
			return nil
		}
		found.Token, accountID = tok, tok.AccountID
	}
	if acct, err := state.Get[model.Account](tx, state.TableAccounts, accountID); err == nil {
		found.Account = acct
	}
	return found
}

// Find looks a credential (the row id in table: state.TableAPIKeys or
// state.TableOAuthToken) up in the world the cache remembers for it first,
// then in every world in the order worlds lists them, and remembers where
// it was found. What the cache holds is used as it is while the world's
// database is the snapshot it was read from, and read again after any
// commit. A cached world that no longer holds the credential loses its
// entry. Nil when no world holds it.
func (ix *Index) Find(table, id string, worlds func() []*world.World) *Found {
	ck := key{table, id}
	if v, ok := ix.cache.Load(ck); ok {
		cached := v.(*Found)
		tx := cached.World.Store.Read()
		if cached.snap.Reads(tx) {
			return cached
		}
		if found := read(cached.World, tx, table, id); found != nil {
			ix.cache.Store(ck, found)
			return found
		}
		ix.cache.CompareAndDelete(ck, cached)
	}
	for _, w := range worlds() {
		if found := read(w, w.Store.Read(), table, id); found != nil {
			ix.cache.Store(ck, found)
			return found
		}
	}
	return nil
}

// Forget is told that w is being dropped: its cached credentials must not
// reach it any more, and the graves remember where they lived.
func (ix *Index) Forget(w *world.World) {
	ix.graves.bury(w)
	ix.cache.Range(func(k, v any) bool {
		if v.(*Found).World == w {
			ix.cache.Delete(k)
		}
		return true
	})
}

// DeletedWorld returns the id of the deleted world that held a credential
// ("" when no deleted world remembered here did).
func (ix *Index) DeletedWorld(table, id string) string { return ix.graves.worldOf(table, id) }
