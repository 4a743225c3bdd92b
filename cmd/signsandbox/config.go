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
// matching SIGNSANDBOX_* environment variables (flags win; see
// settingSet).
type serveConfig struct {
	Addr      string
	Fixtures  string
	Clock     string
	LogLevel  slog.Level
	APIKey    string
	BaseURL   string
	Scenarios []string
	Record    string
	// KeepCredentials writes the world's credentials into the recording
	// instead of placeholders (sandbox.WithRecordedCredentials).
	KeepCredentials bool
	Offline         bool
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
	// SMTPRelay is the mail server outbox e-mails are relayed to
	// (sandbox.WithSMTPRelay); "" relays none.
	SMTPRelay string
	Limits    serverLimits
	// Shared holds the flags of a server a team shares (shared.go).
	Shared sharedConfig
	// GC is how the garbage collector trades memory for CPU (gc.go).
	GC gcConfig
	// AccessLog writes one info line per request (logging.go).
	AccessLog bool
	// settings are the settings this configuration was read from; they
	// know where each value came from (nil for a configuration built in
	// code: errors then name the flags).
	settings *settingSet
}

// serverLimits bound what slow and odd clients can hold: time to send a
// request's head and its body, time a keep-alive connection may idle, and
// the connections open at once. Every one is positive (the settings refuse
// others), so that the server stays protected and able to serve.
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
       ` + runSynopsis + `
       signsandbox record --upstream URL --out FILE [--addr ADDR] [--keep-credentials]
       signsandbox version | --version
       signsandbox healthcheck [--addr ADDR] [--ready]

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

Flags (each also read from the environment variable named with it; flags
win):
`

// parseServeConfig reads the server's settings (settingSet) from the
// command line and the environment; flags win. -h writes the usage to out
// and answers flag.ErrHelp.
func parseServeConfig(args []string, getenv func(string) string, out io.Writer) (serveConfig, error) {
	var c serveConfig
	set := c.settingSet(getenv)
	err := set.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(out, serveUsage)
		set.usage(out)
	}
	c.settings = set
	return c, err
}

// settingSet binds the server's settings to c: the table every flag of
// the server is a row of, in the order -h lists them.
func (c *serveConfig) settingSet(getenv func(string) string) *settingSet {
	rows := []setting{
		{name: "addr", arg: "ADDR", def: defaultAddr, usage: "listen address", parse: listenAddr(&c.Addr)},
		{name: "fixtures", arg: "DIR", usage: "fixtures directory instead of the embedded ones", parse: text(&c.Fixtures)},
		{name: "clock", arg: "real|fake", def: "real", usage: "default world clock", parse: oneOf(&c.Clock, "real", "fake")},
		{name: "log-level", arg: "LEVEL", def: "info", usage: "debug, info, warn or error", parse: logLevel(&c.LogLevel)},
		{name: "log-format", arg: "text|json", def: "text", usage: "text, or json: one JSON object per line on stdout and stderr, the start-up banner included", parse: oneOf(&c.LogFormat, "text", "json")},
		{name: "access-log", boolean: true, def: "true", usage: "one info line per request: method, path (page tokens and query values left out), status, bytes, duration, operation, world, request id, and why a refused call was refused", parse: boolean(&c.AccessLog)},
		{name: "api-key", arg: "KEY", usage: "fixed primary API key of the default world", parse: apiKey(&c.APIKey)},
		{name: "base-url", arg: "URL", usage: "public base URL for the URLs the sandbox hands out", parse: baseURL(&c.BaseURL)},
		{name: "scenario", arg: "FILE|NAME", list: true, usage: "scenario file or ready scenario to load into the default world; repeatable (the environment variable takes a comma-separated list)", parse: scenarioArg(&c.Scenarios)},
		{name: "record", arg: "FILE", usage: "record the session as a scenario file", parse: text(&c.Record)},
		{name: "keep-credentials", boolean: true, usage: "with --record: write the world's API keys, secrets and tokens into the recording instead of placeholders", parse: boolean(&c.KeepCredentials)},
		{name: "offline", boolean: true, usage: "substitute placeholder documents for file_urls instead of fetching", parse: boolean(&c.Offline)},
		{name: "allowed-hosts", arg: "HOSTS", usage: "comma-separated host names or addresses that may call the control plane and pages without credentials, besides loopback and the --base-url host", parse: commaList(&c.AllowedHosts, edge.CheckAllowedHost)},
		{name: "admin-token", arg: "TOKEN", usage: "require this token (header " + edge.AdminHeader + ") for creating, deleting and importing worlds and for control calls without a world key; prefer the environment variable", parse: text(&c.AdminToken)},
		{name: "allow-outbound", arg: "LIST", usage: "comma-separated host names (or *.domain), IP addresses, CIDRs, or private: internal destinations file_urls and callbacks may reach on a server with --admin-token, which otherwise connects only to public addresses", parse: commaList(&c.AllowOutbound, sandbox.CheckAllowOutbound)},
		{name: "smtp-relay", arg: "HOST:PORT", usage: "deliver every outbox e-mail over SMTP to this mail server (such as Mailpit's); without it no e-mail leaves the process", parse: smtpRelay(&c.SMTPRelay)},
		{name: "read-header-timeout", arg: "DURATION", def: "10s", usage: "time a client has to send a request's line and headers", parse: positiveDuration(&c.Limits.ReadHeaderTimeout)},
		{name: "read-timeout", arg: "DURATION", def: "1m", usage: "time a client has to send a request's body once its handler starts", parse: positiveDuration(&c.Limits.ReadTimeout)},
		{name: "idle-timeout", arg: "DURATION", def: "2m", usage: "time a keep-alive connection may wait for its next request", parse: positiveDuration(&c.Limits.IdleTimeout)},
		{name: "max-conns", arg: "N", def: strconv.Itoa(defaultLimits.MaxConns), usage: "connections open at once; more wait until one closes", parse: atLeast(&c.Limits.MaxConns, 1)},
	}
	rows = append(rows, c.Shared.settings()...)
	rows = append(rows, c.GC.settings()...)
	set := newSettingSet("signsandbox", getenv, rows...)
	set.checks = append(set.checks, c.Shared.checks)
	return set
}

// origin names where a setting of the server came from (see
// settingSet.origin), for errors found after parsing: a listen address in
// use, a fixtures directory without fixtures.
func (c serveConfig) origin(name string) string { return c.settings.origin(name) }

// logLevel stores a log level given by name.
func logLevel(p *slog.Level) func(string) error {
	return func(v string) error {
		switch strings.ToLower(v) {
		case "debug":
			*p = slog.LevelDebug
		case "info":
			*p = slog.LevelInfo
		case "warn":
			*p = slog.LevelWarn
		case "error":
			*p = slog.LevelError
		default:
			return bad("must be debug, info, warn or error (got %q)", v)
		}
		return nil
	}
}

// apiKey stores a fixed API key: clients send it as the user name of HTTP
// Basic credentials, which cannot hold a colon, and a key with spaces or
// control characters would not survive a shell or a header.
func apiKey(p *string) func(string) error {
	return func(v string) error {
		if strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == ':' || r == 0x7f }) {
			return bad("must not hold spaces, control characters or ':' (it is sent as the user name of HTTP Basic credentials)")
		}
		*p = v
		return nil
	}
}

// baseURL stores a public base URL the sandbox accepts.
func baseURL(p *string) func(string) error {
	return func(v string) error {
		if v != "" {
			if err := sandbox.CheckBaseURL(v); err != nil {
				return err
			}
		}
		*p = v
		return nil
	}
}

// scenarioArg adds a scenario file or ready scenario name.
func scenarioArg(p *[]string) func(string) error {
	return func(v string) error {
		if err := checkScenarioArg(v); err != nil {
			return &badValue{msg: err.Error()}
		}
		*p = append(*p, v)
		return nil
	}
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

// smtpRelay stores the mail server the outbox is relayed to, host:port.
func smtpRelay(p *string) func(string) error {
	return func(v string) error {
		if v != "" {
			if sandbox.CheckSMTPRelay(v) != nil {
				return bad("must be HOST:PORT of a mail server, such as 127.0.0.1:1025 (got %q)", v)
			}
		}
		*p = v
		return nil
	}
}
