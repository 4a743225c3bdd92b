package sandbox_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Fixture identities of the default world (org_helpers_test.go holds the
// literals).
const (
	cbOwnerID     = orgOwnerID
	cbTeammateID  = orgTeammateID
	cbTeammateKey = orgTeammateKey
	cbOutsiderID  = orgOutsiderID
	cbAppID       = orgAppClientID
	cbAppSecret   = "5e4b2b4c9d4f4a0e8f7c6b5a49382716"
)

// newCBReceiver starts a receiver whose every delivery is checked against the
// official EventCallbackRequest schema (when the description is present)
// and must be the one-field multipart form the real service sends.
func newCBReceiver(t *testing.T) *sandboxtest.Receiver {
	t.Helper()
	rcv := sandboxtest.NewReceiver(t)
	spec := conformance.LoadIfPresent()
	rcv.OnDelivery(func(d sandboxtest.Delivery) {
		if d.Err != nil {
			t.Errorf("callback delivery does not decode: %v (content type %q)", d.Err, d.ContentType)
			return
		}
		if len(d.Fields) != 1 || d.Fields[0] != "json" {
			t.Errorf("callback delivery fields = %v, want exactly [json]", d.Fields)
		}
		if spec != nil {
			if err := spec.ValidateSchema("EventCallbackRequest", []byte(d.JSON)); err != nil {
				t.Errorf("callback payload does not conform: %v\npayload: %.800s", err, d.JSON)
			}
		}
	})
	return rcv
}

// cbSetCallbackURL sets the caller's account callback URL through the API.
func cbSetCallbackURL(t *testing.T, srv *sandboxtest.Server, key, url string) {
	t.Helper()
	r := srv.DoAs(key, http.MethodPut, "/v3/account", map[string]any{"callback_url": url})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// cbEmit emits test events in the default world.
func cbEmit(t *testing.T, srv *sandboxtest.Server, evs ...sandbox.CallbacksTestEvent) {
	t.Helper()
	require.NoError(t, sandbox.CallbacksEmit(srv.Sandbox, "", evs...))
}

// cbRequestEvent is an event about a signature request that involves the
// owner (no attached object: the request views are not needed here).
func cbRequestEvent(typ string) sandbox.CallbacksTestEvent {
	return sandbox.CallbacksTestEvent{Type: typ, AccountIDs: []string{cbOwnerID}, RelatedSignatureID: "sig-" + typ}
}

// cbAttemptOffsets lists the At of every attempt of a delivery, relative to t0.
func cbAttemptOffsets(d sandboxtest.CallbackDelivery, t0 int64) []int64 {
	var out []int64
	for _, a := range d.Attempts {
		out = append(out, a.At-t0)
	}
	return out
}
