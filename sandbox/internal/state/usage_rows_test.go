package state

import (
	"errors"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRowCountersFollowEveryWrite: the rows by table and the callback
// attempts by result follow inserts, replacements and deletions made
// through Put, through the transaction's memdb methods, in bulk, undone
// within the same write, or aborted, and they are rebuilt the same by
// import; with a commit observer (which reads memdb's record of the
// changes) as without.
func TestRowCountersFollowEveryWrite(t *testing.T) {
	t.Run("unobserved", func(t *testing.T) { testRowCounters(t, false) })
	t.Run("observed", func(t *testing.T) { testRowCounters(t, true) })
	t.Run("probed", func(t *testing.T) {
		// Tables whose id index is of their own making (not found by an
		// id string) are counted by probing the write itself.
		probeTables(t, TableTeams, tableMeta)
		testRowCounters(t, false)
	})
}

// probeTables makes the row counting treat tables as if their id index
// could not be looked up by an id string, for the rest of the test.
func probeTables(t *testing.T, tables ...string) {
	rowInfoOf(TableTeams) // built
	old := rowInfos.Load()
	m := make(map[string]*rowInfo, len(*old))
	for name, ri := range *old {
		m[name] = ri
	}
	for _, name := range tables {
		c := *m[name]
		c.byID = false
		m[name] = &c
	}
	rowInfos.Store(&m)
	t.Cleanup(func() { rowInfos.Store(old) })
}

func testRowCounters(t *testing.T, observed bool) {
	st := newTestStore(t)
	var log commitLog
	if observed {
		st.SetCommitObserver(log.observe)
	}
	team := func(id string) *model.Team { return &model.Team{ID: id, Name: id} }
	delivery := func(id string, attempts ...model.DeliveryAttempt) *model.Delivery {
		return &model.Delivery{ID: id, Seq: uint64(len(id)), EventID: "e", Queue: "q", State: model.DeliveryDelivered, Attempts: attempts}
	}
	steps := []func(tx *Txn) error{
		func(tx *Txn) error { return Put(tx, TableTeams, team("t1")) },
		func(tx *Txn) error { return tx.Insert(TableTeams, team("t2")) },
		func(tx *Txn) error { return Put(tx, TableTeams, &model.Team{ID: "t1", Name: "renamed"}) },
		func(tx *Txn) error {
			if err := Put(tx, TableTeams, team("t3")); err != nil {
				return err
			}
			return tx.Delete(TableTeams, team("t3"))
		},
		func(tx *Txn) error {
			return Put(tx, TableDeliveries, delivery("d1", model.DeliveryAttempt{Status: 500}, model.DeliveryAttempt{}))
		},
		func(tx *Txn) error {
			return Put(tx, TableDeliveries, delivery("d1", model.DeliveryAttempt{Status: 500}, model.DeliveryAttempt{}, model.DeliveryAttempt{Status: 200, Delivered: true}))
		},
		func(tx *Txn) error {
			return Put(tx, TableDeliveries, delivery("d22", model.DeliveryAttempt{Status: 200, Delivered: true}))
		},
		func(tx *Txn) error { return tx.Delete(TableDeliveries, delivery("d22")) },
		func(tx *Txn) error { _, err := tx.DeleteAll(TableTeams, IndexID); return err },
		func(tx *Txn) error {
			for _, id := range []string{"p1", "p2", "q1"} {
				if err := Put(tx, TableTeams, team(id)); err != nil {
					return err
				}
			}
			return Put(tx, TableDeliveries, delivery("dp", model.DeliveryAttempt{Status: 200, Delivered: true}))
		},
		func(tx *Txn) error { _, err := tx.DeletePrefix(TableTeams, IndexID+"_prefix", "p"); return err },
		func(tx *Txn) error { _, err := tx.DeletePrefix(TableDeliveries, IndexID+"_prefix", "dp"); return err },
		func(tx *Txn) error { return tx.Delete(TableTeams, team("q1")) },
		func(tx *Txn) error { return Put(tx, TableTeams, team("t4")) },
	}
	// Only these two counters: the deliveries by state follow Put and the
	// log's trim, the only ways the sandbox changes deliveries, and a step
	// here deletes one directly.
	check := func() Usage {
		t.Helper()
		got := WorldUsage(st.Read())
		want, err := RecountUsage(st.Read())
		require.NoError(t, err)
		require.Equal(t, want.Rows, got.Rows, "rows by table")
		require.Equal(t, want.Attempts, got.Attempts, "attempts by result")
		return got
	}
	for i, step := range steps {
		require.NoError(t, st.Update(step), "step %d", i)
		check()
	}
	require.Error(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableTeams, team("t5")); err != nil {
			return err
		}
		return errors.New("aborted")
	}))
	u := check()
	assert.Equal(t, map[string]int64{TableTeams: 1, TableDeliveries: 1, tableMeta: 1}, u.Rows)
	assert.Equal(t, AttemptCounts{Delivered: 1, Failed: 1, Error: 1}, u.Attempts)
	if observed {
		for _, c := range log.commits {
			for _, ch := range c.Changes {
				if ch.Table == tableUsage {
					// The row counts a write moved are not among its changes;
					// the usage row appears only when the write itself moved
					// the accounting the row counts leave alone.
					assert.Equal(t, readUsageRows(t, ch.Before), readUsageRows(t, ch.After), "commit %d", c.Seq)
				}
			}
		}
	}

	tables, err := Export(st.Read())
	require.NoError(t, err)
	db, err := Import(tables)
	require.NoError(t, err)
	imported := NewStore(db, st.now)
	assert.Equal(t, u.Rows, WorldUsage(imported.Read()).Rows, "import rebuilds the rows")
	assert.Equal(t, u.Attempts, WorldUsage(imported.Read()).Attempts, "import rebuilds the attempts")
}

// readUsageRows answers the row counts of a usage row of a change (nil
// for none).
func readUsageRows(t *testing.T, row any) map[string]int64 {
	t.Helper()
	if row == nil {
		return nil
	}
	return row.(*Usage).Rows
}

// TestJobRowsCountByTheirWholeKey: jobs are keyed by (due, seq) in binary,
// so two jobs whose keys differ only in their last byte are two rows to the
// counters, and replacing or deleting one of them moves the count once.
func TestJobRowsCountByTheirWholeKey(t *testing.T) {
	st := newTestStore(t)
	job := func(seq uint64) *model.Job { return &model.Job{Due: 5, Seq: seq, Kind: "test"} }
	require.NoError(t, st.Update(func(tx *Txn) error {
		for _, seq := range []uint64{256, 257, 258} {
			if err := Put(tx, TableJobs, job(seq)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableJobs, job(257)); err != nil { // a replacement
			return err
		}
		return tx.Delete(TableJobs, job(258))
	}))
	got := WorldUsage(st.Read())
	want, err := RecountUsage(st.Read())
	require.NoError(t, err)
	assert.Equal(t, int64(2), want.Rows[TableJobs])
	assert.Equal(t, want.Rows, got.Rows)
}
