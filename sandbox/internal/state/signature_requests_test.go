package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

func newTestStore(t *testing.T) *Store {
	t.Helper()
	db, err := NewDB()
	require.NoError(t, err)
	st := NewStore(db, func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) })
	require.NoError(t, st.Update(func(tx *Txn) error { return InitMeta(tx, "test") }))
	return st
}

func accessList(t *testing.T, tx *Txn, account string) []string {
	t.Helper()
	n, err := AccessCount(tx, account)
	require.NoError(t, err)
	var out []string
	for o := uint64(1); o <= n; o++ {
		a, err := AccessAt(tx, account, o)
		require.NoError(t, err)
		out = append(out, a.RequestID)
	}
	return out
}

func TestAccessOrdinalsStayDense(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i, id := range []string{"a", "b", "d"} {
			if err := AddAccess(tx, "acct", id, uint64(10*(i+1))); err != nil {
				return err
			}
		}
		// An older request added late goes to its place by creation order.
		if err := AddAccess(tx, "acct", "c", 25); err != nil {
			return err
		}
		// Adding twice is a no-op.
		return AddAccess(tx, "acct", "a", 10)
	}))
	require.Equal(t, []string{"a", "b", "c", "d"}, accessList(t, st.Read(), "acct"))

	require.NoError(t, st.Update(func(tx *Txn) error { return RemoveAccess(tx, "acct", "b") }))
	require.Equal(t, []string{"a", "c", "d"}, accessList(t, st.Read(), "acct"))
	n, err := AccessCount(st.Read(), "other")
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestSignatureIndexAndRoundTrip(t *testing.T) {
	st := newTestStore(t)
	exp := int64(99)
	req := &model.SignatureRequest{
		ID: "r1", Seq: 1, Phase: model.PhaseSent, ExpiresAt: &exp,
		Metadata:   map[string]any{"n": json.Number("12345678901234567890")},
		Signatures: []model.Signature{{ID: "s1", Status: model.SigAwaiting}, {ID: "s2", Status: model.SigSigned}},
		ResponseData: []model.ResponseValue{
			{APIID: "f", Type: "checkbox", Value: true},
			{APIID: "g", Type: "text", Value: "x"},
		},
	}
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, req) }))
	got, err := SignatureRequestBySignature(st.Read(), "s2")
	require.NoError(t, err)
	require.Equal(t, "r1", got.ID)
	_, err = SignatureRequestBySignature(st.Read(), "nope")
	require.ErrorIs(t, err, ErrNotFound)

	tables, err := Export(st.Read())
	require.NoError(t, err)
	db, err := Import(tables)
	require.NoError(t, err)
	st2 := NewStore(db, time.Now)
	back, err := Get[model.SignatureRequest](st2.Read(), TableSignatureRequests, "r1")
	require.NoError(t, err)
	require.Equal(t, req, back)

	// Copy is deep: changing the copy leaves the stored row alone.
	c := got.Copy()
	c.Signatures[0].Status = model.SigSigned
	c.Metadata["n"] = "changed"
	require.Equal(t, model.SigAwaiting, got.Signatures[0].Status)
	require.Equal(t, json.Number("12345678901234567890"), got.Metadata["n"])
}

func TestRebuildAccessMovesManyRowsAtOnce(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i, id := range []string{"a", "b", "c", "d"} {
			if err := AddAccess(tx, "from", id, uint64(10*(i+1))); err != nil {
				return err
			}
		}
		if err := AddAccess(tx, "to", "x", 25); err != nil {
			return err
		}
		return AddAccess(tx, "other", "z", 5)
	}))
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := RebuildAccess(tx, "from", map[string]bool{"b": true, "d": true}, nil); err != nil {
			return err
		}
		return RebuildAccess(tx, "to", nil, map[string]uint64{"d": 40, "b": 20, "x": 25})
	}))
	tx := st.Read()
	require.Equal(t, []string{"a", "c"}, accessList(t, tx, "from"))
	require.Equal(t, []string{"b", "x", "d"}, accessList(t, tx, "to"), "in creation order, ordinals dense, x once")
	require.Equal(t, []string{"z"}, accessList(t, tx, "other"), "other lists are not touched")
}
