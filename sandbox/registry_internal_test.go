package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// withRegistry lets a test change its own sandbox's registry before the
// router is built: take a handler away, add a job kind or a file owner,
// swap a fault point. Other sandboxes in the test binary keep theirs.
func withRegistry(fn func(r *api.Registry)) Option {
	return func(cfg *config) error {
		cfg.registryEdits = append(cfg.registryEdits, fn)
		return nil
	}
}

// TestRegistryBelongsToOneSandbox: every sandbox registers its own
// operations and hooks, so a test that takes a handler away or swaps a
// fault point changes its own sandbox and no other in the process.
func TestRegistryBelongsToOneSandbox(t *testing.T) {
	a := optSandbox(t, withRegistry(func(r *api.Registry) { delete(r.Handlers, "accountVerify") }))
	b := optSandbox(t)
	require.NotSame(t, a.host.Reg(), b.host.Reg())
	assert.Nil(t, a.host.Reg().Handlers["accountVerify"])
	assert.NotNil(t, b.host.Reg().Handlers["accountVerify"], "the other sandbox keeps its handler")

	swapped := 0
	a.host.Reg().CallbackFault = func(*api.Host, *world.World, CallbackAttempt) (CallbackFault, string) {
		swapped++
		return FaultNone, ""
	}
	fault, _ := b.host.Reg().CallbackFault(b.host, b.host.DefaultWorld(), CallbackAttempt{})
	assert.Equal(t, FaultNone, fault)
	assert.Zero(t, swapped, "b's deliveries never consult a's fault point")
	assert.Len(t, b.host.Reg().ControlRoutes, len(productRegistry().ControlRoutes))
}
