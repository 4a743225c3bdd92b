// Command signsandbox serves the Dropbox Sign API sandbox.
//
//	signsandbox [flags]            serve (see signsandbox -h)
//	signsandbox run FILE|NAME...   run scenario files (see signsandbox run -h)
//	signsandbox record ...         recording proxy (see signsandbox record -h)
//	signsandbox version            print the version (also --version)
//	signsandbox healthcheck        exit 0 when a local sandbox answers (container health checks)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

// commands are the subcommands besides serving; other files add theirs.
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"version":     cmdVersion,
	"healthcheck": cmdHealthcheck,
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 {
		if cmd, ok := commands[args[0]]; ok {
			os.Exit(cmd(args[1:], os.Stdout, os.Stderr))
		}
	}
	os.Exit(serve(args, os.Getenv, os.Stdout, os.Stderr))
}

// healthcheckUsage is printed by signsandbox healthcheck -h.
const healthcheckUsage = `usage: signsandbox healthcheck [--addr ADDR] [--ready]

Asks the sandbox listening on ADDR for /_sandbox/health (with --ready,
/_sandbox/ready: also false while the data directory cannot be written) and
exits 0 when it answers 200, 1 otherwise (for container health checks: the
image has no curl). A wildcard host (0.0.0.0, ::) is asked on 127.0.0.1.
`

// cmdHealthcheck asks the local sandbox for /_sandbox/health: the container
// image has no curl. It takes only --addr (SIGNSANDBOX_ADDR), so that the
// server's other settings cannot make a health check fail.
func cmdHealthcheck(args []string, stdout, stderr io.Writer) int {
	var addr string
	var ready bool
	set := newSettingSet("signsandbox healthcheck", os.Getenv,
		setting{name: "addr", arg: "ADDR", def: defaultAddr, usage: "address the sandbox listens on", parse: listenAddr(&addr)},
		setting{name: "ready", boolean: true, noEnv: true, usage: "ask for readiness (/_sandbox/ready) instead of liveness (/_sandbox/health)", parse: boolean(&ready)})
	if err := set.parse(args); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprint(stderr, healthcheckUsage)
			set.usage(stderr)
			return 0
		case isUsage(err):
			fmt.Fprintf(stderr, "healthcheck: %v (signsandbox healthcheck -h lists the flags)\n", err)
			return 2
		}
		// Docker reads any exit status but 0 and 1 as reserved: a bad
		// address is an unhealthy answer.
		fmt.Fprintln(stderr, "healthcheck:", err)
		return 1
	}
	host, port, _ := net.SplitHostPort(addr) // the setting refused what does not split
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	client := &http.Client{Timeout: 3 * time.Second}
	path := "/health"
	if ready {
		path = "/ready"
	}
	resp, err := client.Get("http://" + net.JoinHostPort(host, port) + sandbox.ControlPrefix + path)
	if err != nil {
		fmt.Fprintln(stderr, "healthcheck:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(stderr, "healthcheck: status", resp.StatusCode)
		return 1
	}
	fmt.Fprintln(stdout, "ok")
	return 0
}

// serveOptions turns the configuration into sandbox options.
func serveOptions(cfg serveConfig, logger *slog.Logger) []sandbox.Option {
	opts := []sandbox.Option{sandbox.WithLogger(logger)}
	if cfg.Clock == "real" {
		// Otherwise the package default: a fake clock at a fixed instant.
		opts = append(opts, sandbox.WithRealClock())
	}
	if cfg.Fixtures != "" {
		opts = append(opts, sandbox.WithFixturesDir(cfg.Fixtures))
	}
	if cfg.APIKey != "" {
		opts = append(opts, sandbox.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, sandbox.WithBaseURL(cfg.BaseURL))
	}
	if cfg.Offline {
		opts = append(opts, sandbox.WithOfflineFiles())
	}
	for _, f := range cfg.Scenarios {
		opts = append(opts, scenarioOption(f))
	}
	if cfg.Record != "" {
		opts = append(opts, sandbox.WithRecording(cfg.Record))
		if cfg.KeepCredentials {
			opts = append(opts, sandbox.WithRecordedCredentials())
		}
	}
	if len(cfg.AllowedHosts) > 0 {
		opts = append(opts, sandbox.WithAllowedHosts(cfg.AllowedHosts...))
	}
	if cfg.AdminToken != "" {
		opts = append(opts, sandbox.WithAdminToken(cfg.AdminToken))
	}
	if len(cfg.AllowOutbound) > 0 {
		opts = append(opts, sandbox.WithAllowOutbound(cfg.AllowOutbound...))
	}
	if cfg.SMTPRelay != "" {
		opts = append(opts, sandbox.WithSMTPRelay(cfg.SMTPRelay))
	}
	opts = append(opts, cfg.Shared.options()...)
	return opts
}

func serve(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := parseServeConfig(args, getenv, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		out := newOutput(formatOf(args, getenv), slog.LevelInfo, stdout, stderr)
		out.fail(err)
		out.close()
		return 2
	}
	cfg.GC.apply(getenv)
	out := newOutput(cfg.LogFormat, cfg.LogLevel, stdout, stderr)
	defer out.close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		out.fail(fmt.Errorf("%s: %w", cfg.origin("addr"), err))
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	// After the first signal, a second one stops the process at once
	// instead of waiting for the graceful shutdown.
	go func() { <-ctx.Done(); stop() }()
	if err := serveWith(ctx, ln, cfg, out); err != nil {
		out.fail(err)
		return 1
	}
	return 0
}

// shutdownGrace is how long requests in flight may take to finish once
// the server is asked to stop; connections still busy then are closed.
const shutdownGrace = 10 * time.Second

// serveOn serves the sandbox on ln until ctx ends (SIGTERM or Ctrl-C in
// the binary), then shuts down gracefully: the listener closes, requests
// in flight finish (for up to shutdownGrace), the worlds' background work
// stops. It closes ln. Tests call it with their own listener and context.
func serveOn(ctx context.Context, ln net.Listener, cfg serveConfig, stdout, stderr io.Writer) error {
	out := newOutput(cfg.LogFormat, cfg.LogLevel, stdout, stderr)
	defer out.close()
	return serveWith(ctx, ln, cfg, out)
}

// serveWith is serveOn with the output made.
func serveWith(ctx context.Context, ln net.Listener, cfg serveConfig, out *output) error {
	logger := out.log
	// The listener answers (alive, not ready) while New restores a data
	// directory; see gate.
	var g gate
	srv := newHTTPServer(&g, cfg.Limits, logger)
	ln = serverListener(ln, cfg.Limits)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	sb, err := sandbox.New(serveOptions(cfg, logger)...)
	if err != nil {
		_ = srv.Close()
		return startError(cfg, err)
	}
	defer sb.Close()
	idle, _ := cfg.GC.releaseIdle() // the settings refused what does not parse
	rel := newReleaser(idle)
	var h http.Handler = sb
	if cfg.AccessLog {
		h = accessLog(logger, sb)
	}
	g.open(rel.wrap(h))
	go rel.run(ctx)
	cfg.GC.startTuning()
	out.banner(ln.Addr().String(), sb.DefaultAPIKey(), cfg.AdminToken != "")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	out.stopped()
	return nil
}

// optionSettings names the setting behind each option whose value can
// make sandbox.New fail (see sandbox.OptionError).
var optionSettings = map[string]string{
	"WithFixturesDir": "fixtures",
	"WithDataDir":     "data-dir",
	"WithScenario":    "scenario",
	"WithRecording":   "record",
}

// startError is an error of sandbox.New as the binary reports it: naming
// the setting (flag or environment variable) whose value caused it, and
// without the package's own prefix.
func startError(cfg serveConfig, err error) error {
	msg := strings.TrimPrefix(err.Error(), "sandbox: ")
	var oe *sandbox.OptionError
	if errors.As(err, &oe) {
		if name, ok := optionSettings[oe.Option]; ok {
			return fmt.Errorf("%s: %s", cfg.origin(name), msg)
		}
	}
	return errors.New(msg)
}

// isLoopback reports whether a listen address is reachable only from this
// machine.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// displayAddr shows a wildcard listener as localhost.
func displayAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// scenarioOption loads --scenario FILE from disk, or, when no such file exists
// and the value is a bare name, the ready scenario of that name (scenarios/).
func scenarioOption(f string) sandbox.Option {
	if _, err := os.Stat(f); err != nil {
		if data, rerr := scenarios.Read(f); rerr == nil {
			return sandbox.WithScenario(f, data)
		}
	}
	return sandbox.WithScenarioFile(f)
}
