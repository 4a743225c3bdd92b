package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
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
	// AllowedHosts may call without credentials besides loopback names
	// and the base URL's host (sandbox.WithAllowedHosts).
	AllowedHosts []string
	// AdminToken, when set, protects administration
	// (sandbox.WithAdminToken); it also limits file_urls and callbacks to
	// public addresses, beyond AllowOutbound (sandbox.WithAllowOutbound).
	AdminToken    string
	AllowOutbound []string
	// LogFormat is "text" or "json".
	LogFormat string
	Limits    serverLimits
	// Shared holds the flags of a server a team shares (shared.go).
	Shared sharedConfig
	// GC is how the garbage collector trades memory for CPU (gc.go).
	GC gcConfig
}

// serverLimits bound what slow and odd clients can hold: time to send a
// request's head and its body, time a keep-alive connection may idle, and
// the connections open at once.
type serverLimits struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
	MaxConns          int
}

// defaultLimits are the limits unless flags say otherwise. The idle
// timeout is above the 90 s for which Go's and most clients keep idle
// connections, so that a client seldom sends on a connection the server
// is closing.
var defaultLimits = serverLimits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       time.Minute,
	IdleTimeout:       2 * time.Minute,
	MaxConns:          1024,
}

// defaultAddr is where the sandbox listens, and healthcheck asks, by default.
const defaultAddr = "127.0.0.1:8080"

// serveUsage is printed by signsandbox -h, before the flags.
const serveUsage = `usage: signsandbox [flags]
       signsandbox run [--target URL [--keep]] [--json] FILE|NAME...
       signsandbox record --upstream URL --out FILE [--addr ADDR]
       signsandbox version | --version
       signsandbox healthcheck [--addr ADDR]

Without a command, serves the Dropbox Sign API sandbox (API under /v3,
control plane under /_sandbox) until SIGTERM or Ctrl-C.

Commands (each has its own -h):
  run          run the steps of scenario files (or ready scenarios) against a
               fresh world and report each difference; exits 1 on failure
  record       recording proxy: forward to another server and write the
               session as a scenario file that run replays
  version      print the version and commit (also --version)
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
	var allowedHosts string
	fs.StringVar(&allowedHosts, "allowed-hosts", env("SIGNSANDBOX_ALLOWED_HOSTS", ""), "comma-separated host names or addresses that may call the control plane and pages without credentials, besides loopback and the --base-url host (SIGNSANDBOX_ALLOWED_HOSTS)")
	fs.StringVar(&c.AdminToken, "admin-token", env("SIGNSANDBOX_ADMIN_TOKEN", ""), "require this token (header "+edge.AdminHeader+") for creating, deleting and importing worlds and for control calls without a world key; prefer the environment variable (SIGNSANDBOX_ADMIN_TOKEN)")
	var allowOutbound string
	fs.StringVar(&allowOutbound, "allow-outbound", env("SIGNSANDBOX_ALLOW_OUTBOUND", ""), "comma-separated host names (or *.domain), IP addresses, CIDRs, or private: internal destinations file_urls and callbacks may reach on a server with --admin-token, which otherwise connects only to public addresses (SIGNSANDBOX_ALLOW_OUTBOUND)")
	fs.StringVar(&c.LogFormat, "log-format", env("SIGNSANDBOX_LOG_FORMAT", "text"), "text or json (SIGNSANDBOX_LOG_FORMAT)")
	var envErr error
	envDuration := func(name string, def time.Duration) time.Duration {
		v := getenv(name)
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil && envErr == nil {
			envErr = fmt.Errorf("%s: %v", name, err)
		}
		return d
	}
	fs.DurationVar(&c.Limits.ReadHeaderTimeout, "read-header-timeout", envDuration("SIGNSANDBOX_READ_HEADER_TIMEOUT", defaultLimits.ReadHeaderTimeout), "time a client has to send a request's line and headers (SIGNSANDBOX_READ_HEADER_TIMEOUT)")
	fs.DurationVar(&c.Limits.ReadTimeout, "read-timeout", envDuration("SIGNSANDBOX_READ_TIMEOUT", defaultLimits.ReadTimeout), "time a client has to send a request's body once its handler starts (SIGNSANDBOX_READ_TIMEOUT)")
	fs.DurationVar(&c.Limits.IdleTimeout, "idle-timeout", envDuration("SIGNSANDBOX_IDLE_TIMEOUT", defaultLimits.IdleTimeout), "time a keep-alive connection may wait for its next request (SIGNSANDBOX_IDLE_TIMEOUT)")
	maxConns := defaultLimits.MaxConns
	if v := getenv("SIGNSANDBOX_MAX_CONNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil && envErr == nil {
			envErr = fmt.Errorf("SIGNSANDBOX_MAX_CONNS: %v", err)
		}
		maxConns = n
	}
	fs.IntVar(&c.Limits.MaxConns, "max-conns", maxConns, "connections open at once; more wait until one closes (SIGNSANDBOX_MAX_CONNS)")
	if envErr != nil {
		return c, envErr
	}
	c.Shared.flags(fs, env)
	c.GC.flags(fs, env)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := c.Shared.check(); err != nil {
		return c, err
	}
	if err := c.GC.check(); err != nil {
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
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, fmt.Errorf("--log-format must be text or json, not %q", c.LogFormat)
	}
	for _, h := range strings.Split(allowedHosts, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if err := edge.CheckAllowedHost(h); err != nil {
			return c, fmt.Errorf("--allowed-hosts: %v", err)
		}
		c.AllowedHosts = append(c.AllowedHosts, h)
	}
	for _, e := range strings.Split(allowOutbound, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if err := sandbox.CheckAllowOutbound(e); err != nil {
			return c, fmt.Errorf("--allow-outbound: %v", err)
		}
		c.AllowOutbound = append(c.AllowOutbound, e)
	}
	if err := c.Limits.check(); err != nil {
		return c, err
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

// check refuses limits that would leave the server unprotected or unable
// to serve: every timeout and the connection cap must be positive.
func (l serverLimits) check() error {
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--read-header-timeout", l.ReadHeaderTimeout}, {"--read-timeout", l.ReadTimeout}, {"--idle-timeout", l.IdleTimeout}} {
		if d.v <= 0 {
			return fmt.Errorf("%s must be positive, not %v", d.flag, d.v)
		}
	}
	if l.MaxConns < 1 {
		return fmt.Errorf("--max-conns must be at least 1, not %d", l.MaxConns)
	}
	return nil
}
