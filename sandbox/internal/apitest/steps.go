package apitest

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
)

// StepsInWorld runs the steps of a scenario document in the world
// of key on the sandbox at base, which holds the scenario already (loaded
// with WithScenario): advance steps call pass with their duration (wall
// time passing, for a clock that moves by itself), and ${receiver.url}
// stands for receiver. It returns the failed steps, one line each, and the
// number of steps. sandbox.RunScenarios runs whole files in sandboxes of its
// own; this runs the steps in a world of a sandbox the test started.
func StepsInWorld(base, key, file string, data []byte, pass func(time.Duration), receiver string, out io.Writer) ([]string, int, error) {
	doc, err := scenario.Parse(file, data, scenarioworld.Vocabulary())
	if err != nil {
		return nil, 0, err
	}
	rn := &scenario.Runner{Base: base, Voc: scenarioworld.Vocabulary(), Out: out, World: key, Receiver: receiver,
		Advance: func(to time.Time, by time.Duration) error {
			if !to.IsZero() {
				return fmt.Errorf("an advance to an instant cannot be wall time passing")
			}
			pass(by)
			return nil
		}}
	rep := rn.Run(context.Background(), file, data, doc)
	if rep.Error != "" {
		return nil, 0, fmt.Errorf("%s", rep.Error)
	}
	var failed []string
	for _, st := range rep.Steps {
		if !st.Passed {
			failed = append(failed, fmt.Sprintf("step %d %s: %s %v", st.Index+1, st.Label, st.Error, st.Diffs))
		}
	}
	return failed, len(rep.Steps), nil
}
