package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// withRegistry lets a test change its own sandbox's registry before the
// router is built: take a handler away, add a job kind or a file owner,
// swap a fault point. Other sandboxes in the test binary keep theirs.
func withRegistry(fn func(r *registry)) Option {
	return func(cfg *config) error {
		cfg.registryEdits = append(cfg.registryEdits, fn)
		return nil
	}
}

// TestRegistryBelongsToOneSandbox: every sandbox registers its own
// operations and hooks, so a test that takes a handler away or swaps a
// fault point changes its own sandbox and no other in the process.
func TestRegistryBelongsToOneSandbox(t *testing.T) {
	a := optSandbox(t, withRegistry(func(r *registry) { delete(r.handlers, "accountVerify") }))
	b := optSandbox(t)
	require.NotSame(t, a.host.reg, b.host.reg)
	assert.Nil(t, a.host.reg.handlers["accountVerify"])
	assert.NotNil(t, b.host.reg.handlers["accountVerify"], "the other sandbox keeps its handler")

	swapped := 0
	areasOf(a.host.reg).callbackFault = func(*host, *world.World, CallbackAttempt) (CallbackFault, string) {
		swapped++
		return FaultNone, ""
	}
	fault, _ := areasOf(b.host.reg).callbackFault(b.host, b.host.defWorld, CallbackAttempt{})
	assert.Equal(t, FaultNone, fault)
	assert.Zero(t, swapped, "b's deliveries never consult a's fault point")
	assert.Len(t, b.host.reg.controlRoutes, len(productRegistry().controlRoutes))
}
