package state

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"weak"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadSeesEveryFinishedCommit checks the shared read snapshot: a Read
// that starts after an Update returned sees that Update's rows, however
// many writers commit at the same time, and a Read never goes back to an
// older database than one an earlier Read of the same goroutine saw.
func TestReadSeesEveryFinishedCommit(t *testing.T) {
	st := newTestStore(t)
	const writers, each = 8, 40
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			seen := uint64(0)
			for i := 0; i < each; i++ {
				id := fmt.Sprintf("report_w%d_%d", w, i)
				require.NoError(t, st.Update(func(tx *Txn) error {
					return Put(tx, TableReports, &model.Report{ID: id, Seq: tx.Seq()})
				}))
				tx := st.Read()
				_, err := Get[model.Report](tx, TableReports, id)
				assert.NoError(t, err, "a Read after the Update that stored %s", id)
				m, err := Get[Meta](tx, tableMeta, metaRowID)
				require.NoError(t, err)
				assert.GreaterOrEqual(t, m.Counter, seen, "a later Read saw an older database")
				seen = m.Counter
			}
		}(w)
	}
	wg.Wait()
	reports, err := All[model.Report](st.Read(), TableReports, IndexID)
	require.NoError(t, err)
	assert.Len(t, reports, writers*each)
}

// TestReadAfterReplaceSeesTheNewDatabase: reset and import swap the whole
// database, and the next Read reads the new one.
func TestReadAfterReplaceSeesTheNewDatabase(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		return Put(tx, TableReports, &model.Report{ID: "report_old"})
	}))
	db, err := NewDB()
	require.NoError(t, err)
	st.Replace(db)
	_, err = Get[model.Report](st.Read(), TableReports, "report_old")
	assert.ErrorIs(t, err, ErrNotFound)
}

// TestConfigFollowsEveryCommit: the configuration a store keeps between
// commits is the one of the last commit, after a write and after Replace.
func TestConfigFollowsEveryCommit(t *testing.T) {
	st := newTestStore(t)
	assert.Equal(t, DefaultConfig(), st.Config(), "a world without a config row has the defaults")
	for _, limit := range []int{7, 9} {
		c := DefaultConfig()
		c.RateLimit.Limit = limit
		require.NoError(t, st.Update(func(tx *Txn) error { return PutConfig(tx, c) }))
		assert.Equal(t, limit, st.Config().RateLimit.Limit)
		assert.Equal(t, GetConfig(st.Read()), st.Config())
	}
	db, err := NewDB()
	require.NoError(t, err)
	st.Replace(db)
	assert.Equal(t, DefaultConfig(), st.Config())
}

// TestConfigCacheKeepsNoOldSnapshot checks that the configuration read from
// one snapshot does not keep that version of the database alive once a
// later commit replaced it: a clock advance that ran thousands of jobs
// would otherwise leave the queue it emptied in memory until the next
// request read the configuration.
func TestConfigCacheKeepsNoOldSnapshot(t *testing.T) {
	st := newTestStore(t)
	st.Config()
	old := weak.Make(st.snap.Load().txn)
	require.NoError(t, st.Update(func(tx *Txn) error {
		return Put(tx, TableReports, &model.Report{ID: "report_after", Seq: tx.Seq()})
	}))
	for i := 0; i < 5 && old.Value() != nil; i++ {
		runtime.GC()
	}
	assert.Nil(t, old.Value(), "the snapshot the configuration was read from outlived its commit")
	runtime.KeepAlive(st)
}

// TestScenarioRulesFollowEveryCommit: the rules a call is checked against
// are those of the last commit, whether a write added or removed them or a
// reset replaced the database, although they are read once per commit.
func TestScenarioRulesFollowEveryCommit(t *testing.T) {
	st := newTestStore(t)
	assert.Empty(t, st.ScenarioRules())
	rule := func(i int) *model.ScenarioRule {
		return &model.ScenarioRule{ID: fmt.Sprintf("s#%d", i), Scenario: "s", Index: i, Seq: uint64(10 + i), Effect: "respond"}
	}
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableScenarioRules, rule(1)) }))
	assert.Len(t, st.ScenarioRules(), 1)
	assert.Len(t, st.ScenarioRules(), 1, "a second read answers the same")
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableScenarioRules, rule(2)) }))
	rows := st.ScenarioRules()
	require.Len(t, rows, 2)
	assert.Equal(t, "s#1", rows[0].ID, "in the order they were written")
	require.NoError(t, st.Update(func(tx *Txn) error { return tx.Delete(TableScenarioRules, rule(1)) }))
	assert.Len(t, st.ScenarioRules(), 1)
	db, err := NewDB()
	require.NoError(t, err)
	st.Replace(db)
	assert.Empty(t, st.ScenarioRules())
}
