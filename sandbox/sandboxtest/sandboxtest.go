// Package sandboxtest runs a signsandbox for Go tests: a listening server on
// a fake clock at a fixed instant, its URL, its API key, an HTTP client that
// authenticates with that key, and helpers that move the clock and act as
// signers. The server closes itself when the test ends.
//
//	srv := sandboxtest.NewServer(t)
//	client := srv.Client // Basic auth with srv.APIKey is added for you
//	resp, _ := client.Get(srv.URL + "/v3/account")
//	srv.Advance(time.Hour) // runs every job that falls due
package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Start is the instant every test server's clock starts at, unless an option
// says otherwise: the sandbox's own fixed start of fake clocks,
// 2025-01-01T00:00:00Z.
var Start = world.DefaultStart

// Server is a running sandbox for one test.
type Server struct {
	// URL is the base URL (scheme and host); the API is under URL + "/v3".
	URL string
	// APIKey is the primary API key of the default world's first account.
	APIKey string
	// Client sends requests with Basic auth for APIKey unless the request
	// already has an Authorization header.
	Client *http.Client
	// Sandbox is the handler behind the server.
	Sandbox *sandbox.Sandbox

	t      TB
	srv    *httptest.Server
	mu     sync.Mutex
	checks []func(req *http.Request, resp *http.Response, body []byte)
}

// TB is the part of testing.TB a Server uses: *testing.T, *testing.B and
// *testing.F satisfy it, and so can a program's own harness.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

var _ TB = testing.TB(nil)

// NewServer starts a sandbox on a loopback listener with a fake clock at
// Start (options may change that) and closes it with t.Cleanup.
func NewServer(t TB, opts ...sandbox.Option) *Server {
	t.Helper()
	all := append([]sandbox.Option{sandbox.WithFakeClock(Start)}, opts...)
	sb, err := sandbox.New(all...)
	if err != nil {
		t.Fatalf("sandboxtest: %v", err)
	}
	hs := httptest.NewServer(sb)
	s := &Server{URL: hs.URL, APIKey: sb.DefaultAPIKey(), Sandbox: sb, t: t, srv: hs}
	s.Client = &http.Client{Transport: &authTransport{s: s, inner: hs.Client().Transport}}
	t.Cleanup(func() {
		hs.Close()
		sb.Close()
	})
	return s
}

// AddResponseCheck runs fn on every response the Client receives (for
// example a validation against the official API description).
func (s *Server) AddResponseCheck(fn func(req *http.Request, resp *http.Response, body []byte)) {
	s.mu.Lock()
	s.checks = append(s.checks, fn)
	s.mu.Unlock()
}

// noAuthHeader marks a request that must go without credentials; the
// transport removes it before sending.
const noAuthHeader = "X-Sandboxtest-No-Auth"

type authTransport struct {
	s     *Server
	inner http.RoundTripper
}

func (a *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	switch {
	case req.Header.Get(noAuthHeader) != "":
		req = req.Clone(req.Context())
		req.Header.Del(noAuthHeader)
	case req.Header.Get("Authorization") == "":
		req = req.Clone(req.Context())
		req.SetBasicAuth(a.s.APIKey, "")
	}
	resp, err := a.inner.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	a.s.mu.Lock()
	checks := append([]func(*http.Request, *http.Response, []byte){}, a.s.checks...)
	a.s.mu.Unlock()
	if len(checks) > 0 {
		body, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr != nil {
			return resp, rerr
		}
		for _, fn := range checks {
			fn(req, resp, body)
		}
	}
	return resp, nil
}

// Response is a decoded answer of the sandbox.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) error { return json.Unmarshal(r.Body, v) }

// Map decodes the body into a generic map.
func (r *Response) Map() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Do sends a request with the server's API key. body may be nil, a string or
// []byte (sent as is, JSON), or any value (encoded as JSON).
func (s *Server) Do(method, path string, body any) *Response {
	s.t.Helper()
	return s.DoAs(s.APIKey, method, path, body)
}

// DoAs sends a request with another API key ("" sends no credentials).
func (s *Server) DoAs(apiKey, method, path string, body any) *Response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatalf("sandboxtest: encode body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		s.t.Fatalf("sandboxtest: %v", err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if apiKey == "" {
		req.Header.Set(noAuthHeader, "1")
	} else {
		req.SetBasicAuth(apiKey, "")
	}
	return s.Send(req)
}

// Send sends a prepared request through the server's client.
func (s *Server) Send(req *http.Request) *Response {
	s.t.Helper()
	resp, err := s.Client.Do(req)
	if err != nil {
		s.t.Fatalf("sandboxtest: %s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("sandboxtest: read %s: %v", req.URL.Path, err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Control calls the control plane (/_sandbox + path) with the server's key
// and fails the test unless the answer is a 2xx; out, when not nil, receives
// the decoded body.
func (s *Server) Control(method, path string, body, out any) {
	s.t.Helper()
	r := s.Do(method, sandbox.ControlPrefix+path, body)
	if r.Status/100 != 2 {
		s.t.Fatalf("sandboxtest: %s %s: %d %s", method, path, r.Status, r.Body)
	}
	if out != nil {
		if err := json.Unmarshal(r.Body, out); err != nil {
			s.t.Fatalf("sandboxtest: decode %s: %v", path, err)
		}
	}
}

// RanJob is a job the scheduler ran during an advance.
type RanJob struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
	At      int64  `json:"at"`
	Error   string `json:"error"`
}

// Advance moves the world clock forward by d and returns the jobs that ran
// (every job due on the way runs, in order, before Advance returns).
func (s *Server) Advance(d time.Duration) []RanJob {
	s.t.Helper()
	var out struct {
		Jobs []RanJob `json:"jobs"`
	}
	s.Control(http.MethodPost, "/clock/advance", map[string]any{"duration": d.String()}, &out)
	return out.Jobs
}

// Now is the world time.
func (s *Server) Now() time.Time {
	s.t.Helper()
	var out struct {
		Now int64 `json:"now"`
	}
	s.Control(http.MethodGet, "/clock", nil, &out)
	return time.Unix(out.Now, 0).UTC()
}

// World is a world created on the server, with the credentials of its first
// account.
type World struct {
	WorldID      string `json:"world_id"`
	APIKey       string `json:"api_key"`
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// NewWorld creates a fresh world (POST /_sandbox/worlds) with a fake clock.
func (s *Server) NewWorld() World {
	s.t.Helper()
	r := s.DoAs("", http.MethodPost, sandbox.ControlPrefix+"/worlds", map[string]any{})
	if r.Status != http.StatusCreated {
		s.t.Fatalf("sandboxtest: create world: %d %s", r.Status, r.Body)
	}
	var w World
	if err := json.Unmarshal(r.Body, &w); err != nil {
		s.t.Fatalf("sandboxtest: %v", err)
	}
	return w
}

// String describes the server.
func (s *Server) String() string { return fmt.Sprintf("signsandbox at %s", s.URL) }
