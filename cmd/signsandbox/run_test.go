package main

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

func runCmd(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := cmdRun(args, &out, &errb)
	return code, out.String() + errb.String()
}

func TestRunPassesReadyScenarios(t *testing.T) {
	code, out := runCmd("happy-path", "reminders")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "ok   1 send: POST /v3/signature_request/send -> 200")
	assert.Contains(t, out, "PASS happy-path: 14 step(s)")
	assert.Contains(t, out, "2 scenario file(s): 2 passed, 0 failed")
}

func TestRunFailsWithADiffAtTheField(t *testing.T) {
	b, err := scenarios.Read("quota-exhausted")
	require.NoError(t, err)
	changed := strings.Replace(string(b), "api_signature_requests_left: 0", "api_signature_requests_left: 1", 1)
	require.NotEqual(t, string(b), changed)
	path := filepath.Join(t.TempDir(), "changed.yaml")
	require.NoError(t, os.WriteFile(path, []byte(changed), 0o644))
	code, out := runCmd("--json", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "FAIL 1: GET /v3/account -> 200\n       body.account.quotas.api_signature_requests_left: want 1, got 0")
	assert.Contains(t, out, "1 scenario file(s): 0 passed, 1 failed")
	assert.Contains(t, out, `"failed": 1`)
}

func TestRunRefusesBrokenFilesAndBadUsage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: broken\nsteps:\n  - call: accountGot\n"), 0o644))
	code, out := runCmd(path)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "broken.yaml:3:5: steps[0].call: unknown operation \"accountGot\"")

	code, out = runCmd()
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "usage: signsandbox run")
	code, out = runCmd("no-such-file.yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "no such file and no ready scenario")
	code, _ = runCmd("--bogus")
	assert.Equal(t, 2, code)
}

func TestRecordUsage(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 2, cmdRecord(nil, &out, &errb))
	assert.Contains(t, errb.String(), "usage: signsandbox record")
	assert.Equal(t, 2, cmdRecord([]string{"--upstream", "ftp://x", "--out", "x.yaml"}, &out, &errb))
	assert.Contains(t, errb.String(), "is not an http(s) URL")
}

// --record FILE reaches the sandbox through extraServeOptions: the default
// world's session is written to FILE and replays.
func TestServeRecordFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.yaml")
	cfg, err := parseServeConfig([]string{"--clock", "fake", "--record", path}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	sb, err := sandbox.New(serveOptions(cfg, slog.New(slog.DiscardHandler))...)
	require.NoError(t, err)
	hs := httptest.NewServer(sb)
	req, _ := http.NewRequest(http.MethodGet, hs.URL+"/v3/account", nil)
	req.SetBasicAuth(sb.DefaultAPIKey(), "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	hs.Close()
	sb.Close()
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "request: GET /v3/account")
	code, out := runCmd(path)
	assert.Equal(t, 0, code, out)
}
