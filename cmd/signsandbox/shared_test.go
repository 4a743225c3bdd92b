package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSharedFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	c, err := parseServeConfig(nil, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 3, "the binary counts calls, serves random credentials and frees idle worlds by default")

	c, err = parseServeConfig([]string{"--shard", "0a"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "0a", c.Shared.Shard)
	c, err = parseServeConfig(nil, func(k string) string {
		if k == "SIGNSANDBOX_CREDENTIALS" {
			return "seeded"
		}
		return ""
	}, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 2)

	for _, bad := range [][]string{{"--credentials", "weak"}, {"--shard", "XY"}, {"--shard", "0a", "--credentials", "seeded"}} {
		_, err := parseServeConfig(bad, noEnv, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}

func TestDataDirFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	c, err := parseServeConfig([]string{"--data-dir", "/tmp/x", "--fsync", "always"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "/tmp/x", c.Shared.DataDir)
	assert.Len(t, c.Shared.options(), 4)
	c, err = parseServeConfig(nil, func(k string) string {
		if k == "SIGNSANDBOX_DATA_DIR" {
			return "/var/lib/signsandbox"
		}
		return ""
	}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "/var/lib/signsandbox", c.Shared.DataDir)
	for _, bad := range [][]string{{"--fsync", "always"}, {"--data-dir", "/tmp/x", "--fsync", "never"}} {
		_, err := parseServeConfig(bad, noEnv, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}

func TestGateIsAliveButNotReadyUntilOpen(t *testing.T) {
	var g gate
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		g.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code, rec.Body.String()
	}
	code, _ := get("/_sandbox/health")
	assert.Equal(t, http.StatusOK, code, "alive while restoring")
	code, body := get("/_sandbox/ready")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "restoring")
	code, body = get("/v3/account")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, `"error_name":"unavailable"`)

	g.open(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	code, _ = get("/_sandbox/ready")
	assert.Equal(t, http.StatusTeapot, code, "the sandbox answers once open")
}

func TestMaxStoredBytesFlag(t *testing.T) {
	noEnv := func(string) string { return "" }
	for in, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "512MiB": 512 << 20, "4GiB": 4 << 30, "64KiB": 64 << 10} {
		n, err := parseBytes(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, n, in)
	}
	c, err := parseServeConfig([]string{"--max-stored-bytes", "1GiB"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 4, "metrics, random credentials, idle worlds and the budget")
	for _, bad := range []string{"-1", "lots", "1TB", "9999999999GiB"} {
		_, err := parseServeConfig([]string{"--max-stored-bytes", bad}, noEnv, io.Discard)
		assert.ErrorContains(t, err, "--max-stored-bytes", bad)
	}
}

func TestIdleWorldTTLFlag(t *testing.T) {
	noEnv := func(string) string { return "" }
	c, err := parseServeConfig(nil, noEnv, io.Discard)
	require.NoError(t, err)
	d, err := c.Shared.idleWorldTTL()
	require.NoError(t, err)
	assert.Equal(t, 24*time.Hour, d, "worlds nobody uses for a day are freed by default")
	c, err = parseServeConfig([]string{"--idle-world-ttl", "0"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 2, "0 keeps every world: no janitor")
	for _, bad := range []string{"-1h", "soon", "24"} {
		_, err := parseServeConfig([]string{"--idle-world-ttl", bad}, noEnv, io.Discard)
		assert.ErrorContains(t, err, "--idle-world-ttl", bad)
	}
}
