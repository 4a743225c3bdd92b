package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

func TestParseServeConfig(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		want    serveConfig
		wantErr bool
	}{
		{name: "defaults", want: serveConfig{Addr: "127.0.0.1:8080", Clock: "real", LogLevel: slog.LevelInfo, LogFormat: "text", AccessLog: true, Limits: defaultLimits}},
		{name: "env", env: map[string]string{"SIGNSANDBOX_ADDR": ":9000", "SIGNSANDBOX_CLOCK": "fake", "SIGNSANDBOX_API_KEY": "k", "SIGNSANDBOX_LOG_LEVEL": "debug", "SIGNSANDBOX_SCENARIO": "happy-path,reminders", "SIGNSANDBOX_ACCESS_LOG": "false", "SIGNSANDBOX_OFFLINE": "yes"},
			want: serveConfig{Addr: ":9000", Clock: "fake", APIKey: "k", LogLevel: slog.LevelDebug, Scenarios: []string{"happy-path", "reminders"}, LogFormat: "text", Offline: true, Limits: defaultLimits}},
		{name: "flags win", args: []string{"--addr", "0.0.0.0:1", "--scenario", "config_test.go", "--scenario", "happy-path", "--access-log=false"}, env: map[string]string{"SIGNSANDBOX_ADDR": ":9000", "SIGNSANDBOX_ACCESS_LOG": "true"},
			want: serveConfig{Addr: "0.0.0.0:1", Clock: "real", LogLevel: slog.LevelInfo, Scenarios: []string{"config_test.go", "happy-path"}, LogFormat: "text", Limits: defaultLimits}},
		{name: "bad clock", args: []string{"--clock", "sundial"}, wantErr: true},
		{name: "bad level", args: []string{"--log-level", "loud"}, wantErr: true},
		{name: "stray argument", args: []string{"serve"}, wantErr: true},
		{name: "base url", args: []string{"--base-url", "https://sign.example.com"},
			want: serveConfig{Addr: "127.0.0.1:8080", Clock: "real", LogLevel: slog.LevelInfo, BaseURL: "https://sign.example.com", LogFormat: "text", AccessLog: true, Limits: defaultLimits}},
		{name: "bad base url", args: []string{"--base-url", "not a url"}, wantErr: true},
		{name: "base url with a query", args: []string{"--base-url", "https://sign.example.com/?a=1"}, wantErr: true},
		{name: "bad base url from env", env: map[string]string{"SIGNSANDBOX_BASE_URL": "sign.example.com"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseServeConfig(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if tc.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			got.settings = nil
			assert.Equal(t, tc.want, got)
		})
	}
}

// --scenario NAME that is neither a file nor a ready scenario is refused
// at start, listing the ready scenarios (as run does), instead of "open
// NAME: no such file or directory"; the error names the flag or the
// environment variable, whichever gave the name.
func TestScenarioFlagListsReadyScenarios(t *testing.T) {
	for _, src := range []struct {
		args   []string
		env    map[string]string
		origin string
	}{
		{args: []string{"--scenario", "nosuch"}, origin: "--scenario"},
		{env: map[string]string{"SIGNSANDBOX_SCENARIO": "happy-path,nosuch"}, origin: "SIGNSANDBOX_SCENARIO"},
	} {
		_, err := parseServeConfig(src.args, func(k string) string { return src.env[k] }, io.Discard)
		require.Error(t, err)
		assert.Contains(t, err.Error(), src.origin+" nosuch: no such file and no ready scenario of that name (ready: ")
		for _, name := range scenarios.Names() {
			assert.Contains(t, err.Error(), name)
		}
	}
	var errb bytes.Buffer
	assert.Equal(t, 2, serve([]string{"--scenario", "nosuch"}, func(string) string { return "" }, io.Discard, &errb))
	assert.Contains(t, errb.String(), "happy-path")
}

func TestScenarioOptionResolvesReadyNames(t *testing.T) {
	// A ready scenario loads by name when no file of that name exists.
	sb, err := sandbox.New(scenarioOption("happy-path"))
	require.NoError(t, err)
	sb.Close()
	// A path that exists nowhere stays a file error.
	_, err = sandbox.New(scenarioOption("no-such-scenario.yaml"))
	require.Error(t, err)
}

// The limits' flags: each from its flag or its environment variable, and
// refused when it cannot protect the server.
func TestParseServeConfigLimits(t *testing.T) {
	cfg, err := parseServeConfig([]string{"--read-header-timeout", "2s", "--read-timeout", "3s", "--idle-timeout", "4s", "--max-conns", "5"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, serverLimits{ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 3 * time.Second, IdleTimeout: 4 * time.Second, MaxConns: 5}, cfg.Limits)

	env := map[string]string{"SIGNSANDBOX_READ_HEADER_TIMEOUT": "6s", "SIGNSANDBOX_READ_TIMEOUT": "7s", "SIGNSANDBOX_IDLE_TIMEOUT": "8s", "SIGNSANDBOX_MAX_CONNS": "9"}
	cfg, err = parseServeConfig(nil, func(k string) string { return env[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, serverLimits{ReadHeaderTimeout: 6 * time.Second, ReadTimeout: 7 * time.Second, IdleTimeout: 8 * time.Second, MaxConns: 9}, cfg.Limits)

	for _, bad := range [][]string{{"--read-timeout", "0s"}, {"--idle-timeout", "-1s"}, {"--read-header-timeout", "0"}, {"--max-conns", "0"}} {
		_, err := parseServeConfig(bad, func(string) string { return "" }, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
	for _, bad := range []map[string]string{{"SIGNSANDBOX_READ_TIMEOUT": "soon"}, {"SIGNSANDBOX_MAX_CONNS": "many"}} {
		_, err := parseServeConfig(nil, func(k string) string { return bad[k] }, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}

// --allowed-hosts (comma-separated names) and --admin-token, from flags or
// the environment; an allowed host that is a URL or has a port is refused.
func TestParseServeConfigAccess(t *testing.T) {
	cfg, err := parseServeConfig([]string{"--allowed-hosts", "sandbox.internal, 10.0.0.5", "--admin-token", "tok"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"sandbox.internal", "10.0.0.5"}, cfg.AllowedHosts)
	assert.Equal(t, "tok", cfg.AdminToken)

	env := map[string]string{"SIGNSANDBOX_ALLOWED_HOSTS": "a.internal", "SIGNSANDBOX_ADMIN_TOKEN": "envtok"}
	cfg, err = parseServeConfig(nil, func(k string) string { return env[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.internal"}, cfg.AllowedHosts)
	assert.Equal(t, "envtok", cfg.AdminToken)

	for _, bad := range []string{"http://sandbox.internal", "sandbox.internal:8080", "a b"} {
		_, err := parseServeConfig([]string{"--allowed-hosts", bad}, func(string) string { return "" }, io.Discard)
		assert.Error(t, err, bad)
	}
}

// --log-format is text or json, from the flag or the environment.
func TestParseServeConfigLogFormat(t *testing.T) {
	cfg, err := parseServeConfig([]string{"--log-format", "json"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "json", cfg.LogFormat)
	cfg, err = parseServeConfig(nil, func(k string) string { return map[string]string{"SIGNSANDBOX_LOG_FORMAT": "json"}[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "json", cfg.LogFormat)
	_, err = parseServeConfig([]string{"--log-format", "xml"}, func(string) string { return "" }, io.Discard)
	assert.Error(t, err)
}

// Every flag of the server is in the flag table of docs/cli.md, with its
// environment variable: the rows of the settings table, and whatever else
// -h lists.
func TestEveryFlagIsInTheCLIPage(t *testing.T) {
	page, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	var c serveConfig
	for _, st := range c.settingSet(func(string) string { return "" }).rows {
		assert.Contains(t, string(page), "| `--"+st.name+"` | `"+st.envVar()+"`", "docs/cli.md flag table")
	}
	var help bytes.Buffer
	require.Equal(t, 0, serve([]string{"-h"}, func(string) string { return "" }, io.Discard, &help))
	flags := regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(help.String(), -1)
	require.NotEmpty(t, flags)
	for _, f := range flags {
		assert.Contains(t, string(page), "| `--"+f[1]+"` |", "docs/cli.md flag table")
	}
}

// --smtp-relay (or SIGNSANDBOX_SMTP_RELAY) takes host:port and refuses
// anything else at start.
func TestParseServeConfigSMTPRelay(t *testing.T) {
	none := func(string) string { return "" }
	cfg, err := parseServeConfig(nil, none, io.Discard)
	require.NoError(t, err)
	assert.Empty(t, cfg.SMTPRelay, "no relay unless asked")
	cfg, err = parseServeConfig([]string{"--smtp-relay", "127.0.0.1:1025"}, none, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:1025", cfg.SMTPRelay)
	cfg, err = parseServeConfig(nil, func(k string) string { return map[string]string{"SIGNSANDBOX_SMTP_RELAY": "mailpit:1025"}[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "mailpit:1025", cfg.SMTPRelay)
	for _, bad := range []string{"mailpit", ":1025", "mailpit:0", "mailpit:70000", "mailpit:smtp", "smtp://mailpit:1025"} {
		_, err = parseServeConfig([]string{"--smtp-relay", bad}, none, io.Discard)
		assert.Error(t, err, bad)
	}
}
