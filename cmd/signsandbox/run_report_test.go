package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

// runFixtures writes a scenario that fails one expectation and one that
// does not parse, and answers their paths.
func runFixtures(t *testing.T) (failing, broken string) {
	t.Helper()
	b, err := scenarios.Read("quota-exhausted")
	require.NoError(t, err)
	changed := strings.Replace(string(b), "api_signature_requests_left: 0", "api_signature_requests_left: 1", 1)
	require.NotEqual(t, string(b), changed)
	dir := t.TempDir()
	failing = filepath.Join(dir, "changed.yaml")
	require.NoError(t, os.WriteFile(failing, []byte(changed), 0o644))
	broken = filepath.Join(dir, "broken.yaml")
	require.NoError(t, os.WriteFile(broken, []byte("name: broken\nsteps:\n  - call: accountGet\n   expect: {}\n"), 0o644))
	return failing, broken
}

// requireOneJSONDocument fails unless out is exactly one JSON value.
func requireOneJSONDocument(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	var doc []map[string]any
	require.NoError(t, dec.Decode(&doc), "stdout is not JSON: %s", out)
	_, err := dec.Token()
	require.ErrorIs(t, err, io.EOF, "stdout holds more than one JSON document: %s", out)
	return doc
}

// With --json, stdout holds one JSON document and nothing else, whether
// the run passes or fails; the report for people goes to stderr.
func TestRunJSONIsAloneOnStdout(t *testing.T) {
	failing, broken := runFixtures(t)
	var out, errb bytes.Buffer
	require.Equal(t, 0, cmdRun([]string{"--json", "happy-path"}, &out, &errb), errb.String())
	doc := requireOneJSONDocument(t, out.Bytes())
	require.Len(t, doc, 1)
	assert.Equal(t, "happy-path", doc[0]["scenario"])
	assert.Equal(t, float64(14), doc[0]["steps"])
	assert.Len(t, doc[0]["step_results"], 14)
	assert.Contains(t, doc[0], "seconds")
	assert.Contains(t, errb.String(), "PASS happy-path: 14 step(s)")

	out.Reset()
	errb.Reset()
	require.Equal(t, 1, cmdRun([]string{failing, broken, "--json"}, &out, &errb), "flags may follow the files")
	doc = requireOneJSONDocument(t, out.Bytes())
	require.Len(t, doc, 2)
	assert.Equal(t, float64(1), doc[0]["failed"])
	assert.Contains(t, doc[1]["error"], "broken.yaml:4:4: ")
	assert.Contains(t, errb.String(), "2 scenario file(s): 0 passed, 2 failed")
}

// A refused file's message is printed once: under the file in the report;
// the summary names the file only.
func TestRunReportsEachProblemOnce(t *testing.T) {
	failing, broken := runFixtures(t)
	code, out := runCmd(failing, broken)
	assert.Equal(t, 1, code)
	assert.Equal(t, 1, strings.Count(out, "does not line up")+strings.Count(out, "starts in column 4"), out)
	assert.Equal(t, 1, strings.Count(out, "api_signature_requests_left: want 1, got 0"), out)
	assert.Contains(t, out, "2 scenario file(s): 0 passed, 2 failed\nFAIL "+failing+"\nFAIL "+broken+"\n")
}

// The JUnit report as CI tools read it: a testsuites root, a testsuite per
// file and a testcase per step with the counts that add up, a failure
// with its message and its differences, a file that could not run as a
// testcase in error, and a time on every element (not checked: durations
// vary).
func TestRunJUnitReport(t *testing.T) {
	failing, broken := runFixtures(t)
	path := filepath.Join(t.TempDir(), "reports", "junit.xml")
	code, out := runCmd("--junit", path, "happy-path", failing, broken)
	require.Equal(t, 1, code, out)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(raw, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)))

	type problem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		File      string   `xml:"file,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *problem `xml:"failure"`
		Error     *problem `xml:"error"`
	}
	type testsuite struct {
		Name      string     `xml:"name,attr"`
		Tests     int        `xml:"tests,attr"`
		Failures  int        `xml:"failures,attr"`
		Errors    int        `xml:"errors,attr"`
		Time      string     `xml:"time,attr"`
		Timestamp string     `xml:"timestamp,attr"`
		Cases     []testcase `xml:"testcase"`
	}
	var doc struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(raw, &doc))
	require.Len(t, doc.Suites, 3)
	isSeconds := func(s string) bool { _, err := strconv.ParseFloat(s, 64); return err == nil }
	assert.True(t, isSeconds(doc.Time))

	tests, failures, errs := 0, 0, 0
	for _, s := range doc.Suites {
		assert.Equal(t, len(s.Cases), s.Tests, s.Name)
		assert.True(t, isSeconds(s.Time), s.Name)
		assert.NotEmpty(t, s.Timestamp)
		f, e := 0, 0
		for _, c := range s.Cases {
			assert.True(t, isSeconds(c.Time), c.Name)
			assert.NotEmpty(t, c.Classname)
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
		}
		assert.Equal(t, f, s.Failures, s.Name)
		assert.Equal(t, e, s.Errors, s.Name)
		tests, failures, errs = tests+s.Tests, failures+f, errs+e
	}
	assert.Equal(t, tests, doc.Tests)
	assert.Equal(t, failures, doc.Failures)
	assert.Equal(t, errs, doc.Errors)

	happy := doc.Suites[0]
	assert.Equal(t, "happy-path", happy.Name)
	assert.Len(t, happy.Cases, 14)
	assert.Equal(t, "1 send: POST /v3/signature_request/send", happy.Cases[0].Name)
	assert.Equal(t, "happy-path", happy.Cases[0].Classname)
	assert.Equal(t, "scenarios/happy-path.yaml", happy.Cases[0].File)

	changed := doc.Suites[1]
	assert.Equal(t, 1, changed.Failures)
	require.NotNil(t, changed.Cases[0].Failure)
	assert.Equal(t, "body.account.quotas.api_signature_requests_left: want 1, got 0", changed.Cases[0].Failure.Message)
	assert.Contains(t, changed.Cases[0].Failure.Text, "api_signature_requests_left: want 1, got 0")

	refused := doc.Suites[2]
	assert.Equal(t, broken, refused.Name)
	require.Len(t, refused.Cases, 1)
	require.NotNil(t, refused.Cases[0].Error)
	assert.Contains(t, refused.Cases[0].Error.Message, "broken.yaml:4:4: ")
}

// The step clock sees every step's line in the runner's report, so that
// each test case's time is its step's.
func TestRunTimesEveryStep(t *testing.T) {
	file, err := readScenarioArg("happy-path")
	require.NoError(t, err)
	runs := runFiles([]sandbox.ScenarioFile{file}, sandbox.RunOptions{}, io.Discard)
	require.Len(t, runs, 1)
	assert.Equal(t, len(runs[0].StepResults), runs[0].timed)
	assert.Len(t, runs[0].Steps, 14)
}

// run's settings name their origin: the flag, or the environment variable.
func TestRunSettingsNameTheirOrigin(t *testing.T) {
	code, out := runCmd("--target", "localhost:8080", "happy-path")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, `signsandbox run: --target must be the base URL of a running sandbox, such as http://127.0.0.1:8080 (got "localhost:8080")`)

	t.Setenv("SIGNSANDBOX_TARGET", "localhost:8080")
	code, out = runCmd("happy-path")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, `signsandbox run: SIGNSANDBOX_TARGET must be the base URL`)
	assert.NotContains(t, out, "--target must")
}

// run's usage is one text: -h prints it, docs/cli.md and scenarios/README.md
// show it as it is, and both pages name every flag of run.
func TestRunUsageAgreesEverywhere(t *testing.T) {
	var errb bytes.Buffer
	require.Equal(t, 0, cmdRun([]string{"-h"}, io.Discard, &errb))
	assert.True(t, strings.HasPrefix(errb.String(), "usage: "+runSynopsis+"\n"), errb.String())
	cli, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	readme, err := os.ReadFile("../../scenarios/README.md")
	require.NoError(t, err)
	assert.Contains(t, string(cli), "\n"+runSynopsis+"\n", "docs/cli.md shows run's usage line as -h prints it")
	assert.Contains(t, string(readme), "```\n"+runSynopsis+"\n```", "scenarios/README.md shows run's usage line as -h prints it")

	var f runFlags
	for _, st := range f.settingSet(func(string) string { return "" }).rows {
		row := "| `--" + st.name + "` | "
		if env := st.envVar(); env != "" {
			row += "`" + env + "` |"
		}
		assert.Contains(t, string(cli), row, "docs/cli.md has a row for run --%s, with its environment variable", st.name)
		assert.Contains(t, string(readme), "`--"+st.name, "scenarios/README.md names run --%s", st.name)
	}
}
