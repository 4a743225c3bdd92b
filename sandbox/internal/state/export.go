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
		rows, err := Rows(tx, name)
		if err != nil {
			return nil, err
		}
		if name == TableJobs {
			jobsInIDOrder(rows)
		}
		if name == TableFileSets {
			if rows, err = exportedFileSets(tx, rows); err != nil {
				return nil, err
			}
		}
		enc := make([]json.RawMessage, 0, len(rows))
		for _, row := range rows {
			b, err := json.Marshal(RowAsExported(row))
			if err != nil {
				return nil, fmt.Errorf("state: export %s: %w", name, err)
			}
			enc = append(enc, b)
		}
		out[name] = enc
	}
	return out, nil
}

// Import builds a new database from exported tables. Unknown tables, rows that
// do not decode into their table's type, or duplicate ids are errors that name
// the table and row; nothing is half-imported because the result is a new
// database the caller installs only on success.
// It checks no references: tests build partial worlds with it.
func Import(tables Tables) (*memdb.MemDB, error) { return importTables(tables, false, nil) }

// ImportChecked is Import that also keeps the world consistent: every
// reference resolves (a request's requester, a key's account, a job's
// subject...) and, when knownJob is given, every job kind is one the
// scheduler runs. A broken reference or unknown kind is an *ImportError
// naming the first bad entry; rows that do not decode are plain errors
// naming the table and row, as Import's.
func ImportChecked(tables Tables, knownJob func(kind string) bool) (*memdb.MemDB, error) {
	return importTables(tables, true, knownJob)
}

func importTables(tables Tables, consistent bool, knownJob func(kind string) bool) (*memdb.MemDB, error) {
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
	rows := make(map[string][]any, len(names))
	for _, name := range names {
		def, ok := tableDef(name)
		if !ok {
			return nil, fmt.Errorf("unknown table %q", name)
		}
		if bt := bucketed(name); bt != nil {
			if rows[name], err = importBucketed(tx, bt, tables[name]); err != nil {
				return nil, err
			}
			continue
		}
		for i, raw := range tables[name] {
			row, err := decodeRow(def, raw)
			if err != nil {
				return nil, fmt.Errorf("table %q row %d: %v", name, i, err)
			}
			if err := tx.Insert(name, row); err != nil {
				return nil, fmt.Errorf("table %q row %d: %v", name, i, err)
			}
			rows[name] = append(rows[name], row)
		}
		if err := checkUnique(tx, def, len(tables[name])); err != nil {
			return nil, err
		}
		if name == TableJobs {
			if err := checkJobIDs(rows[name]); err != nil {
				return nil, err
			}
		}
	}
	if m, _ := tx.First(tableMeta, IndexID, metaRowID); m == nil {
		return nil, fmt.Errorf("table %q: missing row %q", tableMeta, metaRowID)
	}
	if consistent {
		if err := CheckImported(tx, names, rows, knownJob); err != nil {
			return nil, err
		}
	}
	if err := foldRequestFileSets(tx); err != nil {
		return nil, err
	}
	if err := rebuildDerived(tx); err != nil {
		return nil, err
	}
	tx.Commit()
	return db, nil
}

// checkUnique refuses rows that share an id or the key of another unique
// index: memdb replaces a row with the same id and silently overwrites the
// entry of a unique secondary index, so an import would lose rows or leave an
// index pointing at the wrong one.
func checkUnique(tx *memdb.Txn, def TableDef, rows int) error {
	name := def.Schema.Name
	all := make([]any, 0, rows)
	it, err := tx.Get(name, IndexID)
	if err != nil {
		return fmt.Errorf("table %q: %v", name, err)
	}
	for r := it.Next(); r != nil; r = it.Next() {
		all = append(all, r)
	}
	if len(all) != rows {
		return fmt.Errorf("table %q: %d rows share an id with another row", name, rows-len(all))
	}
	indexes := make([]string, 0, len(def.Schema.Indexes))
	for n, ix := range def.Schema.Indexes {
		if ix.Unique && n != IndexID {
			indexes = append(indexes, n)
		}
	}
	sort.Strings(indexes)
	for _, ixName := range indexes {
		single, ok := def.Schema.Indexes[ixName].Indexer.(memdb.SingleIndexer)
		if !ok {
			continue
		}
		seen := make(map[string]bool, len(all))
		for _, r := range all {
			ok, key, err := single.FromObject(r)
			if err != nil || !ok {
				continue
			}
			if seen[string(key)] {
				return fmt.Errorf("table %q: two rows share the unique %q key %q", name, ixName, key)
			}
			seen[string(key)] = true
		}
	}
	return nil
}
