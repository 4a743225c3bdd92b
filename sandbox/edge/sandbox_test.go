package edge_test

// The edge in front of a whole sandbox, over real sockets: what the guard
// answers, in the official envelope, validated against the official
// description where the answer belongs to an operation.

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// controlSpec is /_sandbox/openapi.yaml, loaded once for the package.
var controlSpec = sync.OnceValues(func() (*conformance.ControlSpec, error) {
	return conformance.LoadControl(console.ControlPlaneDescription().Body)
})

// newServer is a sandboxtest server whose client's answers are validated
// against the official description (when it is beside the checkout), and
// whose control answers against /_sandbox/openapi.yaml.
func newServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	srv := sandboxtest.NewServer(t, opts...)
	control, err := controlSpec()
	if err != nil {
		t.Fatalf("control plane description: %v", err)
	}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		if _, err := control.Validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("control description: %v\nbody: %.800s", err, body)
		}
	})
	if spec := conformance.LoadIfPresent(); spec != nil {
		srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
			if op := srv.Sandbox.OperationID(req); op != "" {
				if err := spec.Validate(op, req, resp.StatusCode, resp.Header, body); err != nil {
					t.Errorf("conformance: %s %s: %v\nbody: %.800s", req.Method, req.URL.Path, err, body)
				}
			}
		})
	}
	return srv
}

// rawResponse is an answer read off a socket.
type rawResponse struct {
	status int
	header http.Header
	body   []byte
}

// raw sends head (and body) on a new connection to addr exactly as given
// and reads one answer.
func raw(t *testing.T, addr, head string) rawResponse {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = io.WriteString(c, head)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "answer to %q", head)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return rawResponse{resp.StatusCode, resp.Header, body}
}

// requireEnvelope checks that an answer is an error in the official
// envelope with the given name, and, when op is not "", that the official
// description accepts it as that operation's answer.
func requireEnvelope(t *testing.T, r rawResponse, name apierr.Name, op, path string) {
	t.Helper()
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	var e struct {
		Error map[string]string `json:"error"`
	}
	require.NoError(t, json.Unmarshal(r.body, &e), "%s", r.body)
	require.NotNil(t, e.Error, "%s", r.body)
	assert.Equal(t, string(name), e.Error["error_name"], "%s", r.body)
	assert.NotEmpty(t, e.Error["error_msg"])
	for k := range e.Error {
		assert.Contains(t, []string{"error_msg", "error_name", "error_path"}, k)
	}
	if spec := conformance.LoadIfPresent(); spec != nil && op != "" {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		assert.NoError(t, spec.Validate(op, req, r.status, r.header, r.body))
	}
}

func hostOf(srv *sandboxtest.Server) string { return strings.TrimPrefix(srv.URL, "http://") }

// A path id holding "/" (encoded or not) or a dot segment answers 404 in
// the envelope, never a redirect to another resource.
func TestPathsAreNeverCleanedOrRedirected(t *testing.T) {
	srv := newServer(t)
	auth := "Authorization: Basic " + basic(srv.APIKey) + "\r\n"
	for _, tc := range []struct{ path, op string }{
		{"/v3/template/..%2F..%2Fv3%2Faccount", "templateGet"},
		{"/v3/template/a%2Fb", "templateGet"},
		{"/v3/template/files%2Fabc", "templateGet"},
		{"/v3/template/..", "templateGet"},
		{"/v3/template/%2e%2e", "templateGet"},
		{"/v3/template/../../v3/account", "templateGet"},
		{"/v3/../v3/account", "accountGet"},
		{"//v3/../account", "accountGet"},
		{"/v3/signature_request/.", "signatureRequestGet"},
		{"/_sandbox/w/default/files/..%2F..%2Fstate", ""},
		{"/_sandbox/../_sandbox/state", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			r := raw(t, hostOf(srv), "GET "+tc.path+" HTTP/1.1\r\nHost: "+hostOf(srv)+"\r\n"+auth+"Connection: close\r\n\r\n")
			assert.Equal(t, http.StatusNotFound, r.status, "%s", r.body)
			assert.Empty(t, r.header.Get("Location"))
			requireEnvelope(t, r, apierr.NotFound, tc.op, "/v3/account")
		})
	}
	// An id with an encoded character other than "/" reaches its operation.
	r := srv.Do(http.MethodGet, "/v3/template/no%20such", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Contains(t, string(r.Body), "not_found")
}

// A path whose only flaw is empty segments is redirected to the same
// segments without them (Java's legacy client asks for
// /bulk_send_job//{id}); a client that follows reaches the resource.
func TestEmptySegmentsRedirectToTheSamePath(t *testing.T) {
	srv := newServer(t)
	h := hostOf(srv)
	r := raw(t, h, "GET //v3//account?x=1 HTTP/1.1\r\nHost: "+h+"\r\nConnection: close\r\n\r\n")
	assert.Equal(t, http.StatusMovedPermanently, r.status)
	assert.Equal(t, "/v3/account?x=1", r.header.Get("Location"))
	resp := srv.Do(http.MethodGet, "/v3//account", nil)
	assert.Equal(t, http.StatusOK, resp.Status, "%s", resp.Body)
}

// Request targets that are not paths answer 400 in the envelope.
func TestMalformedTargetsAnswer400(t *testing.T) {
	srv := newServer(t)
	h := hostOf(srv)
	for _, head := range []string{
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"GET * HTTP/1.1\r\nHost: " + h + "\r\nConnection: close\r\n\r\n",
		"POST * HTTP/1.1\r\nHost: " + h + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
		"GET ftp://" + h + "/v3/account HTTP/1.1\r\nHost: " + h + "\r\nConnection: close\r\n\r\n",
		"GET http:v3/account HTTP/1.1\r\nHost: " + h + "\r\nConnection: close\r\n\r\n",
		"CONNECT " + h + " HTTP/1.1\r\nHost: " + h + "\r\nConnection: close\r\n\r\n",
	} {
		t.Run(strings.Fields(head)[0]+" "+strings.Fields(head)[1], func(t *testing.T) {
			r := raw(t, h, head)
			assert.Equal(t, http.StatusBadRequest, r.status, "%s", r.body)
			requireEnvelope(t, r, apierr.BadRequest, "accountGet", "/v3/account")
		})
	}
	// The absolute form of a path is a path.
	r := raw(t, h, "GET http://"+h+"/v3/account HTTP/1.1\r\nHost: "+h+"\r\nAuthorization: Basic "+basic(srv.APIKey)+"\r\nConnection: close\r\n\r\n")
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
}

func basic(key string) string {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.SetBasicAuth(key, "")
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
