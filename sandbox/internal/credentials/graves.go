package credentials

import (
	"crypto/sha256"
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// graves remember which world the credentials of deleted worlds belonged
// to, so that the log line of a call refused with one can say "the API
// key's world was deleted" instead of "no world has this API key" (the
// answer is the same 401 either way). They hold a digest of each
// credential, never the credential, and only the most recent maxGraves,
// so that worlds made and deleted all day cannot grow them; a restart
// forgets them.
type graves struct {
	mu    sync.Mutex
	world map[graveKey]string
	ring  []graveKey
	next  int
}

// maxGraves bounds the credentials remembered (about 60 bytes each).
const maxGraves = 4096

// graveKey is a digest of a credential and the table it lived in.
type graveKey [16]byte

func graveKeyOf(table, id string) graveKey {
	sum := sha256.Sum256([]byte(table + "\x00" + id))
	return graveKey(sum[:16])
}

// bury remembers the API keys and access tokens of w, which is being
// deleted.
func (g *graves) bury(w *world.World) { g.remember(w.ID, keysOf(w)) }

// keysOf digests every API key and access token of w.
func keysOf(w *world.World) []graveKey {
	tx := w.Store.Read()
	var keys []graveKey
	for _, table := range []string{state.TableAPIKeys, state.TableOAuthToken} {
		it, err := tx.Get(table, state.IndexID)
		if err != nil {
			continue
		}
		for obj := it.Next(); obj != nil; obj = it.Next() {
			switch row := obj.(type) {
			case *model.APIKey:
				keys = append(keys, graveKeyOf(table, row.Key))
			case *model.OAuthToken:
				keys = append(keys, graveKeyOf(table, row.AccessToken))
			}
		}
	}
	return keys
}

// remember notes that the credentials keys belonged to the world id,
// forgetting the oldest beyond maxGraves.
func (g *graves) remember(id string, keys []graveKey) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.world == nil {
		g.world = map[graveKey]string{}
		g.ring = make([]graveKey, 0, maxGraves)
	}
	for _, k := range keys {
		if _, ok := g.world[k]; ok {
			g.world[k] = id
			continue
		}
		if len(g.ring) < maxGraves {
			g.ring = append(g.ring, k)
		} else {
			delete(g.world, g.ring[g.next])
			g.ring[g.next] = k
			g.next = (g.next + 1) % maxGraves
		}
		g.world[k] = id
	}
}

// worldOf answers the id of the deleted world that held a credential (""
// when no deleted world remembered here did).
func (g *graves) worldOf(table, id string) string {
	k := graveKeyOf(table, id)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.world[k]
}
