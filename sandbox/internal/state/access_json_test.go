package state

import (
	"encoding/json"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAccessRowsExportTheirIDAsBefore: an access row no longer stores its
// id, yet exports write it (first, as when it was a field), export order
// is id order as before, and import reads such rows back, refusing an id
// that does not match the row's ids or a field it does not know.
func TestAccessRowsExportTheirIDAsBefore(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i, id := range []string{"rb", "ra", "rc"} {
			if err := AddAccess(tx, "acct", id, uint64(i+1)); err != nil {
				return err
			}
		}
		return nil
	}))
	tables, err := Export(st.Read())
	require.NoError(t, err)
	rows := tables[TableSignatureRequestAccess]
	require.Len(t, rows, 3)
	assert.JSONEq(t, `{"id":"acct/ra","account_id":"acct","signature_request_id":"ra","request_seq":2,"ordinal":2}`, string(rows[0]))
	assert.Equal(t, `{"id":"acct/rb","account_id":"acct","signature_request_id":"rb","request_seq":1,"ordinal":1}`, string(rows[1]),
		"the id comes first, as when it was a field")
	db, err := Import(tables)
	require.NoError(t, err)
	again, err := Export(&Txn{mem: db.Txn(false)})
	require.NoError(t, err)
	assert.Equal(t, tables[TableSignatureRequestAccess], again[TableSignatureRequestAccess])
	got, err := Get[model.SignatureRequestAccess](&Txn{mem: db.Txn(false)}, TableSignatureRequestAccess, model.AccessID("acct", "rc"))
	require.NoError(t, err)
	assert.Equal(t, model.SignatureRequestAccess{AccountID: "acct", RequestID: "rc", RequestSeq: 3, Ordinal: 3}, *got)

	for _, bad := range []string{
		`{"id":"acct/rx","account_id":"acct","signature_request_id":"ra","request_seq":2,"ordinal":2}`,
		`{"account_id":"acct","signature_request_id":"ra","request_seq":2,"ordinal":2}`,
		`{"id":"acct/ra","account_id":"acct","signature_request_id":"ra","request_seq":2,"ordinal":2,"extra":1}`,
	} {
		_, err := DecodeRow(TableSignatureRequestAccess, json.RawMessage(bad))
		assert.Error(t, err, bad)
	}
}
