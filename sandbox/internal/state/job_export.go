package state

// Jobs as exports hold them: with the id the table no longer stores, in
// the order exports have always written them.

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// jobsInIDOrder puts exported job rows in id order, the order export has
// always written them in (the table itself is in queue order).
func jobsInIDOrder(rows []any) {
	slices.SortStableFunc(rows, func(a, b any) int { return cmp.Compare(a.(*model.Job).Seq, b.(*model.Job).Seq) })
}

// checkJobIDs refuses imported jobs that share an id (a sequence number):
// the table's key is (due, seq), so memdb would keep both.
func checkJobIDs(rows []any) error {
	seen := make(map[uint64]bool, len(rows))
	dups := 0
	for _, r := range rows {
		s := r.(*model.Job).Seq
		if seen[s] {
			dups++
		}
		seen[s] = true
	}
	if dups > 0 {
		return fmt.Errorf("table %q: %d rows share an id with another row", TableJobs, dups)
	}
	return nil
}
