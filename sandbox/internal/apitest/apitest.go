// Package apitest starts the sandbox for the black-box tests of the
// packages under sandbox/internal: a sandboxtest server whose every answer
// is validated, API answers against the official OpenAPI description (when
// it is beside the checkout; see package conformance) and control answers
// against the sandbox's own /_sandbox/openapi.yaml. A package that only
// registers routes tests them through it, in its own directory.
package apitest

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// controlSpec is the control plane's description, loaded once.
var controlSpec = sync.OnceValues(func() (*conformance.ControlSpec, error) {
	return conformance.LoadControl(console.ControlPlaneDescription().Body)
})

// logOnce says once per test binary that the official checks are off.
var logOnce sync.Once

// NewServer starts a sandbox on a fake clock (sandboxtest.Start) whose
// answers are all checked; a check that fails fails t.
func NewServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	return NewCheckedServer(t, false, opts...)
}

// NewCheckedServer is NewServer; with injected5xx, answers of 500 and above
// are left unchecked, because scenario rules can inject statuses (503, 500)
// the official description does not list. Everything else is checked.
func NewCheckedServer(t *testing.T, injected5xx bool, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t, opts...)
	CheckControlAnswers(t, srv, injected5xx)
	spec := conformance.LoadIfPresent()
	if spec == nil {
		logOnce.Do(func() {
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

// NewControlCheckedServer is a plain sandboxtest server (for tests that
// need one without the official checks, such as the official examples that
// the description itself does not accept) whose control answers are still
// validated against /_sandbox/openapi.yaml.
func NewControlCheckedServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t, opts...)
	CheckControlAnswers(t, srv, false)
	return srv
}

// CheckControlAnswers validates every /_sandbox/ answer the server gives
// against /_sandbox/openapi.yaml, so that the description a client is
// generated from stays true to every control call the tests make. Calls it
// does not describe (pages, assets) are left alone; with injected5xx,
// answers of 500 and above are too, as for the official description.
func CheckControlAnswers(t *testing.T, srv *sandboxtest.Server, injected5xx bool) {
	t.Helper()
	control, err := controlSpec()
	if err != nil {
		t.Fatalf("apitest: control plane description: %v", err)
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		if injected5xx && resp.StatusCode >= 500 {
			return
		}
		if _, err := control.Validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("control description: %v\nbody: %.800s", err, body)
		}
	})
}

// APIError is the content of the official error envelope.
type APIError struct {
	Msg  string `json:"error_msg"`
	Name string `json:"error_name"`
	Path string `json:"error_path"`
}

// ErrorOf returns the error r carries, failing t when r is not a 4xx in the
// official envelope.
func ErrorOf(t *testing.T, r *sandboxtest.Response) APIError {
	t.Helper()
	var env struct {
		Error *APIError `json:"error"`
	}
	if r.Status < 400 || r.Status > 499 || r.JSON(&env) != nil || env.Error == nil {
		t.Fatalf("want a 4xx in the error envelope, got %d %s", r.Status, r.Body)
		return APIError{}
	}
	return *env.Error
}

// ErrorParts decodes the official error envelope of body, failing t when
// there is none, whatever the status.
func ErrorParts(t *testing.T, body []byte) (name, msg, path string) {
	t.Helper()
	var e struct {
		Error APIError `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "body: %s", body)
	require.NotEmpty(t, e.Error.Name, "no error_name in %s", body)
	return e.Error.Name, e.Error.Msg, e.Error.Path
}

// WantError checks an error answer's status, error_name and (when not "")
// error_path.
func WantError(t *testing.T, r *sandboxtest.Response, status int, name, path string) {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	n, _, p := ErrorParts(t, r.Body)
	require.Equal(t, name, n, "%s", r.Body)
	if path != "" {
		require.Equal(t, path, p, "%s", r.Body)
	}
}

// WantErrorMsg is WantError that also requires an error_msg, and returns it.
func WantErrorMsg(t *testing.T, r *sandboxtest.Response, status int, name, path string) string {
	t.Helper()
	WantError(t, r, status, name, path)
	_, msg, _ := ErrorParts(t, r.Body)
	require.NotEmpty(t, msg)
	return msg
}

// WantBadRequest asserts a 400 bad_request naming path.
func WantBadRequest(t *testing.T, r *sandboxtest.Response, path string) {
	t.Helper()
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	name, _, p := ErrorParts(t, r.Body)
	assert.Equal(t, "bad_request", name)
	assert.Equal(t, path, p, "%s", r.Body)
}
