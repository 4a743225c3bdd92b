package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Fax tables.
const (
	TableFaxLines = "fax_lines"
	TableFaxes    = "faxes"
)

// registerFaxes adds the fax lines and faxes.
func registerFaxes() {
	Register[model.FaxLine](&memdb.TableSchema{
		Name: TableFaxLines,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:  {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Number"}},
			IndexSeq: {Name: IndexSeq, Unique: true, Indexer: &UintKey{Field: "Seq"}},
		},
	})
	Register[model.Fax](&memdb.TableSchema{
		Name: TableFaxes,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexAccount: {Name: IndexAccount, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.StringFieldIndex{Field: "AccountID"},
				&UintKey{Field: "Seq"},
			}}},
		},
	})
}

// FaxesOf lists an account's faxes, deleted ones included, oldest first.
func FaxesOf(tx *Txn, accountID string) ([]*model.Fax, error) {
	return All[model.Fax](tx, TableFaxes, IndexAccount+"_prefix", OnlyID(accountID))
}

// AllFaxLines lists every fax line of the world, oldest first.
func AllFaxLines(tx *Txn) ([]*model.FaxLine, error) {
	return All[model.FaxLine](tx, TableFaxLines, IndexSeq)
}
