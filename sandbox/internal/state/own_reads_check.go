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

// checkOwnJobs panics unless memdb's own read of the subject's jobs gives
// jobs, in the same order.
func (t *Txn) checkOwnJobs(jobs []*Job, subject string) {
	want, err := All[Job](t, TableJobs, IndexSubject, subject)
	if err != nil || !slices.Equal(want, jobs) {
		panic(fmt.Sprintf("state: own jobs of %q answered %v, memdb %v (%v)", subject, jobs, want, err))
	}
}
