package state

import (
	"encoding/json"
	"fmt"
	"sort"

	memdb "github.com/hashicorp/go-memdb"
)

// Tables is a world's data as exported: table name to rows in id order.
type Tables map[string][]json.RawMessage

// Export writes every row of every table, tables in name order and rows in id
// order, so that the same state always gives the same bytes.
func Export(tx *Txn) (Tables, error) {
	out := Tables{}
	for _, name := range TableNames() {
		it, err := tx.Txn.Get(name, IndexID)
		if err != nil {
			return nil, fmt.Errorf("state: export %s: %w", name, err)
		}
		rows := []json.RawMessage{}
		for raw := it.Next(); raw != nil; raw = it.Next() {
			b, err := json.Marshal(raw)
			if err != nil {
				return nil, fmt.Errorf("state: export %s: %w", name, err)
			}
			rows = append(rows, b)
		}
		out[name] = rows
	}
	return out, nil
}

// Import builds a new database from exported tables. Unknown tables, rows that
// do not decode into their table's type, or duplicate ids are errors that name
// the table and row; nothing is half-imported because the result is a new
// database the caller installs only on success.
func Import(tables Tables) (*memdb.MemDB, error) {
	db, err := NewDB()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	tx := db.Txn(true)
	defer tx.Abort()
	for _, name := range names {
		def, ok := tableDef(name)
		if !ok {
			return nil, fmt.Errorf("unknown table %q", name)
		}
		for i, raw := range tables[name] {
			row, err := decodeRow(def, raw)
			if err != nil {
				return nil, fmt.Errorf("table %q row %d: %v", name, i, err)
			}
			if err := tx.Insert(name, row); err != nil {
				return nil, fmt.Errorf("table %q row %d: %v", name, i, err)
			}
		}
		// memdb replaces a row with an existing id; count to refuse duplicates.
		it, err := tx.Get(name, IndexID)
		if err != nil {
			return nil, fmt.Errorf("table %q: %v", name, err)
		}
		n := 0
		for r := it.Next(); r != nil; r = it.Next() {
			n++
		}
		if n != len(tables[name]) {
			return nil, fmt.Errorf("table %q: %d rows share an id with another row", name, len(tables[name])-n)
		}
	}
	if m, _ := tx.First(tableMeta, IndexID, metaRowID); m == nil {
		return nil, fmt.Errorf("table %q: missing row %q", tableMeta, metaRowID)
	}
	tx.Commit()
	return db, nil
}
