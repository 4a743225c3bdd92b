package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
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

// registerScenarios adds the scenarios, their rules and marks.
func registerScenarios() {
	Register[model.Scenario](&memdb.TableSchema{
		Name: TableScenarios,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:  {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexSeq: {Name: IndexSeq, Unique: true, Indexer: &UintKey{Field: "Seq"}},
		},
	})
	Register[model.ScenarioRule](&memdb.TableSchema{
		Name: TableScenarioRules,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:       {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexSeq:      {Name: IndexSeq, Unique: true, Indexer: &UintKey{Field: "Seq"}},
			IndexScenario: {Name: IndexScenario, Indexer: &memdb.StringFieldIndex{Field: "Scenario"}},
		},
	})
	Register[model.ScenarioMark](&memdb.TableSchema{
		Name: TableScenarioMarks,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

// ScenarioRules lists the world's rules in evaluation order.
func ScenarioRules(tx *Txn) ([]*model.ScenarioRule, error) {
	return All[model.ScenarioRule](tx, TableScenarioRules, IndexSeq)
}

// ScenarioMarkID is the id of a mark.
func ScenarioMarkID(kind, objectID string) string { return kind + "/" + objectID }
