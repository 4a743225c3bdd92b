package state

// Compact indexes (compact_index.go) in a write whose changes are tracked
// for a commit observer: it does not count its rows, so it remembers the
// rows of compact tables it changed to compare their keys.

import (
	"errors"

	memdb "github.com/hashicorp/go-memdb"
)

// trackedRow answers the row of id in table as a write that does not
// count its rows has it now.
func (t *Txn) trackedRow(table, id string) (any, error) {
	w := t.eng.compact
	if w == nil || w.db == nil || w.unsure {
		return t.mem.First(table, IndexID, idArg(table, id))
	}
	raw, err := w.current(rowKey{table, id}, []any{idArg(table, id)})
	if err != nil {
		return nil, err
	}
	if checkOwnReads {
		t.checkOwnRead(raw, table, IndexID, []any{idArg(table, id)})
	}
	return raw, nil
}

// trackRow records that the row of id in table is row from now on (nil:
// none), for trackedRow; err is the change's error, after which memdb's
// indexes may be part changed and only memdb knows the row.
func (t *Txn) trackRow(table, id string, row any, err error) {
	w := t.eng.compact
	if w == nil || w.db == nil {
		return
	}
	if err != nil {
		if !errors.Is(err, memdb.ErrNotFound) {
			w.unsure = true
		}
		return
	}
	w.remember(rowKey{table, id}, row)
}

// insertTracked is Insert into a table with compact indexes in a write
// that does not count its rows.
func (t *Txn) insertTracked(ixs []*compactIndex, table string, row any) error {
	id, ok := rowInfoOf(table).rowID(row)
	if !ok {
		return t.mem.Insert(table, row) // memdb refuses it
	}
	before, err := t.trackedRow(table, id)
	if err != nil {
		return err
	}
	err = t.mem.Insert(table, row)
	t.trackRow(table, id, row, err)
	if err != nil {
		return err
	}
	t.compactChange(ixs, id, before, row)
	return nil
}

// deleteTracked is Delete from a table with compact indexes in a write
// that does not count its rows.
func (t *Txn) deleteTracked(ixs []*compactIndex, table string, row any) error {
	id, ok := rowInfoOf(table).rowID(row)
	if !ok {
		return t.mem.Delete(table, row)
	}
	before, err := t.trackedRow(table, id)
	if err != nil {
		return err
	}
	err = t.mem.Delete(table, row)
	t.trackRow(table, id, nil, err)
	if err != nil {
		return err
	}
	t.compactChange(ixs, id, before, nil)
	return nil
}

// compactDeleted takes the rows a bulk delete removed out of the compact
// indexes of their table.
func (t *Txn) compactDeleted(ixs []*compactIndex, table string, gone []any) {
	ri := rowInfoOf(table)
	for _, row := range gone {
		if id, ok := ri.rowID(row); ok {
			t.compactChange(ixs, id, row, nil)
			t.trackRow(table, id, nil, nil)
		} else if t.eng.compact != nil {
			t.eng.compact.unsure = true
		}
	}
}
