package main

import (
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

func TestParseServeConfig(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		want    serveConfig
		wantErr bool
	}{
		{name: "defaults", want: serveConfig{Addr: "127.0.0.1:8080", Clock: "real", LogLevel: slog.LevelInfo}},
		{name: "env", env: map[string]string{"SIGNSANDBOX_ADDR": ":9000", "SIGNSANDBOX_CLOCK": "fake", "SIGNSANDBOX_API_KEY": "k", "SIGNSANDBOX_LOG_LEVEL": "debug", "SIGNSANDBOX_SCENARIO": "a.yaml,b.yaml"},
			want: serveConfig{Addr: ":9000", Clock: "fake", APIKey: "k", LogLevel: slog.LevelDebug, Scenarios: []string{"a.yaml", "b.yaml"}}},
		{name: "flags win", args: []string{"--addr", "0.0.0.0:1", "--scenario", "x.yaml", "--scenario", "y.yaml"}, env: map[string]string{"SIGNSANDBOX_ADDR": ":9000"},
			want: serveConfig{Addr: "0.0.0.0:1", Clock: "real", LogLevel: slog.LevelInfo, Scenarios: []string{"x.yaml", "y.yaml"}}},
		{name: "bad clock", args: []string{"--clock", "sundial"}, wantErr: true},
		{name: "bad level", args: []string{"--log-level", "loud"}, wantErr: true},
		{name: "stray argument", args: []string{"serve"}, wantErr: true},
		{name: "base url", args: []string{"--base-url", "https://sign.example.com"},
			want: serveConfig{Addr: "127.0.0.1:8080", Clock: "real", LogLevel: slog.LevelInfo, BaseURL: "https://sign.example.com"}},
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
			assert.Equal(t, tc.want, got)
		})
	}
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
