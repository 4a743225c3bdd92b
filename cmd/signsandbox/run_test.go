package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
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
	assert.Contains(t, errb.String(), "signsandbox record: --upstream: upstream \"ftp://x\" is not an http(s) URL")
}

// record's errors about its flags name the flag.
func TestRecordErrorsNameTheirFlag(t *testing.T) {
	var errb bytes.Buffer
	assert.Equal(t, 2, cmdRecord([]string{"--out", "x.yaml"}, io.Discard, &errb))
	assert.True(t, strings.HasPrefix(errb.String(), "signsandbox record: --upstream is required\n"), errb.String())
	errb.Reset()
	assert.Equal(t, 2, cmdRecord([]string{"--upstream", "http://x", "--out", "x.yaml", "extra"}, io.Discard, &errb))
	assert.Contains(t, errb.String(), `unexpected argument "extra"`)

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	errb.Reset()
	out := filepath.Join(t.TempDir(), "x.yaml")
	assert.Equal(t, 1, cmdRecord([]string{"--upstream", "http://127.0.0.1:1", "--out", out, "--addr", busy.Addr().String()}, io.Discard, &errb))
	assert.True(t, strings.HasPrefix(errb.String(), "signsandbox record: --addr: "), errb.String())
}

// --record FILE reaches the sandbox through serveOptions: the default
// world's session is written to FILE and replays. The file holds a
// placeholder for the key unless --keep-credentials (or
// SIGNSANDBOX_KEEP_CREDENTIALS) asks for the key itself.
func TestServeRecordFlag(t *testing.T) {
	record := func(args []string, env map[string]string) (string, string) {
		path := filepath.Join(t.TempDir(), "session.yaml")
		cfg, err := parseServeConfig(append([]string{"--clock", "fake", "--record", path}, args...), func(k string) string { return env[k] }, io.Discard)
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
		key := sb.DefaultAPIKey()
		sb.Close()
		doc, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Contains(t, string(doc), "request: GET /v3/account")
		code, out := runCmd(path)
		assert.Equal(t, 0, code, out)
		return string(doc), key
	}
	doc, key := record(nil, nil)
	assert.NotContains(t, doc, key)
	assert.Contains(t, doc, "key: ${credentials.")
	doc, key = record([]string{"--keep-credentials"}, nil)
	assert.Contains(t, doc, key)
	doc, key = record(nil, map[string]string{"SIGNSANDBOX_KEEP_CREDENTIALS": "true"})
	assert.Contains(t, doc, key)
}

// runTarget serves a sandbox that allows one world besides the default one.
func runTarget(t *testing.T) string {
	t.Helper()
	sb, err := sandbox.New(sandbox.WithMaxWorlds(1), sandbox.WithOfflineFiles())
	require.NoError(t, err)
	hs := httptest.NewServer(sb)
	t.Cleanup(func() { hs.Close(); sb.Close() })
	return hs.URL
}

// recordNewWorld records a short session of a sandbox's first created
// world (whose keys a fresh target's first world shares, so its replay
// imports there) and writes it to a file.
func recordNewWorld(t *testing.T) string {
	t.Helper()
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	require.NoError(t, err)
	hs := httptest.NewServer(sb)
	defer func() { hs.Close(); sb.Close() }()
	call := func(method, path, key string) []byte {
		req, _ := http.NewRequest(method, hs.URL+path, nil)
		if key != "" {
			req.SetBasicAuth(key, "")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Less(t, resp.StatusCode, 300, "%s %s: %s", method, path, b)
		return b
	}
	var w struct {
		APIKey string `json:"api_key"`
	}
	require.NoError(t, json.Unmarshal(call(http.MethodPost, "/_sandbox/worlds", ""), &w))
	call(http.MethodPost, "/_sandbox/record/start", w.APIKey)
	call(http.MethodGet, "/v3/account", w.APIKey)
	path := filepath.Join(t.TempDir(), "rec.json")
	require.NoError(t, os.WriteFile(path, call(http.MethodPost, "/_sandbox/record/stop", w.APIKey), 0o644))
	return path
}

// run --target deletes the world it made for each file when the file's
// run ends, so that runs leave nothing behind on a long-lived sandbox: a
// target that allows one world runs four files, a recording among them
// (its world takes the recording's keys) and a refused one; --keep leaves
// the worlds there.
func TestRunTargetDeletesItsWorldsUnlessKept(t *testing.T) {
	rec := recordNewWorld(t)
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	require.NoError(t, os.WriteFile(broken, []byte("name: broken\nrules:\n  - match: {operation: accountGet}\n    respond: {status: 999}\n"), 0o644))

	target := runTarget(t)
	code, out := runCmd("--target", target, rec, "happy-path", broken, "reminders")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "PASS recording: 1 step(s)")
	assert.Contains(t, out, "4 scenario file(s): 3 passed, 1 failed")
	assert.Contains(t, out, "FAIL "+broken)
	assert.NotContains(t, out, "kept")
	assert.NotContains(t, out, "not deleted")

	target = runTarget(t)
	code, out = runCmd("--target", target, "--keep", "happy-path", "reminders")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "kept (API key ")
	assert.Contains(t, out, "2 scenario file(s): 1 passed, 1 failed", "the kept world fills the target")
}

// A target with an admin token refuses to create worlds without it; run
// sends it with --admin-token (or SIGNSANDBOX_ADMIN_TOKEN).
func TestRunTargetWithAnAdminToken(t *testing.T) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles(), sandbox.WithAdminToken("s3cret-token"))
	require.NoError(t, err)
	hs := httptest.NewServer(sb)
	t.Cleanup(func() { hs.Close(); sb.Close() })

	code, out := runCmd("--target", hs.URL, "happy-path")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "401", "the world cannot be made without the token")

	code, out = runCmd("--target", hs.URL, "--admin-token", "s3cret-token", "happy-path")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "1 scenario file(s): 1 passed, 0 failed")
}
