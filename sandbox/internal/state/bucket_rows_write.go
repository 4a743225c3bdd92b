package state

// The write path of bucketed tables (bucket_rows.go): a write's own
// copies of the buckets it changed, and their flush before the commit.
// The store's writes use it through Txn (bucket_rows_txn.go); import and
// journal replay, which write a memdb transaction directly, use it
// alone.

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// bucketWrite is what a write changed of bucketed tables: its own copies
// of the buckets it changed. The first change of a bucket copies it, the
// later ones change the copy in place, and flush stores the copies once.
// Until then the write has not touched row_buckets, so reading a stored
// bucket costs memdb no clone of the index.
type bucketWrite struct {
	tx      *memdb.Txn
	buckets map[bucketRef]*rowBucket
	// read holds the stored buckets the write read (nil: none stored),
	// which do not change before flush: a job reads its request three or
	// four times before it puts it, and each read of a stored bucket
	// makes memdb make its key.
	read map[bucketRef]*rowBucket
}

// bucketRef names bucket n of a table.
type bucketRef struct {
	bt *bucketTable
	n  uint64
}

func newBucketWrite(tx *memdb.Txn) *bucketWrite { return &bucketWrite{tx: tx} }

// bucket answers bucket n of bt as the write has it (nil: empty).
func (w *bucketWrite) bucket(bt *bucketTable, n uint64) *rowBucket {
	ref := bucketRef{bt, n}
	if b, ok := w.buckets[ref]; ok {
		return b
	}
	return w.stored(ref)
}

// stored answers the bucket ref as the database holds it.
func (w *bucketWrite) stored(ref bucketRef) *rowBucket {
	if b, ok := w.read[ref]; ok {
		return b
	}
	b := storedRowBucket(w.tx, ref.bt, ref.n)
	if w.read == nil {
		w.read = map[bucketRef]*rowBucket{}
	}
	w.read[ref] = b
	return b
}

// writable answers the write's own copy of bucket n of bt, copying the
// stored one the first time.
func (w *bucketWrite) writable(bt *bucketTable, n uint64) *rowBucket {
	ref := bucketRef{bt, n}
	if b, ok := w.buckets[ref]; ok {
		return b
	}
	if w.buckets == nil {
		w.buckets = map[bucketRef]*rowBucket{}
	}
	var b *rowBucket
	if s := w.stored(ref); s != nil {
		// Room for one more: a send adds one row to the buckets it
		// touches.
		b = &rowBucket{Key: s.Key, Rows: make([]any, len(s.Rows), len(s.Rows)+1)}
		copy(b.Rows, s.Rows)
	} else {
		b = &rowBucket{Key: bt.key(n)}
	}
	w.buckets[ref] = b
	return b
}

// get answers the row of id (nil: none).
func (w *bucketWrite) get(bt *bucketTable, id string) any {
	return bucketRow(w.bucket(bt, bt.bucketOf(id)), bt, id)
}

// put stores row under id, answering the row it replaced (nil: none).
func (w *bucketWrite) put(bt *bucketTable, id string, row any) any {
	b := w.writable(bt, bt.bucketOf(id))
	i, found := bt.search(b.Rows, id)
	if found {
		before := b.Rows[i]
		b.Rows[i] = row
		return before
	}
	b.Rows = slices.Insert(b.Rows, i, row)
	return nil
}

// remove deletes the row of id, answering it (nil: there was none, and
// nothing changed).
func (w *bucketWrite) remove(bt *bucketTable, id string) any {
	if w.get(bt, id) == nil {
		return nil
	}
	b := w.writable(bt, bt.bucketOf(id))
	i, _ := bt.search(b.Rows, id)
	before := b.Rows[i]
	b.Rows = slices.Delete(b.Rows, i, i+1)
	return before
}

// insertRow is memdb's Insert for a row of a bucketed table.
func (w *bucketWrite) insertRow(bt *bucketTable, row any) error {
	id, err := bt.rowID(row)
	if err != nil {
		return err
	}
	w.put(bt, id, row)
	return nil
}

// deleteRow is memdb's Delete for a row of a bucketed table: the row of
// row's id goes, memdb.ErrNotFound when there is none.
func (w *bucketWrite) deleteRow(bt *bucketTable, row any) error {
	id, err := bt.rowID(row)
	if err != nil {
		return err
	}
	if w.remove(bt, id) == nil {
		return memdb.ErrNotFound
	}
	return nil
}

// flush stores the buckets the write changed, in the order of their
// keys, an emptied bucket deleted; the write starts afresh after it.
func (w *bucketWrite) flush() error {
	if len(w.buckets) == 0 {
		w.read = nil
		return nil
	}
	refs := make([]bucketRef, 0, len(w.buckets))
	for ref := range w.buckets {
		refs = append(refs, ref)
	}
	slices.SortFunc(refs, func(a, b bucketRef) int {
		if c := cmp.Compare(a.bt.tag, b.bt.tag); c != 0 {
			return c
		}
		return cmp.Compare(a.n, b.n)
	})
	for _, ref := range refs {
		b := w.buckets[ref]
		if len(b.Rows) == 0 {
			if err := w.tx.Delete(tableRowBuckets, b); err != nil && !errors.Is(err, memdb.ErrNotFound) {
				return fmt.Errorf("state: delete %s: %w", tableRowBuckets, err)
			}
			continue
		}
		if cap(b.Rows) > len(b.Rows)+len(b.Rows)/4+1 {
			b.Rows = slices.Clip(slices.Clone(b.Rows)) // the room a batch grew is not kept
		}
		if err := w.tx.Insert(tableRowBuckets, b); err != nil {
			return fmt.Errorf("state: insert %s: %w", tableRowBuckets, err)
		}
	}
	w.buckets, w.read = nil, nil
	return nil
}

// importBucketed decodes the exported rows of a bucketed table into its
// buckets, refusing what import refused when they were memdb's rows: a
// row that does not decode or has no id, and rows that share an id. It
// answers the rows in document order.
func importBucketed(tx *memdb.Txn, bt *bucketTable, exported []json.RawMessage) ([]any, error) {
	def, _ := tableDef(bt.table)
	w := newBucketWrite(tx)
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
