package state

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

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

// TestSequenceNamesAreTheDocumentedHashes: IDs, secrets and UUIDs are the
// hashes of "seed/kind/n" they always were (exports, recordings and
// golden answers depend on it), for a seed too long for the stack buffer
// as for a short one, and each costs only its string.
func TestSequenceNamesAreTheDocumentedHashes(t *testing.T) {
	for _, seed := range []string{"test", strings.Repeat("long seed ", 30)} {
		db, err := NewDB()
		require.NoError(t, err)
		st := NewStore(db, func() time.Time { return time.Unix(0, 0) })
		require.NoError(t, st.Update(func(tx *Txn) error { return InitMeta(tx, seed) }))
		require.NoError(t, st.Update(func(tx *Txn) error {
			id := sha1.Sum([]byte(seed + "/id/1"))
			assert.Equal(t, hex.EncodeToString(id[:]), tx.NewID())
			secret := sha256.Sum256([]byte(seed + "/secret/2"))
			assert.Equal(t, hex.EncodeToString(secret[:]), tx.NewSecret())
			assert.Equal(t, uuid.NewSHA1(uuidSpace, []byte(seed+"/uuid/3")).String(), tx.NewUUID())
			return nil
		}))
	}
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		tx.NewID() // the meta row is read once per write
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { tx.NewID() }), "NewID")
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { tx.NewSecret() }), "NewSecret")
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { tx.NewUUID() }), "NewUUID")
		return nil
	}))
}
