//go:build readcheck

package state

import (
	"fmt"
	"reflect"
	"slices"
)

// checkOwnReads makes every read by id a write answers itself
// (own_reads.go) ask memdb too, and panic when the answers differ: the
// whole test suite run with -tags readcheck checks the shortcut.
const checkOwnReads = true

// checkOwnRead panics unless memdb's own read gives raw.
func (t *Txn) checkOwnRead(raw any, table, index string, args []any) {
	want, err := t.mem.First(table, index, args...)
	if err != nil || want != raw {
		panic(fmt.Sprintf("state: own read of %s.%s %v answered %p, memdb %p (%v)", table, index, args, raw, want, err))
	}
}

// checkCompactScan panics unless a scan of a compact index visited the
// entries a walk of the whole table finds, in the same order: all of
// them, or the first of them when the caller stopped the scan.
func (t *Txn) checkCompactScan(ix *compactIndex, group string, from uint64, desc bool, got []string, stopped bool) {
	want := compactReference(t, ix, group, from, desc)
	if stopped && len(got) <= len(want) {
		want = want[:len(got)]
	}
	if !slices.Equal(got, want) {
		panic(fmt.Sprintf("state: compact read of %s.%s %q from %d (desc %v) answered %v, the rows %v", ix.table, ix.name, group, from, desc, got, want))
	}
}

// checkBucketRead panics unless raw is what a walk of every bucket of bt
// finds under id (bucket_rows.go), and every bucket walked holds rows
// sorted by id that hash to it: a lookup that reads one bucket found the
// row where the rows are.
func (t *Txn) checkBucketRead(bt *bucketTable, id string, raw any) {
	var found []any
	eachRowBucket(t.mem, t.eng.buckets, bt, func(n uint64, b *rowBucket, _ bool) {
		for i, r := range b.Rows {
			rid, ok := bt.id(r)
			if !ok || bt.slot(bt.hash(r)) != n {
				panic(fmt.Sprintf("state: bucket %d of %s holds %T %q of another bucket", n, bt.table, r, rid))
			}
			if i > 0 && bt.compare(b.Rows[i-1], rid) >= 0 {
				panic(fmt.Sprintf("state: bucket %d of %s is not sorted at %q", n, bt.table, rid))
			}
			if rid == id {
				found = append(found, r)
			}
		}
	})
	switch {
	case len(found) > 1:
		panic(fmt.Sprintf("state: %s holds %d rows of id %q", bt.table, len(found), id))
	case len(found) == 1 && !sameStoredRow(t, bt, found[0], raw), len(found) == 0 && raw != nil:
		panic(fmt.Sprintf("state: read of %s %q answered %p, the buckets hold %v", bt.table, id, raw, found))
	}
}

// sameStoredRow reports whether raw is what a read gives for the stored
// row: the row itself, or for a frozen row (bucket_rows_frozen.go) the row
// it thaws to.
func sameStoredRow(t *Txn, bt *bucketTable, stored, raw any) bool {
	f, ok := stored.(frozenRow)
	if !ok {
		return stored == raw
	}
	if t.eng.buckets != nil {
		return t.eng.buckets.thaw(bt, f) == raw
	}
	return reflect.DeepEqual(bt.thaw(f), raw)
}
