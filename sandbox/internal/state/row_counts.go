package state

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync/atomic"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Row counting: Usage.Rows (rows by table) and Usage.Attempts (callback
// attempts by result) follow every row a write inserts or deletes. Txn
// shadows memdb's four ways of changing a table (Insert, Delete,
// DeleteAll, DeletePrefix), so every write that goes through a Txn is
// counted where it is made, whether through Put or not, at the cost of
// one id lookup per insert. The counts a write moved wait in the
// transaction and reach the usage row once, before the commit
// (Txn.flushUsage). Tracking memdb's changes for every write and walking
// them afterwards took about as many instructions but made more garbage:
// a 72-byte record per change, and a map and a string per change to
// deduplicate them. A write whose changes are tracked anyway, for a
// commit observer, is counted from them instead (countTracked).

// rowWrite is what a write counts its rows with: the counts it moved,
// and, to tell whether a row it inserts is new, its record of the rows
// (rowRecord; reads by id add the rows they found, see own_reads.go).
type rowWrite struct {
	counts rowCounts
	rowRecord
}

// rowCounts is what a write moved: rows by table and the attempts of the
// deliveries it inserted, replaced or deleted.
type rowCounts struct {
	rows     []tableDelta
	attempts AttemptCounts
}

// tableDelta is the change of one table's row count in a write.
type tableDelta struct {
	table string
	n     int64
}

// moved reports whether the write changed a count.
func (c *rowCounts) moved() bool {
	return len(c.rows) > 0 || c.attempts != (AttemptCounts{})
}

// add counts n more (or fewer) rows of table.
func (c *rowCounts) add(table string, n int64) {
	for i := range c.rows {
		if c.rows[i].table == table {
			c.rows[i].n += n
			return
		}
	}
	c.rows = append(c.rows, tableDelta{table: table, n: n})
}

// applyTo moves u's counters by c. The map of rows is never changed in
// place (a committed usage row shares it): a write that moves a count
// stores a new one.
func (c *rowCounts) applyTo(u *Usage) {
	var m map[string]int64
	for _, d := range c.rows {
		if d.n == 0 {
			continue
		}
		if m == nil {
			m = maps.Clone(u.Rows)
			if m == nil {
				m = make(map[string]int64, len(c.rows))
			}
		}
		if n := m[d.table] + d.n; n != 0 {
			m[d.table] = n
		} else {
			delete(m, d.table)
		}
	}
	if m != nil {
		u.Rows = m
	}
	u.Attempts.Delivered += c.attempts.Delivered
	u.Attempts.Failed += c.attempts.Failed
	u.Attempts.Error += c.attempts.Error
}

// rowInfo is what counting needs of a table: whether it is derived (not
// counted) and how to read a row's id without memdb's reflection by name.
type rowInfo struct {
	derived bool
	// byID is set when the id index is memdb's StringFieldIndex, so that
	// a row is found by its id string. rowType is the row's pointer type
	// and idField the index of the field the index reads; a row of another
	// type is read through indexer.
	byID    bool
	rowType reflect.Type
	idField []int
	indexer memdb.SingleIndexer
	// readID reads a row's id when the id index can (rowIDReader).
	readID func(row any) (string, bool)
	// opts is the table's options (table_options.go).
	opts tableOptions
}

// rowInfos maps every registered table to its rowInfo. It is built from
// the registry on first use (after tables.go registered every table) and
// rebuilt if a table registered later is asked for.
var rowInfos atomic.Pointer[map[string]*rowInfo]

// rowInfoOf answers a table's rowInfo (nil for a table not registered:
// memdb refuses the write itself).
func rowInfoOf(table string) *rowInfo {
	if m := rowInfos.Load(); m != nil {
		if ri, ok := (*m)[table]; ok {
			return ri
		}
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	m := make(map[string]*rowInfo, len(registry))
	for name, def := range registry {
		ri := &rowInfo{derived: def.Derived || def.Internal, opts: def.opts}
		switch idx := def.Schema.Indexes[IndexID].Indexer.(type) {
		case *memdb.StringFieldIndex:
			ri.byID, ri.indexer = true, idx
			if def.Type.Kind() == reflect.Struct {
				if f, ok := def.Type.FieldByName(idx.Field); ok && f.Type.Kind() == reflect.String {
					ri.rowType, ri.idField = reflect.PointerTo(def.Type), f.Index
				}
			}
		case idStringIndexer:
			ri.byID, ri.indexer = true, idx
			if r, ok := idx.(rowIDReader); ok {
				ri.readID = r.rowIDOf
			}
		case memdb.SingleIndexer:
			// A row that names its own lookup (a job by its queue key) is
			// found by it; any other custom index is probed.
			if def.Type == reflect.TypeFor[model.Job]() {
				ri.byID, ri.indexer = true, idx
			}
		}
		m[name] = ri
	}
	rowInfos.Store(&m)
	return m[table]
}

// rowInfo answers the rowInfo of a table whose rows this transaction
// counts as it writes them (nil: a derived or unknown table, or a read or
// tracked transaction).
func (t *Txn) rowInfo(table string) *rowInfo {
	if t.eng.rows == nil {
		return nil
	}
	if ri := rowInfoOf(table); ri != nil && !ri.derived {
		return ri
	}
	return nil
}

// rowID reads the id of a row of a byID table (ok false when it has none
// memdb would accept, which then refuses the write, or when the table's
// rows are not found by an id string).
func (ri *rowInfo) rowID(row any) (string, bool) {
	if !ri.byID {
		return "", false
	}
	if ri.readID != nil {
		if id, ok := ri.readID(row); ok {
			return id, true
		}
	}
	if v := reflect.ValueOf(row); ri.rowType != nil && v.Type() == ri.rowType && !v.IsNil() {
		return v.Elem().FieldByIndex(ri.idField).String(), true
	}
	if j, keyed := row.(*model.Job); keyed && j != nil {
		return jobKeyID(j), true // a binary key: all of it tells rows apart
	}
	ok, val, err := ri.indexer.FromObject(row)
	if !ok || err != nil || len(val) == 0 {
		return "", false
	}
	return string(val[:len(val)-1]), true // the indexer ends the key with a NUL
}

// idStringIndexer is a custom id index whose key is an id string ended by
// a NUL, as memdb's StringFieldIndex makes it, and whose lookups take that
// string (the access rows' computed id).
type idStringIndexer interface {
	memdb.SingleIndexer
	takesIDString()
}

// idLookup is the arguments that find row by the id index.
func idLookup(row any, id string) []any {
	if _, ok := row.(*model.Job); ok {
		return []any{jobKeyArg(id)}
	}
	return []any{id}
}

// rowKey names a row of a table.
type rowKey struct{ table, id string }

// stored answers the row stored now under row's id (nil: none) and its
// key, for a byID table.
func (t *Txn) stored(ri *rowInfo, table string, row any) (any, rowKey, error) {
	id, ok := ri.rowID(row)
	if !ok {
		return nil, rowKey{}, nil
	}
	key := rowKey{table, id}
	raw, err := t.current(key, idLookup(row, id))
	return raw, key, err
}

// current answers the row of key as this counting write has it.
func (t *Txn) current(key rowKey, args []any) (any, error) {
	return t.eng.rows.current(key, args)
}

// probe tells whether a row exists in a table whose id index is of its
// own making (its lookups may not take an id string): it asks memdb to
// delete the row, which finds it by the row's own key in the write itself
// without the read that would drop the write's copied nodes. The insert
// that follows puts it back.
func (t *Txn) probe(table string, row any) (bool, rowKey, error) {
	switch err := t.mem.Delete(table, row); {
	case err == nil:
		return true, rowKey{}, nil
	case errors.Is(err, memdb.ErrNotFound):
		return false, rowKey{}, nil
	default:
		return false, rowKey{}, err
	}
}

// see records that the row of key is row from now on (nil: none).
func (t *Txn) see(key rowKey, row any) {
	if key.id == "" && key.table == "" {
		t.eng.rows.unsure = true // a row stored without an id we can read
		return
	}
	t.eng.rows.remember(key, row)
}

// Insert is memdb's Insert, counting the row when it is new (and the
// attempts of a delivery it replaces or adds).
func (t *Txn) Insert(table string, row any) error {
	if bt := bucketed(table); bt != nil {
		return t.insertBucketed(bt, row)
	}
	ri := t.rowInfo(table)
	if ri == nil {
		if cx := compactByTable[table]; cx != nil {
			return t.insertTracked(cx, table, row)
		}
		return t.mem.Insert(table, row)
	}
	// before is the row row replaces, when the table is found by id (a
	// delivery's attempts are counted away from it).
	var before any
	var existed bool
	var key rowKey
	var err error
	if ri.byID {
		before, key, err = t.stored(ri, table, row)
		existed = before != nil
	} else {
		existed, key, err = t.probe(table, row)
	}
	if err != nil {
		return err
	}
	if err := t.mem.Insert(table, row); err != nil {
		return t.failed(err)
	}
	if cx := compactByTable[table]; cx != nil {
		t.compactChange(cx, key.id, before, row)
	}
	t.see(key, row)
	if !existed {
		t.eng.rows.counts.add(table, 1)
	}
	t.countRow(&ri.opts, before, row)
	return nil
}

// Delete is memdb's Delete, counting the row (and a delivery's attempts)
// away.
func (t *Txn) Delete(table string, row any) error {
	if bt := bucketed(table); bt != nil {
		return t.deleteBucketed(bt, row)
	}
	ri := t.rowInfo(table)
	cx := compactByTable[table]
	if ri == nil {
		if cx != nil {
			return t.deleteTracked(cx, table, row)
		}
		return t.mem.Delete(table, row)
	}
	var before any
	if ri.opts.countFields != nil || ri.opts.carries != nil || cx != nil {
		// The counted fields, the rows carried and the compact keys are
		// those of the stored row, which row may only name.
		var err error
		if before, _, err = t.stored(ri, table, row); err != nil {
			return err
		}
	}
	if err := t.mem.Delete(table, row); err != nil {
		return t.failed(err)
	}
	if id, ok := ri.rowID(row); ok {
		if cx != nil {
			t.compactChange(cx, id, before, nil)
		}
		t.see(rowKey{table, id}, nil)
	} else {
		t.eng.rows.unsure = true
	}
	t.eng.rows.counts.add(table, -1)
	t.countRow(&ri.opts, before, nil)
	return nil
}

// DeleteAll is memdb's DeleteAll, counting the rows it deleted away.
func (t *Txn) DeleteAll(table, index string, args ...any) (int, error) {
	if bt := bucketed(table); bt != nil {
		return t.deleteAllBucketed(bt, index, args)
	}
	ri := t.rowInfo(table)
	if ri == nil {
		if cx := compactByTable[table]; cx != nil {
			gone, err := t.collect(table, index, args...)
			if err != nil {
				return 0, err
			}
			n, err := t.mem.DeleteAll(table, index, args...)
			if err != nil {
				t.trackRow(table, "", nil, err)
				return n, err
			}
			t.compactDeleted(cx, table, gone)
			return n, nil
		}
		return t.mem.DeleteAll(table, index, args...)
	}
	gone, err := t.collect(table, index, args...)
	if err != nil {
		return 0, err
	}
	n, err := t.mem.DeleteAll(table, index, args...)
	if err != nil {
		return n, t.failed(err)
	}
	t.deleted(ri, table, gone)
	return n, nil
}

// DeletePrefix is memdb's DeletePrefix, counting the rows it deleted
// away.
func (t *Txn) DeletePrefix(table, prefixIndex, prefix string) (bool, error) {
	if bt := bucketed(table); bt != nil {
		if !strings.HasSuffix(prefixIndex, "_prefix") {
			return false, fmt.Errorf("Index name for DeletePrefix must be a prefix index, Got %v ", prefixIndex) //nolint:staticcheck // ST1005: memdb's words, so that both paths fail alike
		}
		n, err := t.deleteAllBucketed(bt, prefixIndex, []any{prefix})
		return n > 0, err
	}
	ri := t.rowInfo(table)
	if ri == nil {
		if cx := compactByTable[table]; cx != nil {
			gone, err := t.collect(table, prefixIndex, prefix)
			if err != nil {
				return false, err
			}
			ok, err := t.mem.DeletePrefix(table, prefixIndex, prefix)
			if err != nil {
				t.trackRow(table, "", nil, err)
				return ok, err
			}
			if ok {
				t.compactDeleted(cx, table, gone)
			}
			return ok, nil
		}
		return t.mem.DeletePrefix(table, prefixIndex, prefix)
	}
	gone, err := t.collect(table, prefixIndex, prefix)
	if err != nil {
		return false, err
	}
	ok, err := t.mem.DeletePrefix(table, prefixIndex, prefix)
	if err != nil || !ok {
		return ok, t.failed(err)
	}
	t.deleted(ri, table, gone)
	return true, nil
}

// deleted counts away the rows a bulk delete removed.
func (t *Txn) deleted(ri *rowInfo, table string, gone []any) {
	if cx := compactByTable[table]; cx != nil {
		t.compactDeleted(cx, table, gone)
	}
	t.eng.rows.counts.add(table, -int64(len(gone)))
	for _, row := range gone {
		if id, ok := ri.rowID(row); ok {
			t.see(rowKey{table, id}, nil)
		} else {
			t.eng.rows.unsure = true
		}
		t.countRow(&ri.opts, row, nil)
	}
}

// collect lists the rows a bulk delete is about to remove.
func (t *Txn) collect(table, index string, args ...any) ([]any, error) {
	it, err := t.Get(table, index, args...)
	if err != nil {
		return nil, err
	}
	var out []any
	for raw := it.Next(); raw != nil; raw = it.Next() {
		out = append(out, raw)
	}
	return out, nil
}

// countTracked counts the rows of a write from memdb's record of its
// changes: a row that did not exist before counts one more, a removed
// row one less, and a delivery's attempts change from those of its row
// before to those after.
func countTracked(changes memdb.Changes) rowCounts {
	var c rowCounts
	for i := range changes {
		ch := &changes[i]
		ri := rowInfoOf(ch.Table)
		if ri == nil || ri.derived {
			continue
		}
		switch {
		case ch.Before == nil && ch.After != nil:
			c.add(ch.Table, 1)
		case ch.Before != nil && ch.After == nil:
			c.add(ch.Table, -1)
		}
		if f := ri.opts.countFields; f != nil {
			f(&c.attempts, ch.Before, -1)
			f(&c.attempts, ch.After, 1)
		}
	}
	return c
}
