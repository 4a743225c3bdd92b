package state

// The rows of a bucketed table (bucket_rows.go) in id order: each bucket
// holds its rows sorted by id, and the walk merges the buckets, a heap of
// each bucket's next row, so that it costs a look into every bucket and
// then only the rows it visits.

import (
	"slices"
	"strings"

	memdb "github.com/hashicorp/go-memdb"
)

// mergeIterator walks the rows of a bucketed table in id order, from an id
// on, while their ids start with a prefix.
type mergeIterator struct {
	bt     *bucketTable
	prefix string
	// heads is a heap of the buckets' rows still to visit, by the id of
	// their first.
	heads []mergeHead
	// w is the write whose buckets the walk reads (nil: none), which
	// thaws a frozen row as its other reads do.
	w *bucketWrite
}

// mergeHead is the rest of one bucket's rows, and the id of the first.
type mergeHead struct {
	rows []any
	id   string
}

// newMergeIterator walks the rows of bt from the id from on, while their
// ids start with prefix: the buckets tx holds, those w changed replacing
// them. A write's own buckets change in place as it goes on, so the walk
// takes a copy of what it visits of them.
func newMergeIterator(tx *memdb.Txn, w *bucketWrite, bt *bucketTable, from, prefix string) *mergeIterator {
	it := &mergeIterator{bt: bt, prefix: prefix, w: w}
	eachRowBucket(tx, w, bt, func(_ uint64, b *rowBucket, own bool) {
		i, _ := bt.search(b.Rows, from)
		if i == len(b.Rows) {
			return
		}
		rows := b.Rows[i:]
		if own {
			rows = slices.Clone(rows)
		}
		id, _ := bt.id(rows[0])
		it.heads = append(it.heads, mergeHead{rows: rows, id: id})
	})
	for i := len(it.heads)/2 - 1; i >= 0; i-- {
		it.down(i)
	}
	return it
}

// Next returns the next row in id order (nil: none left).
func (it *mergeIterator) Next() any {
	if len(it.heads) == 0 {
		return nil
	}
	top := &it.heads[0]
	if !strings.HasPrefix(top.id, it.prefix) {
		it.heads = nil // every id left comes after the prefix's
		return nil
	}
	row := top.rows[0]
	if top.rows = top.rows[1:]; len(top.rows) > 0 {
		top.id, _ = it.bt.id(top.rows[0])
	} else {
		last := len(it.heads) - 1
		it.heads[0] = it.heads[last]
		it.heads = it.heads[:last]
	}
	it.down(0)
	if it.w != nil {
		return it.w.thaw(it.bt, row)
	}
	return it.bt.thaw(row)
}

// down restores the heap below i.
func (it *mergeIterator) down(i int) {
	h := it.heads
	for {
		least := i
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(h) && h[c].id < h[least].id {
				least = c
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// WatchCh is nil: nothing in the sandbox watches memdb's channels.
func (it *mergeIterator) WatchCh() <-chan struct{} { return nil }
