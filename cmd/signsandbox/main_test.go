package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var keyLine = regexp.MustCompile(`API key:\s+(\S+)`)

func TestServeOnAnswersAndShutsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	cfg := serveConfig{Addr: addr, Clock: "fake", LogLevel: slog.LevelInfo, APIKey: "cmd-test-key"}
	go func() { done <- serveOn(ctx, ln, cfg, &stdout, &stderr) }()

	// The banner names the base URL and the key.
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "try:") }, 5*time.Second, 5*time.Millisecond)
	out := stdout.String()
	assert.Contains(t, out, "listening on http://"+addr)
	assert.Contains(t, out, "API base URL: http://"+addr+"/v3")
	m := keyLine.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, "cmd-test-key", m[1])

	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v3/account", nil)
	req.SetBasicAuth(m[1], "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var acct struct {
		Account struct {
			Email string `json:"email_address"`
		} `json:"account"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&acct))
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "owner@sandbox.example", acct.Account.Email)

	// --clock fake starts at the fixed instant.
	resp, err = http.Get("http://" + addr + "/_sandbox/clock")
	require.NoError(t, err)
	var clock struct {
		Now  int64  `json:"now"`
		Mode string `json:"mode"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&clock))
	resp.Body.Close()
	assert.Equal(t, "fake", clock.Mode)
	assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), clock.Now)

	var hcOut, hcErr bytes.Buffer
	assert.Equal(t, 0, cmdHealthcheck([]string{"--addr", addr}, &hcOut, &hcErr), hcErr.String())
	assert.Equal(t, "ok\n", hcOut.String())

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
	assert.Contains(t, stdout.String(), "signsandbox stopped")
	assertClosed(t, ln, "the listener is closed")

	hcOut.Reset()
	hcErr.Reset()
	assert.Equal(t, 1, cmdHealthcheck([]string{"--addr", addr}, &hcOut, &hcErr))
	assert.Contains(t, hcErr.String(), "healthcheck:")
}

func TestServeOnRefusesBadFixtures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	err = serveOn(context.Background(), ln, serveConfig{Clock: "real", Fixtures: t.TempDir()}, io.Discard, io.Discard)
	require.Error(t, err)
	assertClosed(t, ln, "the listener is closed on failure")
}

// assertClosed checks that ln itself was closed. Dialing its address
// cannot tell: once the port is free, a test of another package running at
// the same time may listen on it, and the dial then succeeds by chance.
func assertClosed(t *testing.T, ln net.Listener, msg string) {
	t.Helper()
	tl := ln.(*net.TCPListener)
	_ = tl.SetDeadline(time.Now().Add(time.Second)) // an open listener times out instead of hanging
	_, err := tl.Accept()
	assert.ErrorIs(t, err, net.ErrClosed, msg)
}

func TestServeExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 2, serve([]string{"--clock", "sundial"}, func(string) string { return "" }, &out, &errb))
	assert.Contains(t, errb.String(), "--clock")
	assert.Equal(t, 0, serve([]string{"-h"}, func(string) string { return "" }, &out, &errb), "help is not an error")
	assert.Contains(t, errb.String(), "SIGNSANDBOX_ADDR")

	// An address in use fails with 1.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	errb.Reset()
	assert.Equal(t, 1, serve([]string{"--addr", ln.Addr().String()}, func(string) string { return "" }, &out, &errb))
	assert.Contains(t, errb.String(), "signsandbox:")
}

func TestVersionAndHealthcheckArguments(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 0, cmdVersion(nil, &out, io.Discard))
	assert.Equal(t, "signsandbox "+sandbox.Build().String()+"\n", out.String())
	var errb bytes.Buffer
	assert.Equal(t, 1, cmdHealthcheck([]string{"--addr", "no-port"}, io.Discard, &errb))
	assert.Equal(t, 2, cmdHealthcheck([]string{"--bogus"}, io.Discard, io.Discard))
}

func TestDisplayAddr(t *testing.T) {
	assert.Equal(t, "localhost:8080", displayAddr("0.0.0.0:8080"))
	assert.Equal(t, "localhost:8080", displayAddr("[::]:8080"))
	assert.Equal(t, "127.0.0.1:9", displayAddr("127.0.0.1:9"))
	assert.Equal(t, "weird", displayAddr("weird"))
}

// TestBinary builds the static binary as CI and the Dockerfile do, starts it
// on a free port, checks the banner, an API call, `version` and
// `healthcheck` against it, then stops it with SIGTERM. It logs the start-up
// time and the idle resident memory (measurements, not assertions: machines
// vary).
func TestBinary(t *testing.T) {
	bin := testBinary(t)

	// What the version is depends on how the build was made (version_test.go
	// checks each way); here it is one line.
	out, err := exec.Command(bin, "version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^signsandbox \S+ \(.+\)\n$`, string(out))

	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "SIGNSANDBOX_CLOCK=fake")
	srv := startBinary(t, cmd)
	base, key := srv.base, srv.key
	t.Logf("start-up (exec to listening banner): %v", srv.startup)

	req, _ := http.NewRequest(http.MethodGet, base+"/v3/account", nil)
	req.SetBasicAuth(key, "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "100", resp.Header.Get("X-RateLimit-Limit"))

	hc := exec.Command(bin, "healthcheck", "--addr", strings.TrimPrefix(base, "http://"))
	hcOut, err := hc.CombinedOutput()
	require.NoError(t, err, "%s", hcOut)
	assert.Equal(t, "ok\n", string(hcOut))

	if rss := residentKB(cmd.Process.Pid); rss > 0 {
		t.Logf("idle resident memory after start-up and two requests: %.1f MB", float64(rss)/1024)
	}

	srv.stop(t, 15*time.Second)
}

// residentKB reads VmRSS from /proc (0 where there is no /proc).
func residentKB(pid int) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				n, _ := strconv.Atoi(f[1])
				return n
			}
		}
	}
	return 0
}

// -h names the commands besides serving; healthcheck -h is healthcheck's
// own short usage (it takes only --addr), not the server's flags.
func TestHelpNamesTheCommands(t *testing.T) {
	var errb bytes.Buffer
	require.Equal(t, 0, serve([]string{"--help"}, func(string) string { return "" }, io.Discard, &errb))
	for _, want := range []string{"usage: signsandbox [flags]", "signsandbox run ", "signsandbox record ", "signsandbox version", "signsandbox healthcheck", "-addr", "-scenario"} {
		assert.Contains(t, errb.String(), want)
	}

	errb.Reset()
	require.Equal(t, 0, cmdHealthcheck([]string{"--help"}, io.Discard, &errb))
	assert.Contains(t, errb.String(), "usage: signsandbox healthcheck [--addr ADDR]")
	assert.Contains(t, errb.String(), "-addr")
	assert.NotContains(t, errb.String(), "-clock")
	assert.Equal(t, 2, cmdHealthcheck([]string{"--clock", "fake"}, io.Discard, io.Discard), "server flags are not healthcheck's")
	assert.Equal(t, 2, cmdHealthcheck([]string{"extra"}, io.Discard, io.Discard))

	// The server's other settings cannot break a health check.
	t.Setenv("SIGNSANDBOX_BASE_URL", "not a url")
	t.Setenv("SIGNSANDBOX_ADDR", "no-port")
	errb.Reset()
	assert.Equal(t, 1, cmdHealthcheck(nil, io.Discard, &errb))
	assert.Contains(t, errb.String(), "no-port", "SIGNSANDBOX_ADDR is the default --addr")
}
