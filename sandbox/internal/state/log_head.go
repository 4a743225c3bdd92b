package state

// Where a write's trims of a log start.

import (
	"fmt"
	"slices"
)

// Once a log is full, every e-mail and event a batch of jobs adds trims it
// from its oldest entry, and a walk of the seq index from its start opened
// an iterator on the bucket table and merged the write's own buckets into
// it each time: a tenth of what a job paid for its two log entries. A
// write remembers instead, per log, the bucket of the oldest entry its
// last trim met (compactWrite.heads): no bucket before it holds an entry
// in the write, as trims only drop entries and an entry added before it
// forgets it (compactAdd). The next trim reads the write's own copy of
// that bucket directly, and walks the index from the bucket after it only
// when that one holds too few entries.

// walkLogSeq calls fn with the entries of a log's seq index (ix) and their
// rows, oldest first, until fn answers false, as
// compactEntryRows(ix, "", 0, false, fn) does.
func (t *Txn) walkLogSeq(ix *compactIndex, fn func(e *compactEntry, raw any) bool) error {
	if t.eng.compact == nil {
		t.eng.compact = &compactWrite{}
	}
	w := t.eng.compact
	from := uint64(0)
	if h, ok := w.heads[ix]; ok {
		from = h << ix.shift
		if b := w.buckets[compactRef{ix, h}]; b != nil {
			if checkOwnReads {
				t.checkLogHead(ix, from)
			}
			stopped := false
			var err error
			for i := range b.Entries {
				// A copy: fn may keep the entry, and the write changes its
				// bucket in place when it drops entries (after the walk).
				e := b.Entries[i]
				raw, ferr := t.logRow(ix, &e)
				if ferr != nil {
					err = ferr
					break
				}
				if !fn(&e, raw) {
					stopped = true
					break
				}
			}
			if err != nil || stopped {
				return err
			}
			if len(b.Entries) > 0 {
				return t.compactEntryRows(ix, "", from+1<<ix.shift, false, fn)
			}
			from += 1 << ix.shift
		}
	}
	if checkOwnReads && from > 0 {
		t.checkLogHead(ix, from)
	}
	first := true
	return t.compactEntryRows(ix, "", from, false, func(e *compactEntry, raw any) bool {
		if first {
			first = false
			if w.heads == nil {
				w.heads = map[*compactIndex]uint64{}
			}
			w.heads[ix] = ix.bucketOf(compactKey{order: e.Order})
		}
		return fn(e, raw)
	})
}

// logRow reads the row of an entry of a log's seq index.
func (t *Txn) logRow(ix *compactIndex, e *compactEntry) (any, error) {
	raw, err := t.First(ix.table, IndexID, idArg(ix.table, ix.lookupID(e)))
	if err == nil && raw == nil {
		err = fmt.Errorf("state: %s.%s names %q, which is not stored", ix.table, ix.name, ix.lookupID(e))
	}
	return raw, err
}

// forgetLogHead drops the head of ix a write remembers when an entry is
// added to bucket n before it.
func (w *compactWrite) forgetLogHead(ix *compactIndex, n uint64) {
	if h, ok := w.heads[ix]; ok && n < h {
		delete(w.heads, ix)
	}
}

// checkLogHead panics unless the log has no entry before from in the
// write (the readcheck build).
func (t *Txn) checkLogHead(ix *compactIndex, from uint64) {
	all := compactReference(t, ix, "", 0, false)
	after := compactReference(t, ix, "", from, false)
	if !slices.Equal(all, after) {
		panic(fmt.Sprintf("state: the trim of %s starts at %d, after %d of its entries", ix.table, from, len(all)-len(after)))
	}
}
