package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// testdata/before_buckets holds a world's data directory and its export
// as the version before requests and access rows were kept in buckets
// wrote them (state's bucket_rows.go), made by writeRequestsAndAccess.

// writeRequestsAndAccess makes the changes of requests and access rows a
// world goes through (creations, file sets, edits, list shifts, a
// deletion), interleaved with rows of other tables, in five commits.
func writeRequestsAndAccess(t *testing.T, st *state.Store) {
	t.Helper()
	req := func(n int, title string) *model.SignatureRequest {
		id := fmt.Sprintf("%040d", n*7919)
		return &model.SignatureRequest{ID: id, Seq: uint64(10 * n), RequesterAccountID: "acct1", Title: title,
			Signatures: []model.Signature{{ID: fmt.Sprintf("sig%03d", n), Email: "s@example.com", Status: model.SigAwaiting}},
			Phase:      model.PhaseSent}
	}
	steps := []func(tx *state.Txn) error{
		func(tx *state.Txn) error {
			for n := 1; n <= 5; n++ {
				if err := state.Put(tx, state.TableSignatureRequests, req(n, "first")); err != nil {
					return err
				}
				if err := state.AddAccess(tx, "acct1", req(n, "").ID, uint64(10*n)); err != nil {
					return err
				}
				_ = tx.NewID()
			}
			return state.AddAccess(tx, "acct2", req(3, "").ID, 30)
		},
		func(tx *state.Txn) error {
			fs := state.NewFileSet(model.FileSetKindRequest, req(2, "").ID)
			fs.Version = 1
			if err := state.PutFileSet(tx, fs); err != nil {
				return err
			}
			c := req(4, "edited")
			return state.Put(tx, state.TableSignatureRequests, c)
		},
		func(tx *state.Txn) error {
			if err := state.RemoveAccess(tx, "acct1", req(2, "").ID); err != nil {
				return err
			}
			if err := state.AddAccess(tx, "acct2", req(1, "").ID, 10); err != nil { // an older one: the list shifts
				return err
			}
			return state.Put(tx, state.TableSignatureRequests, req(6, "late"))
		},
		func(tx *state.Txn) error {
			stored, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, req(5, "").ID)
			if err != nil {
				return err
			}
			if err := state.RemoveAccess(tx, "acct1", stored.ID); err != nil {
				return err
			}
			if err := tx.Delete(state.TableSignatureRequests, stored); err != nil {
				return err
			}
			if err := state.Put(tx, state.TableSignatureRequests, req(7, "made")); err != nil {
				return err
			}
			return state.Put(tx, state.TableSignatureRequests, req(7, "and changed"))
		},
		func(tx *state.Txn) error {
			fs := state.NewFileSet(model.FileSetKindRequest, req(2, "").ID)
			fs.Version = 2
			if err := state.PutFileSet(tx, fs); err != nil {
				return err
			}
			return state.AddAccess(tx, "acct1", req(7, "").ID, 70)
		},
	}
	for _, step := range steps {
		require.NoError(t, st.Update(step))
	}
}

// TestJournalWrittenBeforeBucketsLoads: a data directory written before
// requests were kept in buckets loads into the world it was, exported
// byte for byte as that version exported it.
func TestJournalWrittenBeforeBucketsLoads(t *testing.T) {
	root := t.TempDir()
	copyDir(t, filepath.Join("testdata", "before_buckets", "worlds"), filepath.Join(root, "worlds"))
	want, err := os.ReadFile(filepath.Join("testdata", "before_buckets", "export.json"))
	require.NoError(t, err)
	d, err := Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	l, err := d.Load("w1")
	require.NoError(t, err)
	assert.Equal(t, 5, l.Records)
	assert.Equal(t, string(want), loadedJSON(t, l))
}

// TestJournalOfRequestsIsAsBefore: the same changes are journaled byte
// for byte as before requests were kept in buckets: one change per row,
// in the order memdb tracked them.
func TestJournalOfRequestsIsAsBefore(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncAlways})
	require.NoError(t, err)
	st, _ := newWorldStore(t, d, "w1")
	writeRequestsAndAccess(t, st)
	require.NoError(t, d.Close())
	for _, name := range []string{"snapshot.json", "journal-1.log"} {
		want, err := os.ReadFile(filepath.Join("testdata", "before_buckets", "worlds", "w1", name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(root, "worlds", "w1", name))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), name)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	}))
}
