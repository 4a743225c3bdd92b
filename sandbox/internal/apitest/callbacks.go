package apitest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Callbacks: a checked receiver and the account callback URL.

// NewReceiver starts a receiver whose every delivery is checked against the
// official EventCallbackRequest schema (when the description is present)
// and must be the one-field multipart form the real service sends.
func NewReceiver(t *testing.T) *sandboxtest.Receiver {
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

// SetCallbackURL sets the caller's account callback URL through the API.
func SetCallbackURL(t *testing.T, srv *sandboxtest.Server, key, url string) {
	t.Helper()
	r := srv.DoAs(key, http.MethodPut, "/v3/account", map[string]any{"callback_url": url})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
