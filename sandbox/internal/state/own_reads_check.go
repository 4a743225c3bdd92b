//go:build readcheck

package state

import (
	"fmt"
	"slices"
)

// checkOwnReads makes every read by id a write answers itself
// (own_reads.go) ask memdb too, and panic when the answers differ: the
// whole test suite run with -tags readcheck checks the shortcut.
const checkOwnReads = true

// checkOwnRead panics unless memdb's own read gives raw.
func (t *Txn) checkOwnRead(raw any, table, index string, args []any) {
	want, err := t.Txn.First(table, index, args...)
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
