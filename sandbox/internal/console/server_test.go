package console_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// controlSpec is /_sandbox/openapi.yaml, loaded once for the package.
var controlSpec = sync.OnceValues(func() (*conformance.ControlSpec, error) {
	return conformance.LoadControl(console.ControlPlaneDescription().Body)
})

// newServer is a sandboxtest server whose every described control answer
// (the console's JSON reads included) is validated against
// /_sandbox/openapi.yaml, so the console's tests keep the description true.
func newServer(t *testing.T) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t)
	spec, err := controlSpec()
	if err != nil {
		t.Fatalf("control plane description: %v", err)
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		if _, err := spec.Validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("control description: %v\nbody: %.800s", err, body)
		}
	})
	return srv
}
