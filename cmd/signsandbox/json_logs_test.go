package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireJSONLines fails unless every line of out is one JSON object with
// a time, a level and a message, as a log collector that parses each line
// needs; it answers the records.
func requireJSONLines(t *testing.T, stream, out string) []map[string]any {
	t.Helper()
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if line == "" && out == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), "%s: not a JSON object: %q", stream, line)
		for _, k := range []string{"time", "level", "msg"} {
			assert.Contains(t, m, k, "%s: %s", stream, line)
		}
		records = append(records, m)
	}
	return records
}

// TestBinaryLogsOnlyJSON runs the built binary with --log-format json
// through a bad command line, a scenario that does not load, and a life of
// calls (answered, refused, malformed, a broken scenario posted) ending in
// SIGTERM: every line it writes on stdout and on stderr is a JSON object.
func TestBinaryLogsOnlyJSON(t *testing.T) {
	bin := testBinary(t)
	exitOf := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	}
	run := func(env []string, args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		return exitOf(cmd.Run()), out.String(), errb.String()
	}

	// A command line that does not parse.
	code, out, errOut := run(nil, "--log-format", "json", "--bogus")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	recs := requireJSONLines(t, "stderr", errOut)
	require.Len(t, recs, 1)
	assert.Equal(t, "signsandbox: unknown flag --bogus (signsandbox -h lists the flags)", recs[0]["msg"])
	code, _, errOut = run([]string{"SIGNSANDBOX_LOG_FORMAT=json", "SIGNSANDBOX_CLOCK=nope"})
	assert.Equal(t, 2, code)
	recs = requireJSONLines(t, "stderr", errOut)
	assert.Equal(t, `signsandbox: SIGNSANDBOX_CLOCK must be real or fake (got "nope")`, recs[0]["msg"])

	// A scenario that does not load.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: bad\nsteps:\n  - call: accountGet\n   expect: {}\n"), 0o644))
	code, out, errOut = run(nil, "--log-format=json", "--addr", "127.0.0.1:0", "--scenario", bad)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	recs = requireJSONLines(t, "stderr", errOut)
	require.Len(t, recs, 1, errOut)
	assert.Contains(t, recs[0]["msg"], bad+":4:4: ")
	assert.Equal(t, "ERROR", recs[0]["level"])

	// A life: start, calls, SIGTERM.
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-level", "debug", "--clock", "fake")
	cmd.Env = append(os.Environ(), "SIGNSANDBOX_LOG_FORMAT=json")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan(), "no banner; stderr: %s", stderr.String())
	first := lines.Text()
	var banner struct {
		Msg, URL, APIKey string
	}
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(first), &raw), first)
	banner.Msg, _ = raw["msg"].(string)
	banner.URL, _ = raw["url"].(string)
	banner.APIKey, _ = raw["api_key"].(string)
	require.Equal(t, "listening", banner.Msg, first)
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() {
		for lines.Scan() {
			rest.WriteString(lines.Text() + "\n")
		}
		close(copied)
	}()

	send := func(method, path, auth, body string, header map[string]string) int {
		req, _ := http.NewRequest(method, banner.URL+path, strings.NewReader(body))
		if auth != "" {
			req.SetBasicAuth(auth, "")
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, 200, send(http.MethodGet, "/v3/account", banner.APIKey, "", nil))
	assert.Equal(t, 401, send(http.MethodGet, "/v3/account", "", "", nil))
	assert.Equal(t, 401, send(http.MethodGet, "/v3/account", "not-a-key", "", nil))
	assert.Equal(t, 404, send(http.MethodGet, "/v3/nothing", banner.APIKey, "", nil))
	assert.Equal(t, 400, send(http.MethodPost, "/v3/signature_request/send", banner.APIKey, "{broken", nil))
	assert.Equal(t, 400, send(http.MethodPost, "/_sandbox/scenarios", banner.APIKey, "name: x\n  bad: [", nil))
	assert.Equal(t, 431, send(http.MethodGet, "/v3/account", banner.APIKey, "", map[string]string{"X-Big": strings.Repeat("a", 70<<10)}))
	conn, err := net.Dial("tcp", strings.TrimPrefix(banner.URL, "http://"))
	require.NoError(t, err)
	_, _ = io.WriteString(conn, "NOT A REQUEST\r\n\r\n")
	_, _ = io.Copy(io.Discard, conn)
	conn.Close()

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	<-copied
	require.NoError(t, cmd.Wait())
	out = first + "\n" + rest.String()
	outRecs := requireJSONLines(t, "stdout", out)
	assert.Equal(t, "signsandbox stopped", outRecs[len(outRecs)-1]["msg"])
	errRecs := requireJSONLines(t, "stderr", stderr.String())
	requests := 0
	for _, r := range errRecs {
		if r["msg"] == "request" {
			requests++
		}
	}
	assert.GreaterOrEqual(t, requests, 6, "the access log: %s", stderr.String())
	assert.NotContains(t, stderr.String(), "not-a-key")
}
