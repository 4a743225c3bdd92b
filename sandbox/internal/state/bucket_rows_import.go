package state

import (
	"encoding/json"
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
)

// importBucketed decodes the exported rows of a bucketed table into its
// buckets, refusing what import refused when they were memdb's rows: a
// row that does not decode or has no id, and rows that share an id. It
// answers the rows in document order.
func importBucketed(tx *memdb.Txn, bt *bucketTable, exported []json.RawMessage) ([]any, error) {
	def, _ := tableDef(bt.table)
	w := newLoadingWrite(tx)
	rows := make([]any, 0, len(exported))
	shared := 0
	for i, raw := range exported {
		row, err := decodeRow(def, raw)
		if err != nil {
			return nil, fmt.Errorf("table %q row %d: %v", bt.table, i, err)
		}
		id, err := bt.rowID(row)
		if err != nil {
			return nil, fmt.Errorf("table %q row %d: %v", bt.table, i, err)
		}
		if w.put(bt, id, row) != nil {
			shared++
		}
		rows = append(rows, row)
	}
	if shared > 0 {
		return nil, fmt.Errorf("table %q: %d rows share an id with another row", bt.table, shared)
	}
	return rows, w.flush()
}
