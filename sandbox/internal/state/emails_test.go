package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLastEmailAbout pins the lookup of a signer's e-mails: the newest
// matching e-mail about one signature of a request, others' e-mails,
// another request's and e-mails about no signature never seen, and a
// bounce (an update in place) kept in order.
func TestLastEmailAbout(t *testing.T) {
	st := newTestStore(t)
	const a, b = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	rows := []Email{
		{ID: "1", Seq: 1, Kind: "signature_request", SignatureID: a, SignatureRequestID: "r"},
		{ID: "2", Seq: 2, Kind: "signature_request", SignatureID: b, SignatureRequestID: "r"},
		{ID: "3", Seq: 3, Kind: "team_invite"},
		{ID: "4", Seq: 4, Kind: "reminder", SignatureID: a, SignatureRequestID: "r"},
		{ID: "5", Seq: 5, Kind: "signature_request", SignatureID: a + "x", SignatureRequestID: "r"},
		{ID: "6", Seq: 6, Kind: "reminder", SignatureID: a, SignatureRequestID: "other"},
	}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i := range rows {
			if err := Put(tx, TableEmails, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	}))
	anyEmail := func(*Email) bool { return true }
	kind := func(k string) func(*Email) bool { return func(e *Email) bool { return e.Kind == k } }
	tx := st.Read()

	e, err := LastEmailAbout(tx, "r", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "4", e.ID, "the newest e-mail about the signature")
	e, err = LastEmailAbout(tx, "r", a, kind("signature_request"))
	require.NoError(t, err)
	require.Equal(t, "1", e.ID, "the newest of the kind asked for")
	e, err = LastEmailAbout(tx, "r", b, kind("reminder"))
	require.NoError(t, err)
	require.Nil(t, e)
	e, err = LastEmailAbout(tx, "r", "", anyEmail)
	require.NoError(t, err)
	require.Nil(t, e, "e-mails about no signature are not looked for")
	e, err = LastEmailAbout(tx, "other", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "6", e.ID, "the signature's e-mail about the request asked for")

	require.NoError(t, st.Update(func(tx *Txn) error {
		c := rows[3]
		c.Bounced = true
		return Put(tx, TableEmails, &c)
	}))
	e, err = LastEmailAbout(st.Read(), "r", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "4", e.ID)
	require.True(t, e.Bounced)
}
