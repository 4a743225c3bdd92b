package state

import (
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitLog collects what a commit observer sees.
type commitLog struct {
	mu      sync.Mutex
	commits []Commit
}

func (l *commitLog) observe(c Commit) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.commits = append(l.commits, c)
}

// TestCommitObserverSeesEveryCommit: inserts, updates and deletes reach the
// observer with their rows before and after, numbered in order; a write
// that fails or changes nothing is no commit.
func TestCommitObserverSeesEveryCommit(t *testing.T) {
	st := newTestStore(t)
	var log commitLog
	st.SetCommitObserver(log.observe)

	put := func(team *model.Team) func(tx *Txn) error {
		return func(tx *Txn) error { return Put(tx, TableTeams, team) }
	}
	require.NoError(t, st.Update(put(&model.Team{ID: "t1", Name: "One"})))
	require.Error(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableTeams, &model.Team{ID: "t2"}); err != nil {
			return err
		}
		return errors.New("aborted")
	}))
	require.NoError(t, st.Update(func(*Txn) error { return nil }))
	require.NoError(t, st.Update(put(&model.Team{ID: "t1", Name: "Renamed"})))
	require.NoError(t, st.Update(func(tx *Txn) error { return tx.Delete(TableTeams, &model.Team{ID: "t1"}) }))

	require.Len(t, log.commits, 3, "the aborted and the empty write are not commits")
	for i, c := range log.commits {
		assert.Equal(t, uint64(i+1), c.Seq)
		assert.Equal(t, st.now(), c.At)
		assert.Nil(t, c.Snapshot)
		require.Len(t, c.Changes, 1)
		assert.Equal(t, TableTeams, c.Changes[0].Table)
	}
	assert.True(t, log.commits[0].Changes[0].Created())
	assert.Equal(t, "One", log.commits[0].Changes[0].After.(*model.Team).Name)
	assert.True(t, log.commits[1].Changes[0].Updated())
	assert.Equal(t, "One", log.commits[1].Changes[0].Before.(*model.Team).Name)
	assert.Equal(t, "Renamed", log.commits[1].Changes[0].After.(*model.Team).Name)
	assert.True(t, log.commits[2].Changes[0].Deleted())
}

// TestCommitObserverOrderIsCommitOrder: concurrent writers each bump one
// counter row; the observer sees the counter values 1, 2, 3, ... in that
// order, because it runs while the writer lock is held.
func TestCommitObserverOrderIsCommitOrder(t *testing.T) {
	st := newTestStore(t)
	var log commitLog
	st.SetCommitObserver(log.observe)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				assert.NoError(t, st.Update(func(tx *Txn) error {
					n := 0
					if cur, err := Get[model.Team](tx, TableTeams, "counter"); err == nil {
						n, _ = strconv.Atoi(cur.Name)
					}
					return Put(tx, TableTeams, &model.Team{ID: "counter", Name: strconv.Itoa(n + 1)})
				}))
			}
		})
	}
	wg.Wait()
	require.Len(t, log.commits, writers*each)
	for i, c := range log.commits {
		require.Equal(t, uint64(i+1), c.Seq)
		require.Equal(t, strconv.Itoa(i+1), c.Changes[0].After.(*model.Team).Name, "commit %d", i+1)
	}
}

// TestCommitObserverSeesReplaceAsSnapshot: reset and import replace the
// database; the observer gets the new database whole, numbered after the
// writes before it.
func TestCommitObserverSeesReplaceAsSnapshot(t *testing.T) {
	st := newTestStore(t)
	var log commitLog
	st.SetCommitObserver(log.observe)
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableTeams, &model.Team{ID: "old"}) }))

	other := newTestStore(t)
	require.NoError(t, other.Update(func(tx *Txn) error { return Put(tx, TableTeams, &model.Team{ID: "new"}) }))
	st.Replace(other.db.Load())

	require.Len(t, log.commits, 2)
	snap := log.commits[1]
	assert.Equal(t, uint64(2), snap.Seq)
	assert.Nil(t, snap.Changes)
	require.NotNil(t, snap.Snapshot)
	_, err := Get[model.Team](snap.Snapshot, TableTeams, "new")
	assert.NoError(t, err)
	_, err = Get[model.Team](snap.Snapshot, TableTeams, "old")
	assert.ErrorIs(t, err, ErrNotFound)

	st.SetCommitObserver(nil)
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableTeams, &model.Team{ID: "unseen"}) }))
	assert.Len(t, log.commits, 2, "a removed observer sees nothing")
}

// TestCommitCheckRefusesTheWrite: a failing commit check aborts an
// observed write, so a journal that could not record a change never lets
// it be acknowledged.
func TestCommitCheckRefusesTheWrite(t *testing.T) {
	db, err := NewDB()
	require.NoError(t, err)
	st := NewStore(db, func() time.Time { return time.Unix(0, 0) })
	require.NoError(t, st.Update(func(tx *Txn) error { return InitMeta(tx, "s") }))
	var seen int
	st.SetCommitObserver(func(Commit) { seen++ })
	broken := errors.New("disk full")
	fail := false
	st.SetCommitCheck(func() error {
		if fail {
			return broken
		}
		return nil
	})
	require.NoError(t, st.Update(func(tx *Txn) error { _ = tx.NewID(); return nil }))
	fail = true
	err = st.Update(func(tx *Txn) error { _ = tx.NewID(); return nil })
	require.ErrorIs(t, err, broken)
	assert.Equal(t, 2, seen)
	m, err := Get[Meta](st.Read(), tableMeta, metaRowID)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), m.Counter, "the refused write left nothing")
}
