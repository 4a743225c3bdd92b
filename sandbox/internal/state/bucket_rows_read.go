package state

// Reads of bucketed tables (bucket_rows.go): a row by id from its
// bucket, and every row (or those whose id starts with a prefix) in id
// order, as memdb's id index gave them.

import (
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// rowOf answers the row of id in bt as w has it, or as tx holds it when w
// is nil (nil: none).
func rowOf(tx *memdb.Txn, w *bucketWrite, bt *bucketTable, id string) any {
	if w != nil {
		return w.get(bt, id)
	}
	return bt.thaw(bucketRow(storedTree(tx, bt).bucket(bt.bucketOf(id)), bt, id))
}

// bucketRow answers the row of id in bucket b (nil: none).
func bucketRow(b *rowBucket, bt *bucketTable, id string) any {
	if b == nil {
		return nil
	}
	if i, found := bt.search(b.Rows, id); found {
		return b.Rows[i]
	}
	return nil
}

// readBuckets answers the write's bucket copies, made on first use in a
// write, so that its reads see its own changes and thaw a frozen row once
// (bucket_rows_frozen.go); nil in a read.
func (t *Txn) readBuckets() *bucketWrite {
	if t.eng.buckets == nil && (t.eng.rows != nil || t.eng.tracked != nil) {
		t.eng.buckets = newBucketWrite(t.mem)
	}
	return t.eng.buckets
}

// bucketGet answers the row of id in bt as this transaction has it (nil:
// none): in a write as the write has it, in a read through the store's
// cache of thawed rows.
func (t *Txn) bucketGet(bt *bucketTable, id string) any {
	if t.readBuckets() == nil && t.eng.thawed != nil {
		raw := bucketRow(storedTree(t.mem, bt).bucket(bt.bucketOf(id)), bt, id)
		if f, ok := raw.(frozenRow); ok {
			return t.eng.thawed.thaw(bt, f)
		}
		return raw
	}
	return rowOf(t.mem, t.eng.buckets, bt, id)
}

// firstBucketed is First on a bucketed table: by its id, the only index
// it has (beside compact ones, which First answers before).
func (t *Txn) firstBucketed(bt *bucketTable, index string, args []any) (any, error) {
	if index != IndexID || len(args) == 0 { // no id: the first row, as memdb answers
		it, err := t.Get(bt.table, index, args...)
		if err != nil {
			return nil, err
		}
		return it.Next(), nil
	}
	id, err := bucketLookupID(bt, args)
	if err != nil {
		return nil, err
	}
	raw := t.bucketGet(bt, id)
	if checkOwnReads {
		t.checkBucketRead(bt, id, raw)
	}
	return raw, nil
}

// bucketLookupID reads the argument of a lookup by id.
func bucketLookupID(bt *bucketTable, args []any) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("state: %s.%s: want one argument, got %d", bt.table, IndexID, len(args))
	}
	id, ok := args[0].(string)
	if !ok {
		return "", fmt.Errorf("state: %s.%s: want a string, got %T", bt.table, IndexID, args[0])
	}
	return id, nil
}

// Get is memdb's Get, answering a bucketed table from its buckets: by
// id (every row, or the row of one id) or by id prefix, in id order.
func (t *Txn) Get(table, index string, args ...any) (memdb.ResultIterator, error) {
	bt := bucketed(table)
	if bt == nil {
		return t.mem.Get(table, index, args...)
	}
	if index == IndexID && len(args) == 1 { // one row: read as First reads it
		raw, err := t.firstBucketed(bt, index, args)
		if err != nil || raw == nil {
			return &rowIterator{}, err
		}
		return &rowIterator{rows: []any{raw}}, nil
	}
	return bucketIterator(t.mem, t.readBuckets(), bt, index, args)
}

// getRows is memdb's Get on a database written directly (import,
// rebuilds), answering a bucketed table from its stored buckets.
func getRows(tx *memdb.Txn, table, index string, args ...any) (memdb.ResultIterator, error) {
	bt := bucketed(table)
	if bt == nil {
		return tx.Get(table, index, args...)
	}
	return bucketIterator(tx, nil, bt, index, args)
}

// hasRow reports whether a database written directly holds a row of id,
// without thawing a frozen one.
func hasRow(tx *memdb.Txn, table, id string) bool {
	if bt := bucketed(table); bt != nil {
		return bucketRow(storedTree(tx, bt).bucket(bt.bucketOf(id)), bt, id) != nil
	}
	row, err := tx.First(table, IndexID, id)
	return err == nil && row != nil
}

// bucketIterator answers the rows a lookup of bt by index finds, in id
// order: the buckets tx holds, those w changed replacing them.
func bucketIterator(tx *memdb.Txn, w *bucketWrite, bt *bucketTable, index string, args []any) (memdb.ResultIterator, error) {
	switch index {
	case IndexID:
		if len(args) == 0 {
			return newMergeIterator(tx, w, bt, "", ""), nil
		}
		id, err := bucketLookupID(bt, args)
		if err != nil {
			return nil, err
		}
		row := rowOf(tx, w, bt, id)
		if row == nil {
			return &rowIterator{}, nil
		}
		return &rowIterator{rows: []any{row}}, nil
	case IndexID + "_prefix":
		if !bt.prefixes {
			break
		}
		prefix, err := bucketLookupID(bt, args)
		if err != nil {
			return nil, err
		}
		return newMergeIterator(tx, w, bt, prefix, prefix), nil
	}
	return nil, fmt.Errorf("state: %s has no index %q", bt.table, index)
}

// CountRows returns how many rows a table holds, as this transaction has
// it, without reading them: a bucketed table's are counted in its
// buckets, so that a count does not thaw every frozen row
// (bucket_rows_frozen.go).
func CountRows(tx *Txn, table string) (int, error) {
	if bt := bucketed(table); bt != nil {
		return bucketRowCount(tx.mem, tx.eng.buckets, bt), nil
	}
	it, err := tx.mem.Get(table, IndexID)
	if err != nil {
		return 0, err
	}
	n := 0
	for raw := it.Next(); raw != nil; raw = it.Next() {
		n++
	}
	return n, nil
}

// bucketRowCount counts the rows of bt in its buckets, as w has them (nil:
// as tx holds them).
func bucketRowCount(tx *memdb.Txn, w *bucketWrite, bt *bucketTable) int {
	n := 0
	eachRowBucket(tx, w, bt, func(_ uint64, b *rowBucket, _ bool) { n += len(b.Rows) })
	return n
}

// LowerBound is memdb's LowerBound, answering a bucketed table's rows from
// the id given on, in id order.
func (t *Txn) LowerBound(table, index string, args ...any) (memdb.ResultIterator, error) {
	bt := bucketed(table)
	if bt == nil {
		return t.mem.LowerBound(table, index, args...)
	}
	if index != IndexID {
		return nil, fmt.Errorf("state: %s has no index %q to walk", bt.table, index)
	}
	from := "" // no id: from the first row, as memdb walks
	if len(args) > 0 {
		var err error
		if from, err = bucketLookupID(bt, args); err != nil {
			return nil, err
		}
	}
	return newMergeIterator(t.mem, t.readBuckets(), bt, from, ""), nil
}

// eachRowBucket calls fn with every bucket of bt that holds rows, as w
// has it (own: its copy) or else as tx holds it, and its number, in
// number order.
func eachRowBucket(tx *memdb.Txn, w *bucketWrite, bt *bucketTable, fn func(n uint64, b *rowBucket, own bool)) {
	if w == nil {
		eachTreeBucket(storedTree(tx, bt), func(n uint64, b *rowBucket) { fn(n, b, false) })
		return
	}
	var own []uint64
	for ref := range w.buckets {
		if ref.bt == bt {
			own = append(own, ref.n)
		}
	}
	slices.Sort(own)
	// mine calls fn with the write's copies numbered below n.
	mine := func(n uint64) {
		for ; len(own) > 0 && own[0] < n; own = own[1:] {
			if b := w.buckets[bucketRef{bt, own[0]}]; len(b.Rows) > 0 {
				fn(own[0], b, true)
			}
		}
	}
	eachTreeBucket(w.tree(bt), func(n uint64, b *rowBucket) {
		mine(n)
		if len(own) > 0 && own[0] == n {
			return // the write's copy replaces it, called next
		}
		fn(n, b, false)
	})
	mine(1 << bucketBits)
}

// rowIterator is a memdb.ResultIterator over rows already collected.
type rowIterator struct {
	rows []any
}

// Next returns the next row (nil: none left).
func (it *rowIterator) Next() any {
	if len(it.rows) == 0 {
		return nil
	}
	r := it.rows[0]
	it.rows = it.rows[1:]
	return r
}

// WatchCh is nil: nothing in the sandbox watches memdb's channels.
func (it *rowIterator) WatchCh() <-chan struct{} { return nil }
