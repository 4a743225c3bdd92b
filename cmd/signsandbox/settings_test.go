package main

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// badServeValues holds, for every setting of the server that refuses
// values, one value it refuses and the words its error ends with; the
// error starts with the flag or the environment variable, whichever gave
// the value. Settings that take any text are listed in anyServeValue.
var badServeValues = map[string]struct{ value, msg string }{
	"addr":                {"no-port", ` must be HOST:PORT, such as 127.0.0.1:8080 or :8080 (got "no-port")`},
	"clock":               {"nope", ` must be real or fake (got "nope")`},
	"log-level":           {"loud", ` must be debug, info, warn or error (got "loud")`},
	"log-format":          {"xml", ` must be text or json (got "xml")`},
	"smtp-relay":          {"mailpit", ` must be HOST:PORT of a mail server, such as 127.0.0.1:1025 (got "mailpit")`},
	"access-log":          {"maybe", ` must be true or false (got "maybe")`},
	"api-key":             {"a key", ` must not hold spaces, control characters or ':' (it is sent as the user name of HTTP Basic credentials)`},
	"base-url":            {"sign.example.com", `: base URL "sign.example.com" must be an absolute http or https URL, such as https://sandbox.example.com`},
	"scenario":            {"nosuch", ` nosuch: no such file and no ready scenario of that name (ready: `},
	"offline":             {"sometimes", ` must be true or false (got "sometimes")`},
	"keep-credentials":    {"sometimes", ` must be true or false (got "sometimes")`},
	"allowed-hosts":       {"http://a.internal", `: allowed host "http://a.internal" must be a host name or IP address`},
	"allow-outbound":      {"169.254.169.254", `: `},
	"read-header-timeout": {"soon", ` must be a positive duration such as 10s or 2m (got "soon")`},
	"read-timeout":        {"0s", ` must be a positive duration such as 10s or 2m (got "0s")`},
	"idle-timeout":        {"-1s", ` must be a positive duration such as 10s or 2m (got "-1s")`},
	"max-conns":           {"many", ` must be a whole number of at least 1 (got "many")`},
	"credentials":         {"weak", ` must be random or seeded (got "weak")`},
	"fsync":               {"never", `: `},
	"max-stored-bytes":    {"1TB", ` must be a size: bytes, or a number with KiB, MiB or GiB (got "1TB")`},
	"idle-world-ttl":      {"soon", ` must be a duration such as 24h or 90m, or 0 to keep every world (got "soon")`},
	"shard":               {"XY", `: `},
	"gc-percent":          {"0", ` must be a whole number of at least 1, off or auto (got "0")`},
	"gc-headroom":         {"1KiB", ` must be at least 1MiB (got "1KiB")`},
	"release-idle":        {"-1s", ` must be a duration such as 30s or 5m, or 0 for never (got "-1s")`},
	"memory-limit":        {"a lot", ` must be a size: bytes, or a number with KiB, MiB or GiB (got "a lot")`},
}

// anyServeValue are the settings that take any text (a path is checked
// when the server uses it; see TestStartErrorsNameTheirSetting).
var anyServeValue = map[string]bool{"fixtures": true, "record": true, "admin-token": true, "data-dir": true}

// Every error about a setting's value names where the value came from:
// the flag when the command line gave it, the environment variable when
// that did, and never the other. Every setting of the server is covered.
func TestSettingErrorsNameTheirOrigin(t *testing.T) {
	var c serveConfig
	set := c.settingSet(func(string) string { return "" })
	for _, st := range set.rows {
		_, refuses := badServeValues[st.name]
		assert.True(t, refuses || anyServeValue[st.name], "setting --%s: add a refused value to badServeValues (or it to anyServeValue)", st.name)
	}
	for name, bad := range badServeValues {
		t.Run(name, func(t *testing.T) {
			env := envName(name)
			extra := map[string]string{}
			if name == "fsync" {
				extra["SIGNSANDBOX_DATA_DIR"] = t.TempDir()
			}
			args := []string{"--" + name, bad.value}
			if set.byName[name].boolean {
				args = []string{"--" + name + "=" + bad.value}
			}
			_, err := parseServeConfig(args, func(k string) string { return extra[k] }, io.Discard)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "--"+name+bad.msg), "flag: %v", err)
			assert.NotContains(t, err.Error(), env)

			withEnv := map[string]string{env: bad.value}
			for k, v := range extra {
				withEnv[k] = v
			}
			_, err = parseServeConfig(nil, func(k string) string { return withEnv[k] }, io.Discard)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), env+bad.msg), "environment: %v", err)
			assert.NotContains(t, err.Error(), "--"+name)
		})
	}
}

// The example, word for word.
func TestClockFromTheEnvironment(t *testing.T) {
	var errb bytes.Buffer
	code := serve(nil, func(k string) string { return map[string]string{"SIGNSANDBOX_CLOCK": "nope"}[k] }, io.Discard, &errb)
	assert.Equal(t, 2, code)
	assert.Equal(t, "signsandbox: SIGNSANDBOX_CLOCK must be real or fake (got \"nope\")\n", errb.String())
	assert.NotContains(t, errb.String(), "--clock")
}

// Rules between settings name both, each as it was given.
func TestSettingRulesNameTheirOrigins(t *testing.T) {
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{args: []string{"--shard", "0a", "--credentials", "seeded"}, want: "--shard needs random credentials, but --credentials is seeded"},
		{env: map[string]string{"SIGNSANDBOX_SHARD": "0a", "SIGNSANDBOX_CREDENTIALS": "seeded"}, want: "SIGNSANDBOX_SHARD needs random credentials, but SIGNSANDBOX_CREDENTIALS is seeded"},
		{args: []string{"--shard", "0a"}, env: map[string]string{"SIGNSANDBOX_CREDENTIALS": "seeded"}, want: "--shard needs random credentials, but SIGNSANDBOX_CREDENTIALS is seeded"},
		{args: []string{"--fsync", "always"}, want: "--fsync needs a data directory: set --data-dir (SIGNSANDBOX_DATA_DIR)"},
		{env: map[string]string{"SIGNSANDBOX_FSYNC": "always"}, want: "SIGNSANDBOX_FSYNC needs a data directory: set --data-dir (SIGNSANDBOX_DATA_DIR)"},
	}
	for _, tc := range cases {
		_, err := parseServeConfig(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
		assert.EqualError(t, err, tc.want)
	}
}

// Command lines that cannot be read say so in a line, without the usage
// (signsandbox -h has it), and name flags as users type them.
func TestCommandLineErrors(t *testing.T) {
	noEnv := func(string) string { return "" }
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "signsandbox: unknown flag --bogus (signsandbox -h lists the flags)\n"},
		{[]string{"--clock"}, "signsandbox: --clock needs a value (signsandbox -h lists the flags)\n"},
		{[]string{"serve"}, "signsandbox: unexpected argument \"serve\" (signsandbox -h lists the flags)\n"},
		{[]string{"--offline", "false"}, "signsandbox: unexpected argument \"false\": a switch takes its value after '=' (--offline=false) (signsandbox -h lists the flags)\n"},
	}
	for _, tc := range cases {
		var errb bytes.Buffer
		assert.Equal(t, 2, serve(tc.args, noEnv, io.Discard, &errb), "%v", tc.args)
		assert.Equal(t, tc.want, errb.String())
	}
}

// healthcheck's --addr names its origin too.
func TestHealthcheckSettingNamesItsOrigin(t *testing.T) {
	t.Setenv("SIGNSANDBOX_ADDR", "no-port")
	var errb bytes.Buffer
	assert.Equal(t, 1, cmdHealthcheck(nil, io.Discard, &errb))
	assert.Equal(t, "healthcheck: SIGNSANDBOX_ADDR must be HOST:PORT, such as 127.0.0.1:8080 or :8080 (got \"no-port\")\n", errb.String())
	errb.Reset()
	assert.Equal(t, 1, cmdHealthcheck([]string{"--addr", "no-port"}, io.Discard, &errb))
	assert.Equal(t, "healthcheck: --addr must be HOST:PORT, such as 127.0.0.1:8080 or :8080 (got \"no-port\")\n", errb.String())
}

// Errors found when the server starts name the setting behind them: the
// address in use, a fixtures directory, a data directory, a scenario that
// does not load, a recording file that cannot be written.
func TestStartErrorsNameTheirSetting(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(notADir, []byte("x"), 0o644))
	badScenario := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(badScenario, []byte("name: bad\nsteps:\n  - call: accountGet\n   expect: {}\n"), 0o644))

	cases := []struct {
		name, value, want string
	}{
		{"addr", busy.Addr().String(), ": listen tcp " + busy.Addr().String() + ": bind: address already in use"},
		{"fixtures", filepath.Join(dir, "none"), ": stat " + filepath.Join(dir, "none") + ": no such file or directory"},
		{"fixtures", dir, ": " + dir + ": "},
		{"data-dir", filepath.Join(notADir, "sub"), ": "},
		{"scenario", badScenario, ": " + badScenario + ":4:4: "},
		{"record", filepath.Join(dir, "none", "x.yaml"), ": record " + filepath.Join(dir, "none", "x.yaml") + ": "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr := "127.0.0.1:0"
			if tc.name == "addr" {
				addr = tc.value
			}
			var errb bytes.Buffer
			code := serve([]string{"--addr", addr, "--" + tc.name, tc.value, "--clock", "fake"}, func(string) string { return "" }, io.Discard, &errb)
			assert.Equal(t, 1, code)
			assert.True(t, strings.HasPrefix(errb.String(), "signsandbox: --"+tc.name+tc.want), "%s", errb.String())
			assert.Equal(t, 1, strings.Count(errb.String(), "\n"), "one line: %s", errb.String())

			errb.Reset()
			env := map[string]string{envName(tc.name): tc.value, "SIGNSANDBOX_CLOCK": "fake"}
			if tc.name != "addr" {
				env["SIGNSANDBOX_ADDR"] = "127.0.0.1:0"
			}
			code = serve(nil, func(k string) string { return env[k] }, io.Discard, &errb)
			assert.Equal(t, 1, code)
			assert.True(t, strings.HasPrefix(errb.String(), "signsandbox: "+envName(tc.name)+tc.want), "%s", errb.String())
			assert.NotContains(t, errb.String(), "--"+tc.name)
		})
	}
}
