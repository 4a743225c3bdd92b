package sandbox

// Scripted runs: the steps of scenario files executed against a fresh
// world, in a new in-process sandbox per file (listening on a loopback
// port) or in a running sandbox (Target). This is what `signsandbox run`
// calls; Go tests can call it too.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// ScenarioFile is a scenario document to run.
type ScenarioFile struct {
	// Name is shown in messages (usually the file's path).
	Name string
	Data []byte
}

// RunOptions configure RunScenarios.
type RunOptions struct {
	// Target is the base URL (scheme and host) of a running sandbox; the
	// run creates a world there for each file (and deletes it afterwards
	// unless Keep). Empty runs each file in a
	// new in-process sandbox.
	Target string
	// Out receives each step and a summary (nil: quiet).
	Out io.Writer
	// Options configure the in-process sandboxes (a fake clock at the
	// default start comes first).
	Options []Option
	// Client makes the run's requests (default: a client with a timeout).
	Client *http.Client
	// Keep leaves the world made for each file on the Target; by default
	// it is deleted (DELETE /_sandbox/world) when the file's run ends.
	Keep bool
}

// RunResult is the outcome of one file.
type RunResult struct {
	File     string `json:"file"`
	Scenario string `json:"scenario,omitempty"`
	Steps    int    `json:"steps"`
	Failed   int    `json:"failed"`
	// Error says why no step could run (a refused file, a world that could
	// not be made).
	Error string `json:"error,omitempty"`
	// Failures describe each failed step and its differences, by field.
	Failures []string `json:"failures,omitempty"`
	// StepResults are the steps that ran, in order, passed or not (for
	// reports that list every step, such as JUnit's).
	StepResults []RunStep `json:"step_results,omitempty"`
}

// RunStep is the outcome of one step of a file.
type RunStep struct {
	// Number counts the steps from 1, as the printed report does.
	Number int    `json:"number"`
	Name   string `json:"name,omitempty"`
	// Label says what the step did ("POST /v3/signature_request/send").
	Label string `json:"label"`
	// Status is the HTTP status the step's call answered (0 for steps
	// without a call).
	Status int  `json:"status,omitempty"`
	Passed bool `json:"passed"`
	// Error says why a step could not do its work; Diffs are its
	// expectations that did not hold, one per field.
	Error string   `json:"error,omitempty"`
	Diffs []string `json:"diffs,omitempty"`
}

// OK reports whether the file ran and every step passed.
func (r RunResult) OK() bool { return r.Error == "" && r.Failed == 0 }

// RunScenarios runs the steps of each file and reports them; it never
// stops at the first failing file.
func RunScenarios(ctx context.Context, files []ScenarioFile, o RunOptions) []RunResult {
	out := make([]RunResult, 0, len(files))
	for _, f := range files {
		out = append(out, runScenarioFile(ctx, f, o))
	}
	return out
}

func runScenarioFile(ctx context.Context, f ScenarioFile, o RunOptions) RunResult {
	res := RunResult{File: f.Name}
	fail := func(err error) RunResult {
		res.Error = err.Error()
		if o.Out != nil {
			fmt.Fprintf(o.Out, "FAIL %s:\n%s\n", f.Name, indent(res.Error))
		}
		return res
	}
	doc, err := scenario.Parse(f.Name, f.Data, scenarioworld.Vocabulary())
	if err != nil {
		return fail(err)
	}
	res.Scenario = doc.Name
	rn := &scenario.Runner{Base: o.Target, Client: o.Client, Voc: scenarioworld.Vocabulary(), Out: o.Out, Keep: o.Keep, SeededSecret: state.SeededSecret}
	if o.Target == "" {
		opts := o.Options
		start, realClock := realClockStart(doc)
		if realClock {
			opts = append(opts[:len(opts):len(opts)], withReplayOf(start))
		}
		sb, base, stop, err := serveInProcess(opts)
		if err != nil {
			return fail(err)
		}
		defer stop()
		rn.Base, rn.DefaultWorld = base, true
		if realClock {
			replayIn(sb.host.DefaultWorld(), doc, rn)
		}
	}
	rep := rn.Run(ctx, f.Name, f.Data, doc)
	res.Steps, res.Failed, res.Error = len(rep.Steps), rep.Failed, rep.Error
	for _, st := range rep.Steps {
		step := RunStep{Number: st.Index + 1, Name: st.Name, Label: st.Label, Status: st.Status, Passed: st.Passed, Error: st.Error}
		for _, d := range st.Diffs {
			step.Diffs = append(step.Diffs, d.String())
		}
		res.StepResults = append(res.StepResults, step)
		if st.Passed {
			continue
		}
		line := fmt.Sprintf("step %d", st.Index+1)
		if st.Name != "" {
			line += " (" + st.Name + ")"
		}
		line += ": " + st.Label
		if st.Error != "" {
			line += ": " + st.Error
		}
		for _, d := range st.Diffs {
			line += "\n  " + d.String()
		}
		res.Failures = append(res.Failures, line)
	}
	return res
}

// indent indents every line of s by two spaces.
func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// serveInProcess starts a new sandbox on a loopback port.
func serveInProcess(opts []Option) (*Sandbox, string, func(), error) {
	sb, err := New(append([]Option{WithFakeClock(world.DefaultStart)}, opts...)...)
	if err != nil {
		return nil, "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		sb.Close()
		return nil, "", nil, err
	}
	srv := &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop := func() {
		_ = srv.Close()
		sb.Close()
	}
	return sb, "http://" + ln.Addr().String(), stop, nil
}

// realClockStart reports whether doc is a recording of a world on a real
// clock, and the instant its state starts at.
func realClockStart(doc *scenario.Document) (time.Time, bool) {
	if doc.Recording == nil {
		return time.Time{}, false
	}
	st, _ := doc.Recording.State.(map[string]any)
	clock, _ := st["clock"].(map[string]any)
	if mode, _ := clock["mode"].(string); mode != string(world.ClockReal) {
		return time.Time{}, false
	}
	now, _ := clock["now"].(string)
	start, err := time.Parse(time.RFC3339Nano, now)
	if err != nil {
		return time.Time{}, false
	}
	return start, true
}

// withReplayOf makes the default world the replay of a real-clock
// recording that starts at start (world.Options.Replay).
func withReplayOf(start time.Time) Option {
	return func(cfg *config) error {
		cfg.clock = world.NewReplayClock(start)
		return nil
	}
}

// replayIn makes w replay doc, a real-clock recording: the runner moves its
// clock to the recorded instants, and its callback attempts take the
// recorded durations.
func replayIn(w *world.World, doc *scenario.Document, rn *scenario.Runner) {
	callbacks.ReplayDurations(w, doc.Recording.AttemptDurations)
	rn.Advance = func(to time.Time, by time.Duration) error {
		if to.IsZero() {
			to = w.Now().Add(by)
		}
		d := to.Sub(w.Now())
		if d < 0 {
			return fmt.Errorf("cannot move the clock back to %s (the world is at %s)", to.Format(time.RFC3339Nano), w.Now().Format(time.RFC3339Nano))
		}
		_, err := w.Advance(d)
		return err
	}
}
