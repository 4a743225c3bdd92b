package main

import (
	"context"
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

// serveLogged serves with cfg on a free port, makes one API call and one
// refused call, stops, and answers what was logged.
func serveLogged(t *testing.T, level slog.Level) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	cfg := serveConfig{Addr: addr, Clock: "fake", LogLevel: level, APIKey: "log-test-key"}
	go func() { done <- serveOn(ctx, ln, cfg, &stdout, &stderr) }()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "try:") }, 5*time.Second, 5*time.Millisecond)
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v3/account", nil)
	req.SetBasicAuth("log-test-key", "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	resp, err = http.Get("http://" + addr + "/v3/account")
	require.NoError(t, err)
	resp.Body.Close()
	cancel()
	require.NoError(t, <-done)
	return stderr.String()
}

// --log-level debug logs every request with its method, path, status,
// size and duration; the default level logs none of them.
func TestDebugLogsEveryRequest(t *testing.T) {
	out := serveLogged(t, slog.LevelDebug)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var requests []string
	for _, l := range lines {
		if strings.Contains(l, "msg=request ") {
			requests = append(requests, l)
		}
	}
	require.Len(t, requests, 2, out)
	assert.Contains(t, requests[0], "level=DEBUG")
	assert.Contains(t, requests[0], "method=GET path=/v3/account status=200 bytes=")
	assert.NotContains(t, requests[0], "bytes=0 ")
	assert.Contains(t, requests[0], "duration=")
	assert.Contains(t, requests[1], "status=401")

	assert.NotContains(t, serveLogged(t, slog.LevelInfo), "msg=request", "quiet at the default level")
}

// --log-format json writes one JSON object per line (log/slog's JSON
// handler), request lines included.
func TestJSONLogs(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	cfg := serveConfig{Addr: addr, Clock: "fake", LogLevel: slog.LevelDebug, LogFormat: "json", APIKey: "log-test-key"}
	go func() { done <- serveOn(ctx, ln, cfg, &stdout, &stderr) }()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "try:") }, 5*time.Second, 5*time.Millisecond)
	resp, err := http.Get("http://" + addr + "/v3/account")
	require.NoError(t, err)
	resp.Body.Close()
	cancel()
	require.NoError(t, <-done)

	var requests []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), "not JSON: %s", line)
		assert.Contains(t, m, "time")
		assert.Contains(t, m, "level")
		if m["msg"] == "request" {
			requests = append(requests, m)
		}
	}
	require.Len(t, requests, 1, stderr.String())
	assert.Equal(t, "GET", requests[0]["method"])
	assert.Equal(t, "/v3/account", requests[0]["path"])
	assert.Equal(t, float64(401), requests[0]["status"])
	assert.Equal(t, "DEBUG", requests[0]["level"])
}
