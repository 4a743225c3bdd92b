package state

// The write path of compact indexes (compact_index.go): a write's own
// copies of the buckets it changes, and their flush before the commit.

import (
	"errors"
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// compactWrite is what a write changed of the compact indexes: its own
// copies of the buckets it changed. A write that does not count its rows
// (its changes are tracked for a commit observer) also keeps a record of
// the rows of compact tables it changed (rowRecord, with db set), to
// compare a row's keys with those of the row it replaces: a read of the
// write's own changed index would make memdb clone it.
type compactWrite struct {
	buckets map[compactRef]*compactBucket
	// walked lists, per ordered or chunked index, the numbers of the
	// buckets in buckets: a walk in order merges them with the stored
	// ones (eachBucket) without looking through every bucket the write
	// changed, which a write creating many requests would do per request.
	walked map[*compactIndex][]uint64
	// heads holds, per log seq index, the bucket of the oldest entry the
	// write's last trim met (log_head.go).
	heads map[*compactIndex]uint64
	rowRecord
}

// compactKeys is compactChange's room for a row's keys before and after
// a change, kept by a write for its next change: arrays on its stack
// escaped through the keys functions, two allocations of 192 bytes for
// every row a write put into or deleted from a table with compact
// indexes.
type compactKeys struct {
	old, new []compactKey
}

// compactRef names bucket n of an index.
type compactRef struct {
	ix *compactIndex
	n  uint64
}

// storedBucket answers the bucket as the database holds it (nil: none).
// The write has not changed the bucket table (flushCompact does that last),
// so memdb reads it from the committed tree.
func (t *Txn) storedBucket(ix *compactIndex, n uint64) *compactBucket {
	raw, err := t.mem.First(tableCompact, IndexID, ix.bucketLookup(n))
	if err != nil || raw == nil {
		return nil
	}
	return raw.(*compactBucket)
}

// bucket answers bucket n of ix as this transaction has it (nil: empty).
func (t *Txn) bucket(ix *compactIndex, n uint64) *compactBucket {
	if t.eng.compact != nil {
		if b, ok := t.eng.compact.buckets[compactRef{ix, n}]; ok {
			return b
		}
	}
	return t.storedBucket(ix, n)
}

// writableBucket answers the write's own copy of bucket n of ix, copying
// the stored one the first time.
func (t *Txn) writableBucket(ix *compactIndex, n uint64) *compactBucket {
	if t.eng.compact == nil {
		t.eng.compact = &compactWrite{}
	}
	if t.eng.compact.buckets == nil {
		t.eng.compact.buckets = map[compactRef]*compactBucket{}
	}
	ref := compactRef{ix, n}
	if b, ok := t.eng.compact.buckets[ref]; ok {
		return b
	}
	b := &compactBucket{Key: ix.bucketKey(n)}
	if s := t.storedBucket(ix, n); s != nil {
		// Room for one more: a send adds one entry to each bucket it
		// touches.
		b.Entries = make([]compactEntry, len(s.Entries), len(s.Entries)+1)
		copy(b.Entries, s.Entries)
	}
	t.eng.compact.buckets[ref] = b
	if ix.ordered || ix.chunk > 0 {
		if t.eng.compact.walked == nil {
			t.eng.compact.walked = map[*compactIndex][]uint64{}
		}
		t.eng.compact.walked[ix] = append(t.eng.compact.walked[ix], n)
	}
	return b
}

// compactChange moves the entries of the row of id from the keys of
// before to those of after (either nil) in every compact index of its
// table, touching only the buckets of keys that changed.
func (t *Txn) compactChange(ixs []*compactIndex, id string, before, after any) {
	if t.eng.keys == nil {
		t.eng.keys = &compactKeys{}
	}
	w := t.eng.keys
	for _, ix := range ixs {
		old := ix.rowKeys(before, w.old)
		cur := ix.rowKeys(after, w.new)
		w.old, w.new = old[:0], cur[:0]
		if slices.Equal(old, cur) {
			continue
		}
		i, j := 0, 0
		for i < len(old) || j < len(cur) {
			switch {
			case j == len(cur) || i < len(old) && compareKeys(old[i], cur[j]) < 0:
				t.compactRemove(ix, old[i], ix.entryIDOf(before, id))
				i++
			case i == len(old) || compareKeys(cur[j], old[i]) < 0:
				t.compactAdd(ix, cur[j], ix.entryIDOf(after, id))
				j++
			default:
				i, j = i+1, j+1
			}
		}
	}
}

// compactAdd adds the entry (k, id) to its bucket.
func (t *Txn) compactAdd(ix *compactIndex, k compactKey, id string) {
	n := ix.bucketOf(k)
	b := t.writableBucket(ix, n)
	t.eng.compact.forgetLogHead(ix, n)
	e := compactEntry{Group: k.group, Order: k.order, ID: id}
	i, found := slices.BinarySearchFunc(b.Entries, e, compareEntries)
	if found {
		return
	}
	e = ix.owned(e)
	if size := len(b.Entries); size == cap(b.Entries) && size >= bucketGrowsByAQuarter && ix.churns {
		grown := make([]compactEntry, size, size+size/4+1)
		copy(grown, b.Entries)
		b.Entries = grown
	}
	b.Entries = slices.Insert(b.Entries, i, e)
}

// bucketGrowsByAQuarter is the size from which a write's full copy of a
// bucket of an index that churns (compactIndex.churns) grows by a
// quarter, the room flushCompact keeps, rather than as append grows it.
// A batch of jobs adds a few entries to each of hundreds of buckets of
// the logs' indexes (the e-mails about their requests, the events about
// them) and removes as many: doubled, every one was copied once more at
// the flush to drop the room it did not use.
const bucketGrowsByAQuarter = 16

// compactRemove removes the entry (k, id) from its bucket.
func (t *Txn) compactRemove(ix *compactIndex, k compactKey, id string) {
	b := t.writableBucket(ix, ix.bucketOf(k))
	e := compactEntry{Group: k.group, Order: k.order, ID: id}
	if i, found := slices.BinarySearchFunc(b.Entries, e, compareEntries); found {
		b.Entries = slices.Delete(b.Entries, i, i+1)
	}
}

// flushCompact stores the buckets a write changed, once, before it
// commits: in the order of their keys, an emptied bucket deleted.
func (t *Txn) flushCompact() error {
	if t.eng.compact == nil {
		return nil
	}
	w := t.eng.compact
	t.eng.compact = nil
	refs := inStoreOrder(w.buckets, func(r compactRef) string { return r.ix.tag }, func(r compactRef) uint64 { return r.n })
	for _, ref := range refs {
		b := w.buckets[ref]
		if len(b.Entries) == 0 {
			if err := t.mem.Delete(tableCompact, b); err != nil && !errors.Is(err, memdb.ErrNotFound) {
				return fmt.Errorf("state: delete %s: %w", tableCompact, err)
			}
			continue
		}
		if cap(b.Entries) > len(b.Entries)+len(b.Entries)/4+1 {
			b.Entries = slices.Clone(b.Entries) // the room a batch grew is not kept
		}
		if err := t.mem.Insert(tableCompact, b); err != nil {
			return fmt.Errorf("state: insert %s: %w", tableCompact, err)
		}
	}
	return nil
}
