package state

// Rebuilding compact indexes (compact_index.go) from the rows of a
// database: import and journal replay.

import (
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// rebuildCompact makes every compact index from the rows of db (import,
// journal replay), refusing two rows with the key of a unique index.
func rebuildCompact(tx *memdb.Txn) error {
	for _, ix := range compactIndexes {
		buckets, err := compactBucketsOf(tx, ix)
		if err != nil {
			return err
		}
		for _, b := range buckets {
			if err := tx.Insert(tableCompact, b); err != nil {
				return fmt.Errorf("state: rebuild %s.%s: %w", ix.table, ix.name, err)
			}
		}
	}
	return nil
}

// compactBucketsOf computes the buckets of ix from the rows of its table,
// in the order of their keys.
func compactBucketsOf(tx *memdb.Txn, ix *compactIndex) ([]*compactBucket, error) {
	entries := map[uint64][]compactEntry{}
	it, err := getRows(tx, ix.table, IndexID)
	if err != nil {
		return nil, fmt.Errorf("state: rebuild %s.%s: %w", ix.table, ix.name, err)
	}
	ri := rowInfoOf(ix.table)
	var buf [8]compactKey
	for raw := it.Next(); raw != nil; raw = it.Next() {
		id, ok := ri.rowID(raw)
		if !ok {
			return nil, fmt.Errorf("state: rebuild %s.%s: a row without an id", ix.table, ix.name)
		}
		for _, k := range ix.rowKeys(raw, buf[:0]) {
			n := ix.bucketOf(k)
			entries[n] = append(entries[n], ix.owned(compactEntry{Group: k.group, Order: k.order, ID: ix.entryIDOf(raw, id)}))
		}
	}
	ns := make([]uint64, 0, len(entries))
	for n := range entries {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := make([]*compactBucket, 0, len(ns))
	for _, n := range ns {
		es := slices.Clone(entries[n]) // no room left over from the appends
		slices.SortFunc(es, compareEntries)
		if ix.unique {
			for i := 1; i < len(es); i++ {
				if es[i].Group == es[i-1].Group && es[i].Order == es[i-1].Order {
					return nil, fmt.Errorf("table %q: two rows share the unique %q key %q/%d", ix.table, ix.name, es[i].Group, es[i].Order)
				}
			}
		}
		out = append(out, &compactBucket{Key: ix.bucketKey(n), Entries: es})
	}
	return out, nil
}
