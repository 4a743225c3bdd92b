package sigreq

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// listStore holds requests in the lists of three accounts whose rows are
// neighbours in the index, some requests in two or three lists, so that a
// walk down one account's rows must stop at its oldest. (Account ids have
// one length, as the world's ids do: the list index cannot tell an id from
// a longer one it prefixes.)
func listStore(t *testing.T) *state.Store {
	db, err := state.NewDB()
	require.NoError(t, err)
	st := state.NewStore(db, func() time.Time { return time.Unix(1_700_000_000, 0) })
	require.NoError(t, st.Update(func(tx *state.Txn) error {
		if err := state.InitMeta(tx, "list"); err != nil {
			return err
		}
		for i := range 57 {
			id := "r" + itoa(1000+i)
			req := &model.SignatureRequest{ID: id, Seq: uint64(i + 1), Phase: model.PhaseSent}
			if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
				return err
			}
			for k, acct := range []string{"a1", "a2", "a3"} {
				if (i+k)%(k+2) == 0 || acct == "a1" && i%3 != 0 {
					if err := state.AddAccess(tx, acct, id, req.Seq); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}))
	return st
}

// listReference is a page read one ordinal at a time, as lists were read
// before they walked the index.
func listReference(t *testing.T, tx *state.Txn, accountID string, page, size int) (int, []string) {
	n, err := state.AccessCount(tx, accountID)
	require.NoError(t, err)
	var ids []string
	for k := (page - 1) * size; k < page*size && k < int(n); k++ {
		a, err := state.AccessAt(tx, accountID, n-uint64(k))
		require.NoError(t, err)
		ids = append(ids, a.RequestID)
	}
	return int(n), ids
}

func rowIDs(rows []*model.SignatureRequest) []string {
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestListPageWalksOneAccount: every page of every account (past the end
// and of an account without requests included) has the rows and total of
// the one-ordinal-at-a-time reading.
func TestListPageWalksOneAccount(t *testing.T) {
	tx := listStore(t).Read()
	for _, acct := range []string{"a1", "a2", "a3", "a0", "a4"} {
		for _, size := range []int{1, 7, 20, 100} {
			for page := 1; page <= 60/size+2; page++ {
				wantTotal, wantIDs := listReference(t, tx, acct, page, size)
				total, rows, err := ListPage(tx, acct, page, size)
				require.NoError(t, err)
				require.Equal(t, wantTotal, total, "%s page %d size %d", acct, page, size)
				require.Equal(t, wantIDs, rowIDs(rows), "%s page %d size %d", acct, page, size)
			}
		}
	}
}

// TestListScanMergesAccounts: a scan of several accounts lists every
// request once, newest first, whatever the page.
func TestListScanMergesAccounts(t *testing.T) {
	tx := listStore(t).Read()
	accounts := []string{"a1", "a2", "a3"}
	var merged []string
	seen := map[string]bool{}
	for i := 56; i >= 0; i-- {
		id := "r" + itoa(1000+i)
		for _, acct := range accounts {
			if _, err := state.Get[model.SignatureRequestAccess](tx, state.TableSignatureRequestAccess, model.AccessID(acct, id)); err == nil && !seen[id] {
				seen[id] = true
				merged = append(merged, id)
			}
		}
	}
	for _, size := range []int{5, 20} {
		for page := 1; page <= len(merged)/size+2; page++ {
			total, rows, err := ListScan(tx, accounts, nil, nil, page, size)
			require.NoError(t, err)
			require.Equal(t, len(merged), total)
			var want []string
			for k := (page - 1) * size; k < page*size && k < len(merged); k++ {
				want = append(want, merged[k])
			}
			require.Equal(t, want, rowIDs(rows), "page %d size %d", page, size)
		}
	}
}
