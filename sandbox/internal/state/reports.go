package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TableReports holds the reports requested through POST /report/create.
const TableReports = "reports"

// registerReports adds the reports.
func registerReports() {
	Register[model.Report](&memdb.TableSchema{
		Name: TableReports,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}
