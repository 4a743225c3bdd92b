package state

// Reads of compact indexes (compact_index.go): the entries of one group,
// or of an ordered index from a position, in either direction, then the
// rows by id.

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
)

// compactScan calls fn with every entry of ix in group (of an
// ordered index: every entry) whose order is from or more (desc: from or
// less), in index order (desc: reversed), until fn answers false. Built
// with -tags readcheck, every scan is checked against a walk of the table.
func (t *Txn) compactScan(ix *compactIndex, group string, from uint64, desc bool, fn func(e *compactEntry) bool) {
	if !checkOwnReads {
		t.scanCompact(ix, group, from, desc, fn)
		return
	}
	var got []string
	stopped := false
	t.scanCompact(ix, group, from, desc, func(e *compactEntry) bool {
		got = append(got, e.ID)
		if !fn(e) {
			stopped = true
			return false
		}
		return true
	})
	t.checkCompactScan(ix, group, from, desc, got, stopped)
}

func (t *Txn) scanCompact(ix *compactIndex, group string, from uint64, desc bool, fn func(e *compactEntry) bool) {
	switch {
	case ix.ordered:
		t.eachBucket(ix, from>>ix.shift, 0, math.MaxUint64, desc, func(b *compactBucket) bool {
			return scanEntries(b.Entries, "", from, desc, fn)
		})
	case ix.chunk > 0:
		lo, hi := ix.slotRange(group)
		t.eachBucket(ix, ix.bucketOf(compactKey{group, from}), lo, hi, desc, func(b *compactBucket) bool {
			return scanEntries(b.Entries, group, from, desc, fn)
		})
	default:
		if b := t.bucket(ix, ix.bucketOf(compactKey{group: group})); b != nil {
			scanEntries(b.Entries, group, from, desc, fn)
		}
	}
}

// scanEntries calls fn with the entries of group from order from on
// (desc: down), answering false when fn stopped the walk.
func scanEntries(es []compactEntry, group string, from uint64, desc bool, fn func(e *compactEntry) bool) bool {
	if !desc {
		i, _ := slices.BinarySearchFunc(es, compactEntry{Group: group, Order: from}, compareEntries)
		for ; i < len(es) && es[i].Group == group; i++ {
			if !fn(&es[i]) {
				return false
			}
		}
		return true
	}
	// The first entry past (group, from): the walk goes down from the one
	// before it.
	i := sort.Search(len(es), func(i int) bool {
		c := cmp.Compare(es[i].Group, group)
		return c > 0 || c == 0 && es[i].Order > from
	})
	for i--; i >= 0 && es[i].Group == group; i-- {
		if !fn(&es[i]) {
			return false
		}
	}
	return true
}

// eachBucket calls fn with the buckets of an index numbered from start up
// to hi (desc: down to lo), as this transaction has them, until fn
// answers false: the stored buckets, merged with those the write changed.
func (t *Txn) eachBucket(ix *compactIndex, start, lo, hi uint64, desc bool, fn func(b *compactBucket) bool) {
	var pending []uint64
	if t.eng.compact != nil {
		for _, n := range t.eng.compact.walked[ix] {
			if !desc && n >= start && n <= hi || desc && n <= start && n >= lo {
				pending = append(pending, n)
			}
		}
		slices.Sort(pending)
		if desc {
			slices.Reverse(pending)
		}
	}
	var it interface{ Next() any }
	var err error
	if desc {
		it, err = t.mem.ReverseLowerBound(tableCompact, IndexID, ix.bucketLookup(start))
	} else {
		it, err = t.mem.LowerBound(tableCompact, IndexID, ix.bucketLookup(start))
	}
	if err != nil {
		panic(fmt.Sprintf("state: walk %s: %v", tableCompact, err)) // the table and its id index are the schema's
	}
	nextBase := func() (uint64, *compactBucket, bool) {
		raw := it.Next()
		if raw == nil {
			return 0, nil, false
		}
		b := raw.(*compactBucket)
		n, ok := ix.bucketNumber(b.Key)
		return n, b, ok && n >= lo && n <= hi
	}
	bn, bb, bok := nextBase()
	// before reports whether bucket a comes before bucket b in the walk.
	before := func(a, b uint64) bool { return !desc && a < b || desc && a > b }
	for bok || len(pending) > 0 {
		var b *compactBucket
		switch {
		case !bok || len(pending) > 0 && before(pending[0], bn):
			b = t.eng.compact.buckets[compactRef{ix, pending[0]}]
			pending = pending[1:]
		case len(pending) > 0 && pending[0] == bn:
			b = t.eng.compact.buckets[compactRef{ix, pending[0]}] // the write's copy replaces it
			pending = pending[1:]
			bn, bb, bok = nextBase()
		default:
			b = bb
			bn, bb, bok = nextBase()
		}
		if len(b.Entries) > 0 && !fn(b) {
			return
		}
	}
}

// compactRows calls fn with the rows of compactScan's entries.
func (t *Txn) compactRows(ix *compactIndex, group string, from uint64, desc bool, fn func(raw any) bool) error {
	return t.compactEntryRows(ix, group, from, desc, func(_ *compactEntry, raw any) bool { return fn(raw) })
}

// compactEntryRows calls fn with compactScan's entries and their rows.
func (t *Txn) compactEntryRows(ix *compactIndex, group string, from uint64, desc bool, fn func(e *compactEntry, raw any) bool) error {
	var err error
	t.compactScan(ix, group, from, desc, func(e *compactEntry) bool {
		raw, ferr := t.First(ix.table, IndexID, idArg(ix.table, ix.lookupID(e)))
		if ferr != nil {
			err = ferr
			return false
		}
		if raw == nil {
			if checkOwnReads {
				panic(fmt.Sprintf("state: compact index %s.%s names %q, which is not stored", ix.table, ix.name, ix.lookupID(e)))
			}
			return true
		}
		return fn(e, raw)
	})
	return err
}

// compactFirst is First on a compact index: the first row of a group, or
// the row of a number of an ordered index.
func (t *Txn) compactFirst(ix *compactIndex, args []any) (any, error) {
	group, from, err := ix.lookupArgs(args)
	if err != nil {
		return nil, err
	}
	var found any
	err = t.compactEntryRows(ix, group, from, false, func(e *compactEntry, raw any) bool {
		if !ix.ordered || e.Order == from {
			found = raw
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// lookupArgs reads the arguments of a lookup: a group (a string) of a
// grouped index, a number of an ordered one.
func (ix *compactIndex) lookupArgs(args []any) (string, uint64, error) {
	if len(args) != 1 {
		return "", 0, fmt.Errorf("state: %s index: want one argument, got %d", ix.name, len(args))
	}
	if !ix.ordered {
		s, ok := args[0].(string)
		if !ok {
			return "", 0, fmt.Errorf("state: %s index: want a string, got %T", ix.name, args[0])
		}
		return s, 0, nil
	}
	v := reflect.ValueOf(args[0])
	if !v.IsValid() || !v.CanUint() {
		return "", 0, fmt.Errorf("state: %s index: want an unsigned integer, got %T", ix.name, args[0])
	}
	return "", v.Uint(), nil
}

// compactAll is All on a compact index: every row of a group, or every
// row of an ordered index (no arguments), in index order.
func compactAll[T any](tx *Txn, ix *compactIndex, args []any) ([]*T, error) {
	group := ""
	switch {
	case ix.ordered && len(args) == 0:
	case !ix.ordered:
		var err error
		if group, _, err = ix.lookupArgs(args); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("state: %s index: an ordered walk takes no arguments", ix.name)
	}
	var out []*T
	err := tx.compactRows(ix, group, 0, false, func(raw any) bool {
		out = append(out, raw.(*T))
		return true
	})
	return out, err
}

// WalkSeq calls fn with the rows of table in the order of their Seq from
// the row of Seq from on (desc: from down, newest first), until fn
// answers false. A table whose seq index is compact is walked through
// its buckets, the others through memdb's seq index.
func WalkSeq(tx *Txn, table string, from uint64, desc bool, fn func(raw any) bool) error {
	if ix := compactIndexNamed(table, IndexSeq); ix != nil {
		return tx.compactRows(ix, "", from, desc, fn)
	}
	var it interface{ Next() any }
	var err error
	if desc {
		it, err = tx.mem.ReverseLowerBound(table, IndexSeq, from)
	} else {
		it, err = tx.mem.LowerBound(table, IndexSeq, from)
	}
	if err != nil {
		return fmt.Errorf("state: walk %s: %w", table, err)
	}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		if !fn(raw) {
			return nil
		}
	}
	return nil
}

// compactReference answers what compactScan should visit, from a walk of
// every row of the table: the reference the readcheck build and the tests
// compare the buckets with.
func compactReference(t *Txn, ix *compactIndex, group string, from uint64, desc bool) []string {
	it, err := t.Get(ix.table, IndexID)
	if err != nil {
		panic(err)
	}
	ri := rowInfoOf(ix.table)
	var es []compactEntry
	var buf [8]compactKey
	for raw := it.Next(); raw != nil; raw = it.Next() {
		id, _ := ri.rowID(raw)
		for _, k := range ix.rowKeys(raw, buf[:0]) {
			if k.group == group && (!desc && k.order >= from || desc && k.order <= from) {
				es = append(es, compactEntry{Group: k.group, Order: k.order, ID: ix.entryIDOf(raw, id)})
			}
		}
	}
	slices.SortFunc(es, compareEntries)
	if desc {
		slices.Reverse(es)
	}
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}
