package sandbox

import (
	"errors"
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// OptionError is an error of New that the value of one option caused: a
// fixtures directory that does not exist, a data directory that cannot be
// opened, a scenario that does not load, a recording file that cannot be
// written. Option names the option, so that a program that took the value
// from its user can say where it came from (the signsandbox binary names
// the flag or the environment variable).
type OptionError struct {
	// Option is the option's name: "WithFixturesDir", "WithDataDir",
	// "WithScenario" (also for WithScenarioFile) or "WithRecording".
	Option string
	// Err is what went wrong; its text is the error's text.
	Err error
}

func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns what went wrong.
func (e *OptionError) Unwrap() error { return e.Err }

// optionError tags err with the option whose value caused it.
func optionError(option string, err error) error {
	return &OptionError{Option: option, Err: err}
}

// scenarioError is the error of a scenario that did not load into the
// default world: the refusal's own message, which names the file, the line
// and the column when the file is at fault ("sandbox: a.yaml:4:4: ..."),
// rather than the API's error name and path around it.
func scenarioError(name string, err error) error {
	if e, ok := apierr.As(err); ok {
		if strings.HasPrefix(e.Msg, name+":") {
			return optionError("WithScenario", errors.New("sandbox: "+e.Msg))
		}
		return optionError("WithScenario", fmt.Errorf("sandbox: scenario %s: %s", name, e.Msg))
	}
	return optionError("WithScenario", fmt.Errorf("sandbox: scenario %s: %w", name, err))
}
