package state

// The write path of bucketed tables (bucket_rows.go): a write's own
// copies of the buckets it changed, and their flush before the commit.
// The store's writes use it through Txn (bucket_rows_txn.go); import and
// journal replay, which write a memdb transaction directly, use it
// alone.

import (
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// bucketWrite is what a write changed of bucketed tables: its own copies
// of the buckets it changed. The first change of a bucket copies it, the
// later ones change the copy in place, and flush stores the copies once,
// in a new tree of each table's buckets (bucket_rows_tree.go). Until then
// the write has not touched row_buckets, so reading a stored bucket costs
// memdb no clone of the index.
type bucketWrite struct {
	tx      *memdb.Txn
	buckets map[bucketRef]*rowBucket
	// trees holds the stored tree of each table the write read (nil:
	// none stored), which does not change before flush.
	trees map[*bucketTable]*bucketTree
	// thawed holds the rows thawed for the write, by the frozen row they
	// came from (bucket_rows_frozen.go).
	thawed map[frozenRow]any
	// freezeAll freezes every row the write stores (import and journal
	// replay), not only those it found stored.
	freezeAll bool
}

// bucketRef names bucket n of a table.
type bucketRef struct {
	bt *bucketTable
	n  uint64
}

func newBucketWrite(tx *memdb.Txn) *bucketWrite { return &bucketWrite{tx: tx} }

// newLoadingWrite starts a write that loads rows (import, journal
// replay): it freezes every row it stores, as a world just loaded has
// written none of them lately.
func newLoadingWrite(tx *memdb.Txn) *bucketWrite { return &bucketWrite{tx: tx, freezeAll: true} }

// tree answers the stored tree of bt.
func (w *bucketWrite) tree(bt *bucketTable) *bucketTree {
	if t, ok := w.trees[bt]; ok {
		return t
	}
	t := storedTree(w.tx, bt)
	if w.trees == nil {
		w.trees = make(map[*bucketTable]*bucketTree, len(bucketedTables))
	}
	w.trees[bt] = t
	return t
}

// bucket answers bucket n of bt as the write has it (nil: empty).
func (w *bucketWrite) bucket(bt *bucketTable, n uint64) *rowBucket {
	if b, ok := w.buckets[bucketRef{bt, n}]; ok {
		return b
	}
	return w.tree(bt).bucket(n)
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
	b := &rowBucket{}
	if s := w.tree(bt).bucket(n); s != nil {
		// Room for one more: a send adds one row to the buckets it
		// touches.
		b.Rows = make([]any, len(s.Rows), len(s.Rows)+1)
		copy(b.Rows, s.Rows)
	}
	w.buckets[ref] = b
	return b
}

// get answers the row of id (nil: none).
func (w *bucketWrite) get(bt *bucketTable, id string) any {
	return w.thaw(bt, bucketRow(w.bucket(bt, bt.bucketOf(id)), bt, id))
}

// put stores row under id, answering the row it replaced (nil: none).
func (w *bucketWrite) put(bt *bucketTable, id string, row any) any {
	b := w.writable(bt, bt.bucketOf(id))
	i, found := bt.search(b.Rows, id)
	if found {
		before := b.Rows[i]
		b.Rows[i] = row
		return w.thaw(bt, before)
	}
	b.Rows = slices.Insert(b.Rows, i, row)
	return nil
}

// remove deletes the row of id, answering it (nil: there was none, and
// nothing changed).
func (w *bucketWrite) remove(bt *bucketTable, id string) any {
	if bucketRow(w.bucket(bt, bt.bucketOf(id)), bt, id) == nil {
		return nil
	}
	b := w.writable(bt, bt.bucketOf(id))
	i, _ := bt.search(b.Rows, id)
	before := b.Rows[i]
	b.Rows = slices.Delete(b.Rows, i, i+1)
	return w.thaw(bt, before)
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

// flush stores the buckets the write changed, a new tree per table, in
// the order of the tables' tags, freezing the rows it found stored in
// them (bucket_rows_frozen.go); the write starts afresh after it.
func (w *bucketWrite) flush() error {
	refs := inStoreOrder(w.buckets, func(r bucketRef) string { return r.bt.tag }, func(r bucketRef) uint64 { return r.n })
	for _, ref := range refs {
		w.freezeStored(ref.bt, ref.n, w.buckets[ref], w.freezeAll)
	}
	for len(refs) > 0 {
		bt, end := refs[0].bt, 1
		for end < len(refs) && refs[end].bt == bt {
			end++
		}
		if err := putTree(w.tx, withBuckets(w.tree(bt), bt.tag, refs[:end], w.buckets)); err != nil {
			return err
		}
		refs = refs[end:]
	}
	w.buckets, w.trees, w.thawed = nil, nil, nil
	return nil
}
