package sigreq

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// TestNewRequestsShareRepeatedStrings: a new request's addresses and
// client id keep their values but point at the requester's newest
// request's copies, and its BaseURL at the start of its WorldURL.
func TestNewRequestsShareRepeatedStrings(t *testing.T) {
	db, err := state.NewDB()
	require.NoError(t, err)
	st := state.NewStore(db, func() time.Time { return time.Unix(1700000000, 0) })
	require.NoError(t, st.Update(func(tx *state.Txn) error { return state.InitMeta(tx, "share") }))
	fresh := func(s string) string { return strings.Clone(s) }
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	prev := &model.SignatureRequest{ID: "prev", Seq: 1, RequesterAccountID: "acct", BaseURL: "http://h", WorldURL: "http://h/_sandbox/w/default", ClientID: "client"}
	require.NoError(t, st.Update(func(tx *state.Txn) error {
		if err := state.Put(tx, state.TableSignatureRequests, prev); err != nil {
			return err
		}
		return state.AddAccess(tx, "acct", prev.ID, prev.Seq)
	}))
	require.NoError(t, st.Update(func(tx *state.Txn) error {
		req := &model.SignatureRequest{ID: "next", Seq: 2, RequesterAccountID: "acct",
			BaseURL: fresh(prev.BaseURL), WorldURL: fresh(prev.WorldURL), ClientID: fresh(prev.ClientID)}
		shareRepeatedStrings(tx, req)
		assert.Equal(t, [3]string{prev.BaseURL, prev.WorldURL, prev.ClientID}, [3]string{req.BaseURL, req.WorldURL, req.ClientID})
		assert.True(t, same(req.WorldURL, prev.WorldURL))
		assert.True(t, same(req.ClientID, prev.ClientID))
		assert.True(t, same(req.BaseURL, req.WorldURL[:len(req.BaseURL)]), "BaseURL is the start of WorldURL")

		other := &model.SignatureRequest{ID: "other", RequesterAccountID: "acct", BaseURL: "http://x", WorldURL: "http://x/_sandbox/w/default", ClientID: "c2"}
		shareRepeatedStrings(tx, other)
		assert.Equal(t, [3]string{"http://x", "http://x/_sandbox/w/default", "c2"}, [3]string{other.BaseURL, other.WorldURL, other.ClientID},
			"different values stay as they are")
		return nil
	}))
}
