package state

// A store write's changes of bucketed tables (bucket_rows.go): Txn's
// Insert, Delete, DeleteAll and DeletePrefix of their rows, with what
// follows a row's change everywhere else (row counts, compact indexes,
// the record of changes a commit observer reads).

import (
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
)

// bucketWriter answers the write's bucket copies, made on first use.
func (t *Txn) bucketWriter() *bucketWrite {
	if t.eng.buckets == nil {
		t.eng.buckets = newBucketWrite(t.mem)
	}
	return t.eng.buckets
}

// insertBucketed is Insert into a bucketed table.
func (t *Txn) insertBucketed(bt *bucketTable, row any) error {
	id, err := bt.rowID(row)
	if err != nil {
		return err
	}
	before := t.bucketWriter().put(bt, id, row)
	return t.bucketChanged(bt, id, before, row)
}

// deleteBucketed is Delete from a bucketed table: the row of row's id
// goes (memdb.ErrNotFound when there is none, as memdb's).
func (t *Txn) deleteBucketed(bt *bucketTable, row any) error {
	id, err := bt.rowID(row)
	if err != nil {
		return err
	}
	before := t.bucketWriter().remove(bt, id)
	if before == nil {
		return memdb.ErrNotFound
	}
	return t.bucketChanged(bt, id, before, nil)
}

// deleteAllBucketed is DeleteAll and DeletePrefix on a bucketed table (by
// id, id prefix): it answers how many rows went.
func (t *Txn) deleteAllBucketed(bt *bucketTable, index string, args []any) (int, error) {
	// Collected first: the deletes change the buckets the walk reads.
	gone, err := t.collect(bt.table, index, args...)
	if err != nil {
		return 0, fmt.Errorf("state: delete from %s: %w", bt.table, err)
	}
	for i, raw := range gone {
		if err := t.deleteBucketed(bt, raw); err != nil {
			return i, err
		}
	}
	return len(gone), nil
}

// bucketChanged follows the change of the row of id from before to
// after (either nil) where a row's change counts: the compact indexes of
// its table, and the row counts of a counting write or the record of a
// tracked one (bucket_rows_observe.go).
func (t *Txn) bucketChanged(bt *bucketTable, id string, before, after any) error {
	if cx := compactByTable[bt.table]; cx != nil {
		t.compactChange(cx, id, before, after)
	}
	if t.eng.rows != nil {
		switch {
		case before == nil && after != nil:
			t.eng.rows.counts.add(bt.table, 1)
		case before != nil && after == nil:
			t.eng.rows.counts.add(bt.table, -1)
		}
		if o := optionsOf(bt.table); o != nil {
			t.countRow(o, before, after)
		}
		return nil
	}
	return t.trackBucketed(bt.table, id, before, after)
}

// flushBuckets stores the buckets a write changed, once, before it
// commits.
func (t *Txn) flushBuckets() error {
	if t.eng.buckets == nil {
		return nil
	}
	w := t.eng.buckets
	t.eng.buckets = nil
	return w.flush()
}
