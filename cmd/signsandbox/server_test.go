package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/edge"
)

// startServing runs serveOn with cfg on a loopback port until the test
// ends, and answers its address once the banner is out.
func startServing(t *testing.T, cfg serveConfig) (addr string, stdout *syncBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr = ln.Addr().String()
	cfg.Addr = addr
	if cfg.Clock == "" {
		cfg.Clock = "fake"
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout = &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serveOn(ctx, ln, cfg, stdout, io.Discard) }()
	t.Cleanup(func() { cancel(); <-done }) //nolint:errcheck // only waits for the server to stop; TestServeOnAnswersAndShutsDown checks how it stops
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "try:") }, 5*time.Second, 5*time.Millisecond)
	return addr, stdout
}

// envelopeOf decodes an error answer and checks it has the official shape.
func envelopeOf(t *testing.T, resp *http.Response) map[string]string {
	t.Helper()
	defer resp.Body.Close()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var e struct {
		Error map[string]string `json:"error"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	require.NotNil(t, e.Error)
	for k := range e.Error {
		assert.Contains(t, []string{"error_msg", "error_name", "error_path"}, k)
	}
	return e.Error
}

// dialRaw opens a connection and sends head.
func dialRaw(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	if head != "" {
		_, err = io.WriteString(c, head)
		require.NoError(t, err)
	}
	return c
}

// closedWithin reports how long the server took to close c (reading
// nothing), failing after limit.
func closedWithin(t *testing.T, c net.Conn, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	require.NoError(t, c.SetReadDeadline(start.Add(limit)))
	_, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v", limit)
	}
	return time.Since(start)
}

// A 2 MB Authorization header to the binary's server answers 431 in the
// official envelope (it was net/http's plain text).
func TestServerAnswersHugeHeadersInTheEnvelope(t *testing.T) {
	addr, _ := startServing(t, serveConfig{Limits: defaultLimits})
	for _, size := range []int{66 << 10, 100 << 10, 2 << 20} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v3/account", nil)
		req.Header.Set("Authorization", "Basic "+strings.Repeat("A", size))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
		e := envelopeOf(t, resp)
		assert.Equal(t, "bad_request", e["error_name"])
		assert.Contains(t, e["error_msg"], "65536")
	}
}

// Slow clients are cut off: a head that trickles after
// --read-header-timeout, a body after --read-timeout (answered 400), a
// keep-alive connection idle for --idle-timeout.
func TestServerCutsOffSlowClients(t *testing.T) {
	lim := serverLimits{ReadHeaderTimeout: 300 * time.Millisecond, ReadTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, MaxConns: 16}
	addr, _ := startServing(t, serveConfig{Limits: lim})

	c := dialRaw(t, addr, "GET /v3/account HTTP/1.1\r\nHost: x\r\n")
	took := closedWithin(t, c, 5*time.Second)
	t.Logf("head that stopped half-way: closed after %v", took)
	assert.GreaterOrEqual(t, took, 200*time.Millisecond)

	c = dialRaw(t, addr, "POST /_sandbox/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"seconds\":")
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	t.Logf("body that stopped half-way: answered after %v", time.Since(start))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, "bad_request", envelopeOf(t, resp)["error_name"])

	c = dialRaw(t, addr, "GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err = http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	start = time.Now()
	require.NoError(t, c.SetReadDeadline(start.Add(5*time.Second)))
	_, err = br.ReadByte()
	assert.ErrorIs(t, err, io.EOF, "the idle connection was closed")
	t.Logf("idle keep-alive connection: closed after %v", time.Since(start))
}

// The read timeout bounds the body, not the handler: a request whose body
// came in time is served to its end, with its context intact, however
// long the handler takes.
func TestBodyDeadlineSparesSlowHandlers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	lim := serverLimits{ReadHeaderTimeout: time.Second, ReadTimeout: 200 * time.Millisecond, IdleTimeout: time.Second, MaxConns: 4}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case <-time.After(600 * time.Millisecond):
		case <-r.Context().Done():
			http.Error(w, "context canceled", http.StatusTeapot)
			return
		}
		_, _ = w.Write(b)
	})
	srv := newHTTPServer(h, lim, slog.New(slog.DiscardHandler))
	go func() { _ = srv.Serve(serverListener(ln, lim)) }()
	t.Cleanup(func() { srv.Close() })

	resp, err := http.Post("http://"+ln.Addr().String()+"/", "text/plain", strings.NewReader("hello"))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	assert.Equal(t, "hello", string(b))
}

// --max-conns bounds the connections served at once.
func TestServerCapsConnections(t *testing.T) {
	lim := defaultLimits
	lim.MaxConns = 1
	addr, _ := startServing(t, serveConfig{Limits: lim})
	req := "GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
	first := dialRaw(t, addr, req)
	resp, err := http.ReadResponse(bufio.NewReader(first), nil)
	require.NoError(t, err)
	resp.Body.Close()

	second := dialRaw(t, addr, req)
	br := bufio.NewReader(second)
	require.NoError(t, second.SetReadDeadline(time.Now().Add(300*time.Millisecond)))
	_, err = br.Peek(1)
	require.Error(t, err, "not served while the first holds the only slot")
	first.Close()
	require.NoError(t, second.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err = http.ReadResponse(br, nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// --admin-token reaches the sandbox; --allowed-hosts too.
func TestServeWithAdminTokenAndAllowedHosts(t *testing.T) {
	addr, stdout := startServing(t, serveConfig{Limits: defaultLimits, AdminToken: "tok", AllowedHosts: []string{"sandbox.internal"}})
	assert.Contains(t, stdout.String(), "admin token:  required (header "+edge.AdminHeader+")")
	assert.NotContains(t, stdout.String(), "tok\n", "the banner does not print the token")

	post := func(token, host string) int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/_sandbox/worlds", strings.NewReader("{}"))
		if token != "" {
			req.Header.Set(edge.AdminHeader, token)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, post("", ""))
	assert.Equal(t, http.StatusCreated, post("tok", ""))

	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/_sandbox/health", nil)
	req.Host = "sandbox.internal"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	req, _ = http.NewRequest(http.MethodGet, "http://"+addr+"/_sandbox/clock", nil)
	req.Host = "sandbox.internal"
	req.Header.Set(edge.AdminHeader, "tok")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// The banner warns when anyone beyond this machine can administer the
// sandbox, and only then.
func TestBannerSaysWhenTheControlPlaneIsOpen(t *testing.T) {
	for _, tc := range []struct {
		addr  string
		token bool
		open  bool
	}{
		{"127.0.0.1:8080", false, false},
		{"[::1]:8080", false, false},
		{"localhost:8080", false, false},
		{"0.0.0.0:8080", false, true},
		{"[::]:8080", false, true},
		{"192.168.1.5:8080", false, true},
		{"0.0.0.0:8080", true, false},
	} {
		var out strings.Builder
		newOutput("text", slog.LevelInfo, &out, io.Discard).banner(tc.addr, "k", tc.token)
		assert.Equal(t, tc.open, strings.Contains(out.String(), "the control plane is open"), "%s token=%v:\n%s", tc.addr, tc.token, out.String())
		assert.Contains(t, out.String(), "try:")
		assert.Contains(t, out.String(), "/_sandbox/console/", "the banner names the console")

		// As JSON records: one to say where, one more to warn.
		out.Reset()
		newOutput("json", slog.LevelInfo, &out, io.Discard).banner(tc.addr, "k", tc.token)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var first map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[0]), &first), lines[0])
		assert.Equal(t, "listening", first["msg"])
		assert.Contains(t, first["console"], "/_sandbox/console/")
		assert.Equal(t, "k", first["api_key"])
		if tc.open {
			require.Len(t, lines, 2)
			var warning map[string]any
			require.NoError(t, json.Unmarshal([]byte(lines[1]), &warning), lines[1])
			assert.Equal(t, "WARN", warning["level"])
			assert.Contains(t, warning["msg"], "the control plane is open")
		} else {
			assert.Len(t, lines, 1)
		}
	}
}

// On SIGTERM (ctx ending) the server stops taking connections but
// finishes the requests in flight: a request whose body is still coming
// in is answered in full before serveOn returns.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serveOn(ctx, ln, serveConfig{Addr: addr, Clock: "fake", Limits: defaultLimits}, &stdout, io.Discard)
	}()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "try:") }, 5*time.Second, 5*time.Millisecond)

	body := `{"seconds": 3600}`
	c := dialRaw(t, addr, "POST /_sandbox/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body[:5])
	time.Sleep(200 * time.Millisecond) // the server is reading the body
	cancel()
	require.Eventually(t, func() bool {
		d, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			d.Close()
		}
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "the listener closes at once")
	select {
	case err := <-done:
		t.Fatalf("serveOn returned with a request in flight: %v", err)
	default:
	}

	_, err = io.WriteString(c, body[5:])
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	var clock struct {
		Now int64 `json:"now"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&clock))
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, time.Date(2025, 1, 1, 1, 0, 0, 0, time.UTC).Unix(), clock.Now, "the advance ran")

	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(shutdownGrace + 5*time.Second):
		t.Fatal("serveOn did not return after its last request")
	}
	assert.Contains(t, stdout.String(), "signsandbox stopped")
}

// A body too large to discard before the answer (over edge.MaxDrainBytes),
// left unread by a call on a connection the client asked to close: the
// server's side closes first and what the client still sends is read and
// discarded until it closes its side, so that the answer arrives whole
// rather than cut by a reset. The client writes its body while it reads,
// as a client that streams an upload does.
func TestServerClosesConnectionsInStages(t *testing.T) {
	addr, _ := startServing(t, serveConfig{Limits: defaultLimits})
	body := strings.Repeat("x", edge.MaxDrainBytes+(8<<20))
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	head := "GET /_sandbox/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n"
	wrote := make(chan error, 1)
	go func() {
		_, err := conn.Write([]byte(head + body))
		wrote <- err
	}()
	all, err := io.ReadAll(conn)
	require.NoError(t, err, "reset after %d bytes of the answer", len(all))
	require.NoError(t, <-wrote, "the whole body was taken")
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(all))), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, json.Valid(answer), "the whole export")
}
