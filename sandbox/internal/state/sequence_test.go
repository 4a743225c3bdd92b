package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSequenceIsWrittenOncePerWrite: a write that takes several numbers
// of the world's sequence gets the same numbers as writes taking them one
// at a time, and commits the meta row once, with the final counter.
func TestSequenceIsWrittenOncePerWrite(t *testing.T) {
	one, many := newTestStore(t), newTestStore(t)
	var want []string
	for i := 0; i < 3; i++ {
		require.NoError(t, one.Update(func(tx *Txn) error {
			want = append(want, tx.NewID())
			return nil
		}))
	}
	var log commitLog
	many.SetCommitObserver(log.observe)
	var got []string
	require.NoError(t, many.Update(func(tx *Txn) error {
		for i := 0; i < 3; i++ {
			got = append(got, tx.NewID())
		}
		return nil
	}))
	assert.Equal(t, want, got)
	require.Len(t, log.commits, 1)
	require.Len(t, log.commits[0].Changes, 1)
	assert.Equal(t, tableMeta, log.commits[0].Changes[0].Table)
	for _, st := range []*Store{one, many} {
		m, err := Get[Meta](st.Read(), tableMeta, metaRowID)
		require.NoError(t, err)
		assert.Equal(t, uint64(3), m.Counter)
	}
	// A write that fails takes no numbers.
	require.Error(t, many.Update(func(tx *Txn) error {
		tx.NewID()
		return ErrNotFound
	}))
	m, err := Get[Meta](many.Read(), tableMeta, metaRowID)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), m.Counter)
}
