package sandbox_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// cbEmit emits test events in the default world.
func cbEmit(t *testing.T, srv *sandboxtest.Server, evs ...sandbox.CallbacksTestEvent) {
	t.Helper()
	require.NoError(t, sandbox.CallbacksEmit(srv.Sandbox, "", evs...))
}

// cbRequestEvent is an event about a signature request that involves the
// owner (no attached object: the request views are not needed here).
func cbRequestEvent(typ string) sandbox.CallbacksTestEvent {
	return sandbox.CallbacksTestEvent{Type: typ, AccountIDs: []string{apitest.OwnerID}, RelatedSignatureID: "sig-" + typ}
}

// cbAttemptOffsets lists the At of every attempt of a delivery, relative to t0.
func cbAttemptOffsets(d sandboxtest.CallbackDelivery, t0 int64) []int64 {
	var out []int64
	for _, a := range d.Attempts {
		out = append(out, a.At-t0)
	}
	return out
}
