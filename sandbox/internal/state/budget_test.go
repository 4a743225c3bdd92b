package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBudgetBoundsStoresTogether: two stores share a budget of distinct
// file bytes; a write that would go over it is refused whole with
// ErrBudget and changes nothing; freed bytes make room again; reset,
// import and release keep the count true.
func TestBudgetBoundsStoresTogether(t *testing.T) {
	a, b := seededStore(t), seededStore(t)
	putBlobs(t, a, []byte("before the budget"))
	budget := NewBudget(10_000)
	a.SetBudget(budget)
	b.SetBudget(budget)
	assert.EqualValues(t, 17, budget.Used(), "what a store holds is counted when it joins")

	six := bytes.Repeat([]byte{1}, 6000)
	ids := putBlobs(t, a, six, bytes.Clone(six))
	assert.EqualValues(t, 6017, budget.Used(), "identical files count once")

	before := requireUsageTrue(t, b)
	err := b.Update(func(tx *Txn) error {
		_, err := PutBlob(tx, bytes.Repeat([]byte{2}, 6000))
		return err
	})
	var be *BudgetError
	require.True(t, errors.As(err, &be), "got %v", err)
	assert.Equal(t, BudgetError{Limit: 10_000, Used: 6017, Adding: 6000}, *be)
	assert.Contains(t, err.Error(), "over its limit of 10000 bytes")
	assert.Equal(t, before, requireUsageTrue(t, b), "the refused write stored nothing")
	assert.EqualValues(t, 6017, budget.Used())
	assert.False(t, budget.Fits(6000))

	require.NoError(t, a.Update(func(tx *Txn) error {
		for _, id := range ids {
			if err := DeleteBlob(tx, id); err != nil {
				return err
			}
		}
		return nil
	}))
	assert.EqualValues(t, 17, budget.Used(), "the last reference freed the bytes")
	assert.True(t, budget.Fits(6000))
	putBlobs(t, b, bytes.Repeat([]byte{2}, 6000))
	assert.EqualValues(t, 6017, budget.Used())

	// Import into a replaces its files: the budget follows.
	var tables Tables
	require.NoError(t, json.Unmarshal(exportJSON(t, b), &tables))
	db, err := Import(tables)
	require.NoError(t, err)
	a.Replace(db)
	assert.EqualValues(t, 12000, budget.Used(), "a now holds b's 6,000 bytes instead of its 17")

	a.Release()
	assert.EqualValues(t, 6000, budget.Used(), "a released world's bytes leave the budget")
	putBlobs(t, a, bytes.Repeat([]byte{3}, 9000))
	assert.EqualValues(t, 6000, budget.Used(), "a released store is counted in no budget")
}
