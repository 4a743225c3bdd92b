package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loggedCall is one call serveLogged makes.
type loggedCall struct {
	method, path, auth, requestID string
}

// serveLogged serves with cfg on a free port, makes the calls, stops, and
// answers what was written on stdout and stderr.
func serveLogged(t *testing.T, cfg serveConfig, calls ...loggedCall) (stdout, stderr string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan error, 1)
	cfg.Addr, cfg.Clock, cfg.APIKey, cfg.Limits = addr, "fake", "log-test-key", defaultLimits
	go func() { done <- serveOn(ctx, ln, cfg, &out, &errb) }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "try") }, 5*time.Second, 5*time.Millisecond)
	for _, c := range calls {
		req, _ := http.NewRequest(c.method, "http://"+addr+c.path, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		if c.requestID != "" {
			req.Header.Set("X-Request-Id", c.requestID)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	cancel()
	require.NoError(t, <-done)
	return out.String(), errb.String()
}

func basicAuth(key string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":"))
}

// requestLines are the access-log lines of a text log.
func requestLines(log string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if strings.Contains(l, "msg=request ") {
			out = append(out, l)
		}
	}
	return out
}

// The access log writes one info line per request, on by default: method,
// path, status, bytes, duration, operation, world and request id; a
// refused call's line says why, and no line holds the credential.
func TestAccessLogLine(t *testing.T) {
	const wrongKey = "0123456789abcdef0123456789abcdef"
	_, log := serveLogged(t, serveConfig{LogLevel: slog.LevelInfo, AccessLog: true},
		loggedCall{method: http.MethodGet, path: "/v3/account", auth: basicAuth("log-test-key"), requestID: "test-call-1"},
		loggedCall{method: http.MethodGet, path: "/v3/account"},
		loggedCall{method: http.MethodGet, path: "/v3/account", auth: basicAuth(wrongKey)},
		loggedCall{method: http.MethodGet, path: "/v3/account", auth: "Token " + wrongKey},
		loggedCall{method: http.MethodGet, path: "/v3/signature_request/list?page=2&access_token=" + wrongKey, auth: basicAuth("log-test-key")},
		loggedCall{method: http.MethodGet, path: "/_sandbox/w/default/sign/" + wrongKey},
		loggedCall{method: http.MethodGet, path: "/no/such/route"},
	)
	lines := requestLines(log)
	require.Len(t, lines, 7, log)
	assert.Regexp(t, `level=INFO msg=request method=GET path=/v3/account status=200 bytes=[1-9][0-9]* duration=\S+ operation=accountGet world=default request_id=test-call-1$`, lines[0])
	assert.Regexp(t, `status=401 bytes=\d+ duration=\S+ operation=accountGet request_id=\S+ reason="no credentials: the request has no Authorization header"$`, lines[1])
	assert.Contains(t, lines[2], `reason="no world has this API key"`)
	assert.Contains(t, lines[3], `reason="wrong scheme: the Authorization header is neither Basic nor Bearer"`)
	assert.Contains(t, lines[4], "path=/v3/signature_request/list?page&access_token status=200")
	assert.Contains(t, lines[5], "path=/_sandbox/w/default/sign/REDACTED ")
	assert.Contains(t, lines[6], "path=/no/such/route status=404")
	assert.NotContains(t, lines[6], "operation=")
	assert.NotContains(t, log, wrongKey[:8], "no line holds the credential, nor a part of it")
	assert.NotContains(t, lines[1], "test-call-1", "request ids are per request")
}

// The access log is off with --access-log=false, and below info (the
// level filters it like any line).
func TestAccessLogOff(t *testing.T) {
	call := loggedCall{method: http.MethodGet, path: "/v3/account", auth: basicAuth("log-test-key")}
	_, log := serveLogged(t, serveConfig{LogLevel: slog.LevelInfo, AccessLog: false}, call)
	assert.Empty(t, requestLines(log))
	_, log = serveLogged(t, serveConfig{LogLevel: slog.LevelWarn, AccessLog: true}, call)
	assert.Empty(t, requestLines(log))
	_, log = serveLogged(t, serveConfig{LogLevel: slog.LevelDebug, AccessLog: true}, call)
	assert.Len(t, requestLines(log), 1, "debug includes info")
}

// With --log-format json every line on stdout and stderr is a JSON object:
// the banner's records, the access log, the farewell.
func TestJSONLogs(t *testing.T) {
	out, log := serveLogged(t, serveConfig{LogLevel: slog.LevelDebug, LogFormat: "json", AccessLog: true},
		loggedCall{method: http.MethodGet, path: "/v3/account"})
	var requests []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out+log), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), "not JSON: %s", line)
		assert.Contains(t, m, "time")
		assert.Contains(t, m, "level")
		if m["msg"] == "request" {
			requests = append(requests, m)
		}
	}
	require.Len(t, requests, 1, log)
	assert.Equal(t, "GET", requests[0]["method"])
	assert.Equal(t, "/v3/account", requests[0]["path"])
	assert.Equal(t, float64(401), requests[0]["status"])
	assert.Equal(t, "INFO", requests[0]["level"])
	assert.Equal(t, "accountGet", requests[0]["operation"])
	assert.Equal(t, "no credentials: the request has no Authorization header", requests[0]["reason"])
	assert.Contains(t, out, `"msg":"listening"`)
	assert.Contains(t, out, `"api_key":"log-test-key"`)
	assert.Contains(t, out, `"msg":"signsandbox stopped"`)
}

func TestValidRequestID(t *testing.T) {
	for _, ok := range []string{"abc", "3f2c9b1e-8c5d-4d7e-9a1b-2c3d4e5f6a7b", "Root=1-5759e988-bd862e3fe1be46a994272793", "a+b/c=="} {
		assert.True(t, validRequestID(ok), ok)
	}
	for _, bad := range []string{"a b", "a\nlevel=ERROR", `a"b`, strings.Repeat("a", maxRequestID+1)} {
		assert.False(t, validRequestID(bad), bad)
	}
	ids := newRequestIDs()
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	a, b := ids.of(r), ids.of(r)
	assert.NotEqual(t, a, b)
	r.Header.Set("X-Request-Id", "bad id")
	assert.NotEqual(t, "bad id", ids.of(r))
}
