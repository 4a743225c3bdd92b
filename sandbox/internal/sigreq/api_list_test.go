package sigreq

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
				total, rows, err := listPage(tx, acct, page, size)
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
			total, rows, err := listScan(tx, accounts, nil, nil, page, size)
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

// BenchmarkListPage measures one page of an account's list at several
// world sizes: the cost does not grow with the number of requests.
func BenchmarkListPage(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(itoa(n), func(b *testing.B) {
			st := sigreqBenchStore(b, n)
			tx := st.Read()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				total, rows, err := listPage(tx, "acct", 1+i%5, 20)
				if err != nil || total != n || len(rows) != 20 {
					b.Fatalf("listPage: %d %d %v", total, len(rows), err)
				}
			}
		})
	}
}

func sigreqBenchStore(b testing.TB, n int) *state.Store {
	db, err := state.NewDB()
	require.NoError(b, err)
	st := state.NewStore(db, func() time.Time { return time.Unix(1_700_000_000, 0) })
	require.NoError(b, st.Update(func(tx *state.Txn) error {
		if err := state.InitMeta(tx, "bench"); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			id := itoa(1_000_000 + i)
			req := &model.SignatureRequest{ID: id, Seq: uint64(i + 1), Phase: model.PhaseSent}
			if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
				return err
			}
			if err := state.AddAccess(tx, "acct", id, req.Seq); err != nil {
				return err
			}
		}
		return nil
	}))
	return st
}

// TestListPageCostIsFlat checks what BenchmarkListPage times, without
// timing: a page reads the requests of the page and no other, however many
// the account has. Every request outside page 3 is deleted from the store
// (their list rows stay), so reading any of them fails the call. The
// account_id=all walk without a query (listScan) counts the others the same
// way, from the list rows alone.
func TestListPageCostIsFlat(t *testing.T) {
	st := sigreqBenchStore(t, 2000)
	// Page 3 of 20, newest first: ordinals (and seqs) 1960 down to 1941.
	require.NoError(t, st.Update(func(tx *state.Txn) error {
		all, err := state.All[model.SignatureRequest](tx, state.TableSignatureRequests, state.IndexSeq)
		if err != nil {
			return err
		}
		for _, r := range all {
			if r.Seq < 1941 || r.Seq > 1960 {
				if err := tx.Delete(state.TableSignatureRequests, r); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	for _, tc := range []struct {
		name string
		list func(tx *state.Txn) (int, []*model.SignatureRequest, error)
	}{
		{"listPage", func(tx *state.Txn) (int, []*model.SignatureRequest, error) { return listPage(tx, "acct", 3, 20) }},
		{"listScan", func(tx *state.Txn) (int, []*model.SignatureRequest, error) {
			return listScan(tx, []string{"acct"}, nil, nil, 3, 20)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total, rows, err := tc.list(st.Read())
			require.NoError(t, err, "a request outside the page was read")
			assert.Equal(t, 2000, total)
			require.Len(t, rows, 20)
			assert.Equal(t, itoa(1_000_000+2000-41), rows[0].ID)
			assert.Equal(t, itoa(1_000_000+2000-60), rows[19].ID)
		})
	}
}
