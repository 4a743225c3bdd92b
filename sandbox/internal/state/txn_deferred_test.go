package state

import (
	"bytes"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fillLogs records n events and n e-mails, each with a file, in one write
// (batch) or in one write each, under a log limit of 3 so that trims run.
func fillLogs(t *testing.T, st *Store, n int, batch bool) {
	t.Helper()
	withLogLimit(t, st, 3)
	one := func(tx *Txn, i int) error {
		e := &model.Event{ID: tx.NewUUID(), Seq: tx.Seq(), Type: "signature_request_sent", ObjectID: "a"}
		if err := AddEvent(tx, e); err != nil {
			return err
		}
		if i%2 == 0 {
			if err := Put(tx, TableDeliveries, &model.Delivery{ID: tx.NewUUID(), Seq: tx.Seq(), EventID: e.ID, EventSeq: e.Seq,
				Queue: "q", State: model.DeliveryDelivered, URL: "http://127.0.0.1/cb"}); err != nil {
				return err
			}
		}
		if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), Kind: "signature_request", To: "a@example.com"}); err != nil {
			return err
		}
		_, err := PutBlob(tx, bytes.Repeat([]byte{byte('a' + i%3)}, 10+i))
		return err
	}
	if batch {
		require.NoError(t, st.Update(func(tx *Txn) error {
			for i := 0; i < n; i++ {
				if err := one(tx, i); err != nil {
					return err
				}
			}
			return nil
		}))
		return
	}
	for i := 0; i < n; i++ {
		require.NoError(t, st.Update(func(tx *Txn) error { return one(tx, i) }))
	}
}

// TestUsageOfOneWriteIsUsageOfManyWrites: a write keeps the usage row in
// the transaction and stores it once before the commit; the counters it
// leaves (and the rows) are those of the same changes made one write at a
// time, and they match a recount.
func TestUsageOfOneWriteIsUsageOfManyWrites(t *testing.T) {
	one, many := seededStore(t), seededStore(t)
	fillLogs(t, one, 12, true)
	fillLogs(t, many, 12, false)
	assert.Equal(t, requireUsageTrue(t, many), requireUsageTrue(t, one))
	for _, table := range []string{TableEvents, TableEmails, TableDeliveries, TableBlobs} {
		a, err := Rows(one.Read(), table)
		require.NoError(t, err)
		b, err := Rows(many.Read(), table)
		require.NoError(t, err)
		assert.Equal(t, len(b), len(a), table)
	}
}

// TestUsageInsideAWriteSeesItsOwnChanges: the counters a write reads are
// the ones it has changed so far, and an aborted write leaves the stored
// ones as they were.
func TestUsageInsideAWriteSeesItsOwnChanges(t *testing.T) {
	st := seededStore(t)
	before := WorldUsage(st.Read())
	require.NoError(t, st.Update(func(tx *Txn) error {
		if _, err := PutBlob(tx, []byte("twelve bytes")); err != nil {
			return err
		}
		assert.Equal(t, before.BlobBytes+12, WorldUsage(tx).BlobBytes)
		return nil
	}))
	assert.Equal(t, before.BlobBytes+12, WorldUsage(st.Read()).BlobBytes)
	err := st.Update(func(tx *Txn) error {
		if _, err := PutBlob(tx, []byte("more bytes")); err != nil {
			return err
		}
		return assert.AnError
	})
	require.ErrorIs(t, err, assert.AnError)
	assert.Equal(t, before.BlobBytes+12, WorldUsage(st.Read()).BlobBytes)
	requireUsageTrue(t, st)
}

// TestConfigInsideAWriteFollowsItsOwnChange: a write that changes the
// configuration reads the new one at once.
func TestConfigInsideAWriteFollowsItsOwnChange(t *testing.T) {
	st := seededStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		c := GetConfig(tx)
		assert.Equal(t, DefaultConfig().LogEntries, c.LogEntries)
		c.LogEntries = 5
		if err := PutConfig(tx, c); err != nil {
			return err
		}
		assert.Equal(t, 5, GetConfig(tx).LogEntries)
		return nil
	}))
	assert.Equal(t, 5, GetConfig(st.Read()).LogEntries)
}
