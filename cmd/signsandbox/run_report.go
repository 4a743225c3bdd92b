package main

// The machine-readable reports of signsandbox run: --json (the results as
// one JSON document on stdout) and --junit FILE (JUnit XML, the format CI
// systems show test results from: GitHub's and GitLab's test reports,
// Jenkins, Azure Pipelines, CircleCI). Each file is a test suite and each
// step a test case, so that a CI page lists the steps and shows a failed
// one with its differences; a file that could not run is one test case
// in error.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
)

// jsonResult is one file in the --json document: the run's result and
// how long it took.
type jsonResult struct {
	sandbox.RunResult
	Seconds float64 `json:"seconds"`
}

// writeJSONResults writes the results as one JSON array, one object per
// file.
func writeJSONResults(w io.Writer, runs []fileRun) error {
	out := make([]jsonResult, 0, len(runs))
	for _, r := range runs {
		out = append(out, jsonResult{RunResult: r.RunResult, Seconds: seconds(r.Elapsed)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// seconds rounds a duration to milliseconds, in seconds.
func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}

// JUnit XML as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

// junitProblem is a failure (an expectation that did not hold) or an
// error (a step or a file that could not run): a one-line message, and
// the whole text.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitReport builds the JUnit document of a run.
func junitReport(runs []fileRun) junitSuites {
	doc := junitSuites{Name: "signsandbox run"}
	var total time.Duration
	for _, r := range runs {
		suite := junitSuite{Name: r.Scenario, Time: xmlSeconds(r.Elapsed), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
		class := r.Scenario
		if class == "" {
			class = strings.TrimSuffix(filepath.Base(r.File), filepath.Ext(r.File))
			suite.Name = r.File
		}
		for i, st := range r.StepResults {
			c := junitCase{Name: stepName(st.Number, st.Name, st.Label), Classname: class, File: r.File, Time: xmlSeconds(r.Steps[i])}
			text := strings.Join(st.Diffs, "\n")
			switch {
			case st.Error != "":
				c.Error = &junitProblem{Message: firstLine(st.Error), Type: "step error", Text: strings.TrimSpace(st.Error + "\n" + text)}
				suite.Errors++
			case !st.Passed:
				c.Failure = &junitProblem{Message: firstLine(text), Type: "expectation", Text: text}
				suite.Failures++
			}
			suite.Cases = append(suite.Cases, c)
		}
		if r.Error != "" {
			// No step ran: the file was refused, or its world could not
			// be made.
			suite.Cases = append(suite.Cases, junitCase{Name: "load " + r.File, Classname: class, File: r.File, Time: xmlSeconds(r.Elapsed),
				Error: &junitProblem{Message: firstLine(r.Error), Type: "file error", Text: r.Error}})
			suite.Errors++
		}
		suite.Tests = len(suite.Cases)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		total += r.Elapsed
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = xmlSeconds(total)
	return doc
}

// stepName names a step as the printed report does: "3 sign: POST ...".
func stepName(number int, name, label string) string {
	s := strconv.Itoa(number)
	if name != "" {
		s += " " + name
	}
	return s + ": " + label
}

func xmlSeconds(d time.Duration) string { return strconv.FormatFloat(seconds(d), 'f', 3, 64) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// writeJUnitFile writes the JUnit report to path, making its directory
// when it does not exist (reports/junit.xml on a fresh CI checkout).
func writeJUnitFile(path string, runs []fileRun) error {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(junitReport(runs)); err != nil {
		return err
	}
	b.WriteByte('\n')
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// stepClock passes the report through and times the steps. The runner
// prints a step's line the moment the step ends ("  ok   3 sign: ...",
// "  FAIL 4: ..."), so the time between two such lines is a step's (the
// first step's includes making its world).
type stepClock struct {
	w       io.Writer
	mu      sync.Mutex
	last    time.Time
	took    map[int]time.Duration
	pending []byte
}

// stepLine matches the line the runner prints for a step, with its number.
var stepLine = regexp.MustCompile(`^  (?:ok  |FAIL) (\d+)[ :]`)

func newStepClock(w io.Writer) *stepClock {
	return &stepClock{w: w, last: time.Now(), took: map[int]time.Duration{}}
}

func (c *stepClock) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.pending = append(c.pending, p...)
	for {
		i := bytes.IndexByte(c.pending, '\n')
		if i < 0 {
			break
		}
		if m := stepLine.FindSubmatch(c.pending[:i]); m != nil {
			n, _ := strconv.Atoi(string(m[1]))
			if _, seen := c.took[n]; !seen {
				c.took[n] = now.Sub(c.last)
				c.last = now
			}
		}
		c.pending = c.pending[i+1:]
	}
	return c.w.Write(p)
}

// steps answers the time of steps 1 to n (0 for a step whose line did not
// come).
func (c *stepClock) steps(n int) []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = c.took[i+1]
	}
	return out
}

// timed counts the steps whose line came (the runner's line format and
// stepLine agree when it is every step).
func (c *stepClock) timed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.took)
}
