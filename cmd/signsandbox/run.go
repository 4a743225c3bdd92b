package main

// signsandbox run: run the steps of scenario files against a fresh world,
// in-process (a new sandbox per file) or in a running sandbox (--target),
// printing each step, a readable difference for each failed expectation,
// and a summary; the exit status is non-zero when anything failed, so CI
// can run it.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/scenarios"
)

func init() {
	commands["run"] = cmdRun
}

// runUsage is printed by signsandbox run -h.
const runUsage = `usage: signsandbox run [--target URL [--keep] [--admin-token T]] [--json] FILE|NAME...

Runs the steps of each scenario file (or ready scenario NAME: %s)
against a fresh world: in a new in-process sandbox, or in the running
sandbox at --target (a world is created there for each file, and deleted
when the file's run ends unless --keep is given; kept worlds are named
with their API key in the output). Exits 1 when a step fails or a file is
refused, 2 on bad usage.
`

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("signsandbox run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, runUsage, strings.Join(scenarios.Names(), ", ")); fs.PrintDefaults() }
	target := fs.String("target", os.Getenv("SIGNSANDBOX_TARGET"), "base URL of a running sandbox, such as http://127.0.0.1:8080 (SIGNSANDBOX_TARGET)")
	asJSON := fs.Bool("json", false, "print the results as JSON after the steps")
	offline := fs.Bool("offline", false, "in-process sandboxes substitute placeholder documents for file_urls")
	keep := fs.Bool("keep", false, "with --target, keep the world made for each file instead of deleting it")
	adminToken := fs.String("admin-token", os.Getenv("SIGNSANDBOX_ADMIN_TOKEN"), "with --target, the target's admin token, sent to create, import and delete the run's worlds (SIGNSANDBOX_ADMIN_TOKEN)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "signsandbox run: name at least one scenario file")
		fs.Usage()
		return 2
	}
	var files []sandbox.ScenarioFile
	for _, arg := range fs.Args() {
		f, err := readScenarioArg(arg)
		if err != nil {
			fmt.Fprintln(stderr, "signsandbox run:", err)
			return 2
		}
		files = append(files, f)
	}
	opts := sandbox.RunOptions{Target: strings.TrimSuffix(*target, "/"), Out: stdout, Keep: *keep}
	if *offline {
		opts.Options = append(opts.Options, sandbox.WithOfflineFiles())
	}
	if *adminToken != "" && opts.Target != "" {
		client, err := adminClient(opts.Target, *adminToken)
		if err != nil {
			fmt.Fprintln(stderr, "signsandbox run: --target:", err)
			return 2
		}
		opts.Client = client
	}
	results := sandbox.RunScenarios(context.Background(), files, opts)
	failed := 0
	for _, r := range results {
		if !r.OK() {
			failed++
		}
	}
	fmt.Fprintf(stdout, "\n%d scenario file(s): %d passed, %d failed\n", len(results), len(results)-failed, failed)
	for _, r := range results {
		if r.OK() {
			continue
		}
		fmt.Fprintf(stdout, "FAIL %s\n", r.File)
		if r.Error != "" {
			fmt.Fprintf(stdout, "  %s\n", strings.ReplaceAll(r.Error, "\n", "\n  "))
		}
		for _, f := range r.Failures {
			fmt.Fprintf(stdout, "  %s\n", strings.ReplaceAll(f, "\n", "\n  "))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(results)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// readScenarioArg reads a scenario file, or a ready scenario by name when
// no such file exists.
func readScenarioArg(arg string) (sandbox.ScenarioFile, error) {
	b, err := os.ReadFile(arg)
	if err == nil {
		return sandbox.ScenarioFile{Name: arg, Data: b}, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return sandbox.ScenarioFile{}, err
	}
	if data, rerr := scenarios.Read(arg); rerr == nil {
		return sandbox.ScenarioFile{Name: "scenarios/" + arg + ".yaml", Data: data}, nil
	}
	return sandbox.ScenarioFile{}, errNoScenario(arg)
}

// errNoScenario says that arg names neither a file nor a ready scenario,
// and lists the ready ones (run and --scenario take both).
func errNoScenario(arg string) error {
	return fmt.Errorf("%s: no such file and no ready scenario of that name (ready: %s)", arg, strings.Join(scenarios.Names(), ", "))
}

// adminClient is the run's HTTP client for a target that has an admin
// token: it adds the token to the requests it sends to the target's host,
// and to no other host.
func adminClient(target, token string) (*http.Client, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a base URL such as http://127.0.0.1:8080", target)
	}
	return &http.Client{Timeout: 2 * time.Minute, Transport: adminTransport{host: u.Host, token: token, next: http.DefaultTransport}}, nil
}

// adminTransport adds the admin token header to requests for one host.
type adminTransport struct {
	host, token string
	next        http.RoundTripper
}

func (t adminTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != t.host {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set(edge.AdminHeader, t.token)
	return t.next.RoundTrip(r)
}
