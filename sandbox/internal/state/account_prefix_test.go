package state

import (
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAccountListsStopAtTheAccountID: fixtures may name accounts freely,
// and one id can begin another ("acct1", "acct10"). Every per-account
// list reads only its own account's rows, and the request list's ordinals
// stay each account's own.
func TestAccountListsStopAtTheAccountID(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i, acct := range []string{"acct1", "acct10", "acct10", "acct100"} {
			seq := uint64(10 + i)
			req := "req" + string(rune('a'+i))
			if err := AddAccess(tx, acct, req, seq); err != nil {
				return err
			}
			if err := Put(tx, TableAPIKeys, &model.APIKey{Key: "key" + req, AccountID: acct, Seq: seq}); err != nil {
				return err
			}
			if err := Put(tx, TableFaxes, &model.Fax{ID: "fax" + req, AccountID: acct, Seq: seq}); err != nil {
				return err
			}
			if err := Put(tx, TableAPIApps, &model.APIApp{ClientID: "app" + req, OwnerAccountID: acct, Seq: seq}); err != nil {
				return err
			}
			if err := Put(tx, TableTemplateAccess, &model.TemplateAccess{ID: "tpl" + req + "/" + acct, TemplateID: "tpl" + req, AccountID: acct, Seq: seq}); err != nil {
				return err
			}
		}
		return nil
	}))
	tx := st.Read()
	n, err := AccessCount(tx, "acct1")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), n, "acct1's list holds one request")
	n, err = AccessCount(tx, "acct10")
	require.NoError(t, err)
	assert.Equal(t, uint64(2), n)

	keys, err := APIKeysOf(tx, "acct1")
	require.NoError(t, err)
	assert.Len(t, keys, 1)
	faxes, err := FaxesOf(tx, "acct1")
	require.NoError(t, err)
	assert.Len(t, faxes, 1)
	apps, err := AppsOf(tx, "acct1")
	require.NoError(t, err)
	assert.Len(t, apps, 1)
	rows, err := All[model.TemplateAccess](tx, TableTemplateAccess, IndexAccount+"_prefix", OnlyID("acct10"))
	require.NoError(t, err)
	assert.Len(t, rows, 2)
}
