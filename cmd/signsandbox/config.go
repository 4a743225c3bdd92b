package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

// serveConfig is what the serve command runs with, from flags and the
// matching SIGNSANDBOX_* environment variables (flags win).
type serveConfig struct {
	Addr      string
	Fixtures  string
	Clock     string
	LogLevel  slog.Level
	APIKey    string
	BaseURL   string
	Scenarios []string
	Record    string
	Offline   bool
	// Shared holds the flags of a server a team shares (shared.go).
	Shared sharedConfig
}

// defaultAddr is where the sandbox listens, and healthcheck asks, by default.
const defaultAddr = "127.0.0.1:8080"

// serveUsage is printed by signsandbox -h, before the flags.
const serveUsage = `usage: signsandbox [flags]
       signsandbox run [--target URL [--keep]] [--json] FILE|NAME...
       signsandbox record --upstream URL --out FILE [--addr ADDR]
       signsandbox version
       signsandbox healthcheck [--addr ADDR]

Without a command, serves the Dropbox Sign API sandbox (API under /v3,
control plane under /_sandbox) until SIGTERM or Ctrl-C.

Commands (each has its own -h):
  run          run the steps of scenario files (or ready scenarios) against a
               fresh world and report each difference; exits 1 on failure
  record       recording proxy: forward to another server and write the
               session as a scenario file that run replays
  version      print the version
  healthcheck  exit 0 when the sandbox at --addr answers (container health
               checks)

Flags (each also read from the environment variable named with it):
`

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// parseServeConfig reads flags after the environment: every flag has an
// environment variable of the same name, upper-cased, prefixed with
// SIGNSANDBOX_ and with dashes as underscores.
func parseServeConfig(args []string, getenv func(string) string, out io.Writer) (serveConfig, error) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	var c serveConfig
	var level string
	var scenarioFlags stringList
	fs := flag.NewFlagSet("signsandbox", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { fmt.Fprint(out, serveUsage); fs.PrintDefaults() }
	fs.StringVar(&c.Addr, "addr", env("SIGNSANDBOX_ADDR", defaultAddr), "listen address (SIGNSANDBOX_ADDR)")
	fs.StringVar(&c.Fixtures, "fixtures", env("SIGNSANDBOX_FIXTURES", ""), "fixtures directory instead of the embedded ones (SIGNSANDBOX_FIXTURES)")
	fs.StringVar(&c.Clock, "clock", env("SIGNSANDBOX_CLOCK", "real"), "default world clock: real or fake (SIGNSANDBOX_CLOCK)")
	fs.StringVar(&level, "log-level", env("SIGNSANDBOX_LOG_LEVEL", "info"), "debug, info, warn or error (SIGNSANDBOX_LOG_LEVEL)")
	fs.StringVar(&c.APIKey, "api-key", env("SIGNSANDBOX_API_KEY", ""), "fixed primary API key of the default world (SIGNSANDBOX_API_KEY)")
	fs.StringVar(&c.BaseURL, "base-url", env("SIGNSANDBOX_BASE_URL", ""), "public base URL for the URLs the sandbox hands out (SIGNSANDBOX_BASE_URL)")
	fs.Var(&scenarioFlags, "scenario", "scenario file to load into the default world; repeatable (SIGNSANDBOX_SCENARIO, comma-separated)")
	fs.StringVar(&c.Record, "record", env("SIGNSANDBOX_RECORD", ""), "record the session as a scenario file (SIGNSANDBOX_RECORD)")
	offline := env("SIGNSANDBOX_OFFLINE", "")
	fs.BoolVar(&c.Offline, "offline", offline == "1" || offline == "true", "substitute placeholder documents for file_urls instead of fetching (SIGNSANDBOX_OFFLINE)")
	c.Shared.flags(fs, env)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := c.Shared.check(); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.Clock != "real" && c.Clock != "fake" {
		return c, fmt.Errorf("--clock must be real or fake, not %q", c.Clock)
	}
	if c.BaseURL != "" {
		if err := sandbox.CheckBaseURL(c.BaseURL); err != nil {
			return c, fmt.Errorf("--base-url: %v", err)
		}
	}
	if err := c.LogLevel.UnmarshalText([]byte(level)); err != nil {
		return c, fmt.Errorf("--log-level: %v", err)
	}
	c.Scenarios = scenarioFlags
	if len(c.Scenarios) == 0 {
		if v := getenv("SIGNSANDBOX_SCENARIO"); v != "" {
			c.Scenarios = strings.Split(v, ",")
		}
	}
	for _, f := range c.Scenarios {
		if err := checkScenarioArg(f); err != nil {
			return c, fmt.Errorf("--scenario %w", err)
		}
	}
	return c, nil
}

// checkScenarioArg refuses a --scenario that is neither a file nor a ready
// scenario, listing the ready ones (other problems with a file, such as
// its permissions or contents, are reported when it is loaded).
func checkScenarioArg(f string) error {
	if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := scenarios.Read(f); err == nil {
		return nil
	}
	return errNoScenario(f)
}
