package sigreq

import (
	"strings"
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// worldAddressesExt names the per-world memo of addresses.
const worldAddressesExt = "sigreq.addresses"

// worldAddresses is the last public base and world address a world's
// requests were created with.
type worldAddresses struct {
	mu          sync.Mutex
	base, world string
}

// addresses returns the public base (c.BaseURL) and the world's address
// (c.WorldURL("") without its trailing slash) as one pair of strings per
// world for as long as calls come through the same base: every request row
// keeps both, and rows that share one copy keep the text once, without
// each creation looking up an earlier row to share it with. The world
// address begins with the base, and the base answered is that beginning.
func addresses(c *api.Call) (base, worldAddress string) {
	base = c.BaseURL()
	memo := world.Ext(c.World, worldAddressesExt, func() *worldAddresses { return &worldAddresses{} })
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if memo.base != base {
		memo.world = strings.TrimSuffix(c.WorldURL(""), "/")
		memo.base = memo.world[:len(base)]
	}
	return memo.base, memo.world
}

// SetAddresses gives the spec the public base and the world's address of
// the call (see addresses), which the request's URLs are built from.
func (spec *Spec) SetAddresses(c *api.Call) {
	spec.BaseURL, spec.WorldURL = addresses(c)
}
