package model

import "encoding/json"

// Scenario is a scenario loaded into the world.
type Scenario struct {
	// ID is the scenario's name.
	ID          string `json:"id"`
	Seq         uint64 `json:"seq"`
	Description string `json:"description,omitempty"`
	// Source names where it came from (a file, the request body, the
	// library).
	Source   string `json:"source"`
	LoadedAt int64  `json:"loaded_at"`
	Rules    int    `json:"rules"`
	// Seeded maps each seeded object's ref to the object as the API shows
	// it (steps refer to it as ${seed.REF...}).
	Seeded json.RawMessage `json:"seeded,omitempty"`
}

// ScenarioRule is one rule of a loaded scenario.
type ScenarioRule struct {
	// ID is "<scenario>#<index>".
	ID       string `json:"id"`
	Scenario string `json:"scenario"`
	Index    int    `json:"index"`
	// Seq orders the rules of the world: earlier loaded, earlier written.
	Seq    uint64 `json:"seq"`
	Name   string `json:"name,omitempty"`
	Effect string `json:"effect"`
	// Spec is the rule as written (JSON of the scenario format's Rule).
	Spec json.RawMessage `json:"spec"`
	// From and Until bound the rule in world time (Unix nanoseconds, 0 for
	// open), resolved when the scenario loaded.
	From  int64 `json:"from,omitempty"`
	Until int64 `json:"until,omitempty"`
	// Matched counts the matches inside the window; Fired the times the
	// effect applied (after the first `after` matches, at most `times`).
	Matched int `json:"matched"`
	Fired   int `json:"fired"`
}

// ScenarioMark records that a rule decided the fate of an object whose
// effect comes later (a template that fails when its preparation runs).
type ScenarioMark struct {
	// ID is "<kind>/<object id>".
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	ObjectID string `json:"object_id"`
	Rule     string `json:"rule"`
	Message  string `json:"message,omitempty"`
}
