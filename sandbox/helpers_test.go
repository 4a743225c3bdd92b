package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

var warnOnce sync.Once

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

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func itoa(i int) string { return strconv.Itoa(i) }
