package world

// A whole world as data: what GET /_sandbox/state answers, PUT imports,
// and a recording starts from.

import (
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// StateFormat names the export format; import refuses other formats.
const StateFormat = "signsandbox-state/1"

// State is a whole world as JSON: its clock and every table.
type State struct {
	Format string       `json:"format"`
	Clock  StateClock   `json:"clock"`
	Tables state.Tables `json:"tables"`
}

// StateClock is the clock part of an export.
type StateClock struct {
	Mode ClockMode `json:"mode"`
	// Now is the world time in RFC 3339 with nanoseconds, so that a fake
	// clock resumes at exactly the same instant.
	Now string `json:"now"`
}

// Export is a whole world as GET /_sandbox/state answers it (and as a
// recording starts from).
func Export(w *World) (State, error) {
	tables, err := state.Export(w.Store.Read())
	if err != nil {
		return State{}, err
	}
	return State{
		Format: StateFormat,
		Clock:  StateClock{Mode: w.Mode(), Now: w.Now().Format(time.RFC3339Nano)},
		Tables: tables,
	}, nil
}
