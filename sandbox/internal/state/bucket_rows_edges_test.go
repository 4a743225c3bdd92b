package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBucketedLookupsWithoutAnIDStartAtTheFirstRow: First and LowerBound
// by id with no id answer from the first row in id order, as memdb does
// for its own tables.
func TestBucketedLookupsWithoutAnIDStartAtTheFirstRow(t *testing.T) {
	meta := json.RawMessage(`{"id":"meta","seed":"s","counter":0}`)
	req := func(id string, seq int) json.RawMessage {
		return json.RawMessage(`{"signature_request_id":"` + id + `","seq":` + string(rune('0'+seq)) + `,"generation":0,"requester_account_id":"a","requester_email_address":"a@x","embedded":false,"test_mode":true,"base_url":"","world_url":"","title":"","original_title":"","created_at":0,"allow_decline":false,"allow_reassign":false,"append_signature_page":false,"ordered":false,"documents":null,"signatures":null,"phase":"sent"}`)
	}
	db, err := Import(Tables{tableMeta: {meta}, TableSignatureRequests: {req("r2", 2), req("r1", 1), req("r3", 3)}})
	require.NoError(t, err)
	st := NewStore(db, func() time.Time { return exportTestNow })
	check := func(tx *Txn) {
		raw, err := tx.First(TableSignatureRequests, IndexID)
		require.NoError(t, err)
		require.NotNil(t, raw)
		assert.Equal(t, "r1", raw.(*model.SignatureRequest).ID)
		it, err := tx.LowerBound(TableSignatureRequests, IndexID)
		require.NoError(t, err)
		var ids []string
		for raw := it.Next(); raw != nil; raw = it.Next() {
			ids = append(ids, raw.(*model.SignatureRequest).ID)
		}
		assert.Equal(t, []string{"r1", "r2", "r3"}, ids)
	}
	check(st.Read())
	require.NoError(t, st.Update(func(tx *Txn) error {
		check(tx)
		return nil
	}))
}

// TestRecountUsageRefusesAWrite: a write's own bucket copies are not in
// the database RecountUsage reads, so it says so rather than count what
// the write has changed as if it had not.
func TestRecountUsageRefusesAWrite(t *testing.T) {
	st := seededStore(t)
	_, err := RecountUsage(st.Read())
	require.NoError(t, err)
	require.NoError(t, st.Update(func(tx *Txn) error {
		_, err := RecountUsage(tx)
		assert.ErrorContains(t, err, "not a write")
		return nil
	}))
}
