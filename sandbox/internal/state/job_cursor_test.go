package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJobCursorShowsTheQueueAsItIs: within one transaction the cursor
// shows what NextJob would, while jobs are taken, cancelled (it shows a
// cancelled job until taking it finds it gone) and scheduled ahead of
// what it read.
func TestJobCursorShowsTheQueueAsItIs(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for _, s := range []string{"a", "b", "c", "d"} {
			if _, err := Schedule(tx, "k", s, time.Minute, nil); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, st.Update(func(tx *Txn) error {
		c := NewJobCursor(tx)
		a := c.Peek()
		require.Equal(t, "a", a.Subject)
		assert.Same(t, a, c.Peek(), "peeking twice shows the same job")
		taken, err := c.Take(a)
		require.NoError(t, err)
		assert.True(t, taken)

		require.NoError(t, CancelJobs(tx, "b"))
		b := c.Peek()
		require.Equal(t, "b", b.Subject, "the cursor has not read the queue again")
		assert.False(t, c.Queued(b))
		taken, err = c.Take(b)
		require.NoError(t, err)
		assert.False(t, taken, "a cancelled job is not taken")

		require.NoError(t, CancelJobs(tx, "c"))
		cj := c.Peek()
		require.Equal(t, "c", cj.Subject)
		assert.False(t, c.Queued(cj))
		c.Skip()

		early, err := Schedule(tx, "k", "e", time.Second, nil)
		require.NoError(t, err)
		assert.Equal(t, early.Seq, c.Peek().Seq, "a job scheduled ahead shows first")
		assert.Equal(t, NextJob(tx).Seq, c.Peek().Seq)
		taken, err = c.Take(early)
		require.NoError(t, err)
		assert.True(t, taken)
		d := c.Peek()
		require.Equal(t, "d", d.Subject)
		assert.True(t, c.Queued(d))
		taken, err = c.Take(d)
		require.NoError(t, err)
		assert.True(t, taken)
		assert.Nil(t, c.Peek())
		assert.Nil(t, NextJob(tx))
		return nil
	}))
}
