package state

import (
	"encoding/json"

	memdb "github.com/hashicorp/go-memdb"
)

// Scenario tables: the scenarios loaded into a world, their rules (faults
// and reactions that stay active), and the marks rules leave on objects for
// effects that happen later (a template that must fail when prepared).
// Being tables, they are exported, imported and reset with the world.
const (
	TableScenarios     = "scenarios"
	TableScenarioRules = "scenario_rules"
	TableScenarioMarks = "scenario_marks"

	// IndexScenario finds the rules of one scenario.
	IndexScenario = "scenario"
)

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

// registerScenarios adds the scenarios, their rules and marks.
func registerScenarios() {
	Register[Scenario](&memdb.TableSchema{
		Name: TableScenarios,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:  {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexSeq: {Name: IndexSeq, Unique: true, Indexer: &UintKey{Field: "Seq"}},
		},
	})
	Register[ScenarioRule](&memdb.TableSchema{
		Name: TableScenarioRules,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:       {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexSeq:      {Name: IndexSeq, Unique: true, Indexer: &UintKey{Field: "Seq"}},
			IndexScenario: {Name: IndexScenario, Indexer: &memdb.StringFieldIndex{Field: "Scenario"}},
		},
	})
	Register[ScenarioMark](&memdb.TableSchema{
		Name: TableScenarioMarks,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

// ScenarioRules lists the world's rules in evaluation order.
func ScenarioRules(tx *Txn) ([]*ScenarioRule, error) {
	return All[ScenarioRule](tx, TableScenarioRules, IndexSeq)
}

// ScenarioMarkID is the id of a mark.
func ScenarioMarkID(kind, objectID string) string { return kind + "/" + objectID }
