package recording_test

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
)

// credentialsOfState lists the credentials an exported world state
// (GET /_sandbox/state) holds.
func credentialsOfState(raw []byte) ([]string, error) {
	st, err := scenario.OrderedJSON(raw)
	if err != nil {
		return nil, err
	}
	return recording.StateCredentials(st), nil
}
