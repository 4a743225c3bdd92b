package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

// referenceDB is a memdb database that keeps the bucketed tables as memdb
// tables of their own, as they were, beside the teams (a memdb table in
// both): what the buckets must be indistinguishable from.
func referenceDB(t *testing.T) *memdb.MemDB {
	t.Helper()
	s := &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{}}
	for _, n := range []string{TableSignatureRequests, TableSignatureRequestAccess, TableTeams} {
		s.Tables[n] = registry[n].Schema
	}
	db, err := memdb.NewMemDB(s)
	require.NoError(t, err)
	return db
}

// bucketSteps are random changes of requests, access rows and teams,
// each made in the store's write (tx) and in the reference (ref).
func bucketSteps(rng *rand.Rand) []func(tx *Txn, ref *memdb.Txn) (error, error) {
	reqID := func() string { return fmt.Sprintf("r%02d", rng.IntN(30)) }
	accounts := []string{"a1", "a10", "a2"} // a1 is the start of a10
	ordinal := uint64(0)
	both := func(table string, row any, del bool) func(tx *Txn, ref *memdb.Txn) (error, error) {
		return func(tx *Txn, ref *memdb.Txn) (error, error) {
			if del {
				return tx.Delete(table, row), ref.Delete(table, row)
			}
			return tx.Insert(table, row), ref.Insert(table, row)
		}
	}
	return []func(tx *Txn, ref *memdb.Txn) (error, error){
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			id := reqID()
			return both(TableSignatureRequests, &model.SignatureRequest{ID: id, Seq: rng.Uint64N(1 << 20), Title: id,
				Signatures: []model.Signature{{ID: "s" + id}}}, false)(tx, ref)
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			return both(TableSignatureRequests, &model.SignatureRequest{ID: reqID()}, true)(tx, ref)
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			ordinal++
			return both(TableSignatureRequestAccess, &model.SignatureRequestAccess{AccountID: accounts[rng.IntN(len(accounts))],
				RequestID: reqID(), Ordinal: ordinal}, false)(tx, ref)
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			return both(TableSignatureRequestAccess, &model.SignatureRequestAccess{AccountID: accounts[rng.IntN(len(accounts))],
				RequestID: reqID()}, true)(tx, ref)
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			return both(TableTeams, &model.Team{ID: fmt.Sprintf("t%d", rng.IntN(5)), Name: "n"}, rng.IntN(3) == 0)(tx, ref)
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			prefix := fmt.Sprintf("r%d", rng.IntN(3))
			_, err := tx.DeletePrefix(TableSignatureRequests, IndexID+"_prefix", prefix)
			_, rerr := ref.DeletePrefix(TableSignatureRequests, IndexID+"_prefix", prefix)
			return err, rerr
		},
		func(tx *Txn, ref *memdb.Txn) (error, error) {
			id := accounts[rng.IntN(len(accounts))] + "/" + reqID()
			_, err := tx.DeleteAll(TableSignatureRequestAccess, IndexID, id)
			_, rerr := ref.DeleteAll(TableSignatureRequestAccess, IndexID, id)
			return err, rerr
		},
	}
}

// requireSameRows checks every way of reading the bucketed tables in tx
// against memdb's reading of the reference.
func requireSameRows(t *testing.T, tx *Txn, ref *memdb.Txn, step string) {
	t.Helper()
	all := func(it memdb.ResultIterator, err error) []any {
		t.Helper()
		require.NoError(t, err, step)
		var out []any
		for raw := it.Next(); raw != nil; raw = it.Next() {
			out = append(out, raw)
		}
		return out
	}
	for _, table := range []string{TableSignatureRequests, TableSignatureRequestAccess} {
		want := all(ref.Get(table, IndexID))
		require.Equal(t, want, all(tx.Get(table, IndexID)), "%s: %s in id order", step, table)
		rows, err := Rows(tx, table)
		require.NoError(t, err)
		require.Equal(t, want, rows, "%s: Rows of %s", step, table)
		for _, from := range []string{"", "a1/", "a10", "r1", "r15", "zz"} {
			require.Equal(t, all(ref.LowerBound(table, IndexID, from)), all(tx.LowerBound(table, IndexID, from)),
				"%s: %s from %q", step, table, from)
			refIt, refErr := ref.Get(table, IndexID+"_prefix", from)
			it, err := tx.Get(table, IndexID+"_prefix", from)
			if require.Equal(t, refErr == nil, err == nil, "%s: %s by prefix %q: %v", step, table, from, err); err == nil {
				require.Equal(t, all(refIt, nil), all(it, nil), "%s: %s by prefix %q", step, table, from)
			}
		}
		for _, raw := range want {
			id, _ := bucketed(table).id(raw)
			got, err := tx.First(table, IndexID, id)
			require.NoError(t, err)
			require.Same(t, raw, got, "%s: %s %s", step, table, id)
		}
	}
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("r%02d", i)
		want, err := ref.First(TableSignatureRequests, IndexID, id)
		require.NoError(t, err)
		got, err := tx.First(TableSignatureRequests, IndexID, id)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s: request %s", step, id)
	}
}

// TestBucketedRowsMatchMemdb: requests and access rows kept in buckets
// read, count and report their changes to a commit observer exactly as
// memdb tables of their own did, within a write and after it, in writes
// whose rows are counted and in observed ones.
func TestBucketedRowsMatchMemdb(t *testing.T) {
	for _, observed := range []bool{false, true} {
		t.Run(fmt.Sprintf("observed=%v", observed), func(t *testing.T) {
			st := newTestStore(t)
			refDB := referenceDB(t)
			var seen memdb.Changes
			if observed {
				st.SetCommitObserver(func(c Commit) { seen = c.Changes })
			}
			rng := rand.New(rand.NewPCG(5, uint64(len(fmt.Sprint(observed)))))
			steps := bucketSteps(rng)
			for round := 0; round < 12; round++ {
				ref := refDB.Txn(true)
				ref.TrackChanges()
				seen = nil
				require.NoError(t, st.Update(func(tx *Txn) error {
					for i := 0; i < 40; i++ {
						err, rerr := steps[rng.IntN(len(steps))](tx, ref)
						step := fmt.Sprintf("round %d step %d", round, i)
						require.Equal(t, rerr == nil, err == nil, "%s: %v / memdb: %v", step, err, rerr)
						require.Equal(t, errors.Is(rerr, memdb.ErrNotFound), errors.Is(err, memdb.ErrNotFound), step)
						requireSameRows(t, tx, ref, step)
					}
					return nil
				}))
				want := ref.Changes()
				ref.Commit()
				requireSameRows(t, st.Read(), refDB.Txn(false), fmt.Sprintf("round %d committed", round))
				if observed {
					var got memdb.Changes
					for _, ch := range seen {
						if ch.Table == TableSignatureRequests || ch.Table == TableSignatureRequestAccess || ch.Table == TableTeams {
							got = append(got, ch)
						}
					}
					require.Equal(t, len(want), len(got), "round %d: changes", round)
					for i := range want {
						require.Equal(t, want[i].Table, got[i].Table, "round %d change %d", round, i)
						require.True(t, want[i].Before == got[i].Before && want[i].After == got[i].After,
							"round %d change %d of %s: %v -> %v, memdb %v -> %v", round, i, want[i].Table,
							got[i].Before, got[i].After, want[i].Before, want[i].After)
					}
				}
				usage := WorldUsage(st.Read())
				recount, err := RecountUsage(st.Read())
				require.NoError(t, err)
				require.Equal(t, recount.Rows, usage.Rows, "round %d: rows by table", round)
				marks, err := st.Read().mem.First(tableRowMarks, IndexID)
				require.NoError(t, err)
				require.Nil(t, marks, "round %d: no marks outlive their write", round)
			}
			requireCompactConsistent(t, st.Read())
		})
	}
}

// TestExportWrittenBeforeBucketsLoads: an export written before requests
// and access rows were kept in buckets (testdata, made by that version)
// imports, and exports again byte for byte; the rows are found by id and
// their compact indexes are built.
func TestExportWrittenBeforeBucketsLoads(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "export_before_buckets.json"))
	require.NoError(t, err)
	var tables Tables
	require.NoError(t, json.Unmarshal(raw, &tables))
	require.NotEmpty(t, tables[TableSignatureRequests])
	require.NotEmpty(t, tables[TableSignatureRequestAccess])
	db, err := Import(tables)
	require.NoError(t, err)
	tx := &Txn{mem: db.Txn(false)}
	again, err := Export(tx)
	require.NoError(t, err)
	b, err := json.Marshal(again)
	require.NoError(t, err)
	require.Equal(t, string(raw), string(b))
	requireCompactConsistent(t, tx)
	req, err := SignatureRequestBySignature(tx, "sig003")
	require.NoError(t, err)
	got, err := Get[model.SignatureRequest](tx, TableSignatureRequests, req.ID)
	require.NoError(t, err)
	require.Equal(t, req, got, "a frozen row thaws anew on each read outside a write")
	older, err := SignatureRequestBySignature(tx, "sig001")
	require.NoError(t, err)
	require.Equal(t, []string{older.ID, req.ID}, accessList(t, tx, "acct2"), "the list in creation order")
	withFiles, err := SignatureRequestBySignature(tx, "sig002")
	require.NoError(t, err)
	require.NotNil(t, withFiles.Files, "the file set is in its row")
	require.Equal(t, 2, withFiles.Files.Version)
}

// TestImportRefusesBucketedRowsSharingAnID: two requests or two access
// rows of one id are refused, as when they were memdb rows.
func TestImportRefusesBucketedRowsSharingAnID(t *testing.T) {
	meta := json.RawMessage(`{"id":"meta","seed":"s","counter":0}`)
	req := json.RawMessage(`{"signature_request_id":"r1","seq":1,"generation":0,"requester_account_id":"a","requester_email_address":"a@x","embedded":false,"test_mode":true,"base_url":"","world_url":"","title":"","original_title":"","created_at":0,"allow_decline":false,"allow_reassign":false,"append_signature_page":false,"ordered":false,"documents":null,"signatures":null,"phase":"sent"}`)
	access := json.RawMessage(`{"id":"a/r1","account_id":"a","signature_request_id":"r1","request_seq":1,"ordinal":1}`)
	_, err := Import(Tables{tableMeta: {meta}, TableSignatureRequests: {req, req}})
	require.EqualError(t, err, `table "signature_requests": 1 rows share an id with another row`)
	_, err = Import(Tables{tableMeta: {meta}, TableSignatureRequestAccess: {access, access, access}})
	require.EqualError(t, err, `table "signature_request_access": 2 rows share an id with another row`)
	noID := json.RawMessage(strings.Replace(string(req), `"r1"`, `""`, 1))
	_, err = Import(Tables{tableMeta: {meta}, TableSignatureRequests: {noID}})
	require.EqualError(t, err, `table "signature_requests" row 0: object missing primary index`)
	_, err = Import(Tables{tableMeta: {meta}, tableRowBuckets: {}})
	require.EqualError(t, err, `unknown table "row_buckets"`)
}

// TestAccessIDsCompareAndHashAsMade: the buckets of access rows compare
// and hash an id from its parts as the made id compares and hashes.
func TestAccessIDsCompareAndHashAsMade(t *testing.T) {
	parts := []string{"", "a", "a/", "a/b", "ab", "a0", "a.", "b", "/", "a/b/c"}
	bt := accessBuckets()
	for _, acc := range parts {
		for _, req := range parts {
			a := &model.SignatureRequestAccess{AccountID: acc, RequestID: req}
			require.Equal(t, fnv1a(a.ID()), bt.hash(a), "%q", a.ID())
			for _, x := range parts {
				for _, y := range []string{x, x + "/", "/" + x, x + "/" + req, acc + "/" + x, acc + x} {
					require.Equal(t, strings.Compare(a.ID(), y), compareAccessID(a, y), "%q against %q", a.ID(), y)
				}
			}
		}
	}
}
