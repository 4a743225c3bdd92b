package main

// signsandbox run: run the steps of scenario files against a fresh world,
// in-process (a new sandbox per file) or in a running sandbox (--target),
// printing each step, a readable difference for each failed expectation,
// and a summary; the exit status is non-zero when anything failed, so CI
// can run it. --json and --junit write the results for machines
// (run_report.go).

import (
	"context"
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

// runSynopsis is run's usage line. -h prints it, and docs/cli.md and
// scenarios/README.md show it as it is (TestRunUsageAgreesEverywhere).
const runSynopsis = "signsandbox run [--target URL [--keep] [--admin-token T]] [--offline] [--json] [--junit FILE] FILE|NAME..."

// runUsage is printed by signsandbox run -h, before the flags.
const runUsage = `usage: ` + runSynopsis + `

Runs the steps of each scenario file (or ready scenario NAME: %s)
against a fresh world: in a new in-process sandbox, or in the running
sandbox at --target (a world is created there for each file, and deleted
when the file's run ends unless --keep is given; kept worlds are named
with their API key in the output). It prints each step, each difference
under the step it failed, and a summary. With --json the results are the
only output on stdout, one JSON document, and the report goes to stderr;
--junit writes a JUnit XML report for CI besides. Exits 1 when a step
fails or a file is refused, 2 on bad usage (then stdout is empty).

Flags:
`

// runFlags are the settings of run.
type runFlags struct {
	target, adminToken, junit string
	keep, offline, json       bool
}

// settingSet binds run's settings to f.
func (f *runFlags) settingSet(getenv func(string) string) *settingSet {
	set := newSettingSet("signsandbox run", getenv,
		setting{name: "target", arg: "URL", usage: "base URL of a running sandbox to run in, such as http://127.0.0.1:8080 (default: a new in-process sandbox per file)", parse: targetURL(&f.target)},
		setting{name: "keep", boolean: true, noEnv: true, usage: "with --target, keep the world made for each file instead of deleting it", parse: boolean(&f.keep)},
		setting{name: "admin-token", arg: "TOKEN", usage: "with --target, the target's admin token, sent to create, import and delete the run's worlds", parse: text(&f.adminToken)},
		setting{name: "offline", boolean: true, noEnv: true, usage: "in-process sandboxes substitute placeholder documents for file_urls", parse: boolean(&f.offline)},
		setting{name: "json", boolean: true, noEnv: true, usage: "write the results to stdout as one JSON document, and the report to stderr", parse: boolean(&f.json)},
		setting{name: "junit", arg: "FILE", noEnv: true, usage: "also write a JUnit XML report to FILE (a test suite per file, a test case per step)", parse: text(&f.junit)},
	)
	set.takesArgs = true
	return set
}

// targetURL stores a base URL to run against.
func targetURL(p *string) func(string) error {
	return func(v string) error {
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return bad("must be the base URL of a running sandbox, such as http://127.0.0.1:8080 (got %q)", v)
			}
		}
		*p = strings.TrimSuffix(v, "/")
		return nil
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	var f runFlags
	set := f.settingSet(os.Getenv)
	if err := set.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, runUsage, strings.Join(scenarios.Names(), ", "))
			set.usage(stderr)
			return 0
		}
		fmt.Fprintln(stderr, "signsandbox run:", err)
		if isUsage(err) {
			fmt.Fprintln(stderr, "usage:", runSynopsis, "(signsandbox run -h says more)")
		}
		return 2
	}
	if len(set.args) == 0 {
		fmt.Fprintln(stderr, "signsandbox run: name at least one scenario file")
		fmt.Fprintln(stderr, "usage:", runSynopsis, "(signsandbox run -h says more)")
		return 2
	}
	var files []sandbox.ScenarioFile
	for _, arg := range set.args {
		file, err := readScenarioArg(arg)
		if err != nil {
			fmt.Fprintln(stderr, "signsandbox run:", err)
			return 2
		}
		files = append(files, file)
	}
	// The report is for people; with --json, stdout holds the results only.
	report := stdout
	if f.json {
		report = stderr
	}
	opts := sandbox.RunOptions{Target: f.target, Keep: f.keep}
	if f.offline {
		opts.Options = append(opts.Options, sandbox.WithOfflineFiles())
	}
	if f.adminToken != "" && opts.Target != "" {
		opts.Client = adminClient(opts.Target, f.adminToken)
	}
	runs := runFiles(files, opts, report)
	failed := printSummary(report, runs)
	if f.json {
		if err := writeJSONResults(stdout, runs); err != nil {
			fmt.Fprintln(stderr, "signsandbox run: --json:", err)
			return 1
		}
	}
	if f.junit != "" {
		if err := writeJUnitFile(f.junit, runs); err != nil {
			fmt.Fprintln(stderr, "signsandbox run: --junit:", err)
			return 1
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// fileRun is one file's run as the reports see it: its result, when it
// started and how long it took, and how long each step took.
type fileRun struct {
	sandbox.RunResult
	Started time.Time
	Elapsed time.Duration
	Steps   []time.Duration
	// timed counts the steps the clock saw end (every one, unless the
	// runner's report changed its form).
	timed int
}

// runFiles runs the files one after the other, timing each and its steps.
func runFiles(files []sandbox.ScenarioFile, opts sandbox.RunOptions, report io.Writer) []fileRun {
	runs := make([]fileRun, 0, len(files))
	for _, file := range files {
		clock := newStepClock(report)
		opts.Out = clock
		start := time.Now()
		res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{file}, opts)[0]
		runs = append(runs, fileRun{RunResult: res, Started: start, Elapsed: time.Since(start),
			Steps: clock.steps(len(res.StepResults)), timed: clock.timed()})
	}
	return runs
}

// printSummary writes how many files passed and names those that failed
// (their differences are in the report above, once), and answers how
// many failed.
func printSummary(w io.Writer, runs []fileRun) int {
	failed := 0
	for _, r := range runs {
		if !r.OK() {
			failed++
		}
	}
	fmt.Fprintf(w, "\n%d scenario file(s): %d passed, %d failed\n", len(runs), len(runs)-failed, failed)
	for _, r := range runs {
		if !r.OK() {
			fmt.Fprintf(w, "FAIL %s\n", r.File)
		}
	}
	return failed
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
// and to no other host. The target is a URL targetURL accepted.
func adminClient(target, token string) *http.Client {
	u, _ := url.Parse(target)
	return &http.Client{Timeout: 2 * time.Minute, Transport: adminTransport{host: u.Host, token: token, next: http.DefaultTransport}}
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
