// Package apitest starts the sandbox for the black-box tests of the
// packages under sandbox/internal: a sandboxtest server whose every answer
// is validated, API answers against the official OpenAPI description (when
// it is beside the checkout; see package conformance) and control answers
// against the sandbox's own /_sandbox/openapi.yaml. A package that only
// registers routes tests them through it, in its own directory.
package apitest

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"sync"
	"testing"

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
	srv := sandboxtest.NewServer(t, opts...)
	control, err := controlSpec()
	if err != nil {
		t.Fatalf("apitest: control plane description: %v", err)
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		if _, err := control.Validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("control description: %v\nbody: %.800s", err, body)
		}
	})
	spec := conformance.LoadIfPresent()
	if spec == nil {
		logOnce.Do(func() {
			t.Logf("conformance checks off: official OpenAPI description not found at %s", conformance.Path())
		})
		return srv
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		op := srv.Sandbox.OperationID(req)
		if op == "" {
			return
		}
		if err := spec.Validate(op, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("conformance: %s %s: %v\nbody: %.800s", req.Method, req.URL.Path, err, body)
		}
	})
	return srv
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

// File is one file part of a multipart request.
type File struct {
	Field, Name, ContentType string
	Data                     []byte
}

// Multipart sends fields and files as multipart/form-data, as the official
// SDKs send uploads, with the server's API key.
func Multipart(t *testing.T, srv *sandboxtest.Server, method, path string, fields map[string]string, files ...File) *sandboxtest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, k := range sortedKeys(fields) {
		if err := mw.WriteField(k, fields[k]); err != nil {
			t.Fatalf("apitest: %v", err)
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+f.Field+`"; filename="`+f.Name+`"`)
		h.Set("Content-Type", f.ContentType)
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatalf("apitest: %v", err)
		}
		_, _ = w.Write(f.Data)
	}
	if err := mw.Close(); err != nil {
		t.Fatalf("apitest: %v", err)
	}
	req, err := http.NewRequest(method, srv.URL+path, &body)
	if err != nil {
		t.Fatalf("apitest: %v", err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return srv.Send(req)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
