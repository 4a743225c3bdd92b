package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

var warnOnce sync.Once

// controlSpec is the control plane's own description, loaded once for the
// whole package: every control answer of every test is checked against it.
var controlSpec = sync.OnceValues(func() (*conformance.ControlSpec, error) {
	return conformance.LoadControl(console.ControlPlaneDescription().Body)
})

// newServer starts a test server whose every API response is validated
// against the official OpenAPI description (when it is beside the checkout).
func newServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	return newCheckedServer(t, false, opts...)
}

// newCheckedServer is newServer; with injected5xx, answers of 500 and above
// are left unchecked, because scenario rules can inject statuses (503, 500)
// the official description does not list. Everything else is checked.
func newCheckedServer(t *testing.T, injected5xx bool, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t, opts...)
	checkControlAnswers(t, srv, injected5xx)
	spec := conformance.LoadIfPresent()
	if spec == nil {
		warnOnce.Do(func() {
			t.Logf("conformance checks off: official OpenAPI description not found at %s", conformance.Path())
		})
		return srv
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		op := srv.Sandbox.OperationID(req)
		if op == "" || injected5xx && resp.StatusCode >= 500 {
			return
		}
		if err := spec.Validate(op, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("conformance: %s %s: %v\nbody: %.800s", req.Method, req.URL.Path, err, body)
		}
	})
	return srv
}

// newControlCheckedServer is a plain sandboxtest server (for tests that
// need one without the official checks) whose control answers are still
// validated against /_sandbox/openapi.yaml.
func newControlCheckedServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t, opts...)
	checkControlAnswers(t, srv, false)
	return srv
}

// checkControlAnswers validates every /_sandbox/ answer the server gives
// against /_sandbox/openapi.yaml, so that the description a client is
// generated from stays true to every control call the suite makes. Calls it
// does not describe (pages, assets) are left alone; with injected5xx,
// answers of 500 and above are too, as for the official description.
func checkControlAnswers(t *testing.T, srv *sandboxtest.Server, injected5xx bool) {
	t.Helper()
	spec, err := controlSpec()
	if err != nil {
		t.Fatalf("control plane description: %v", err)
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		if injected5xx && resp.StatusCode >= 500 {
			return
		}
		if _, err := spec.Validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("control description: %v\nbody: %.800s", err, body)
		}
	})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func itoa(i int) string { return strconv.Itoa(i) }
