package state

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireUsageTrue checks the counters against a recount of the rows.
func requireUsageTrue(t *testing.T, st *Store) Usage {
	t.Helper()
	tx := st.Read()
	got := WorldUsage(tx)
	want, err := RecountUsage(tx)
	require.NoError(t, err)
	assert.Equal(t, want.BlobBytes, got.BlobBytes, "blob bytes")
	assert.Equal(t, want.Blobs, got.Blobs, "blobs")
	assert.Equal(t, want.ContentBytes, got.ContentBytes, "content bytes")
	assert.Equal(t, want.Contents, got.Contents, "contents")
	assert.Equal(t, want.Events, got.Events, "events")
	assert.Equal(t, want.Emails, got.Emails, "emails")
	assert.Equal(t, want.Deliveries, got.Deliveries, "deliveries by state")
	assert.Equal(t, want.Rows, got.Rows, "rows by table")
	assert.Equal(t, want.Attempts, got.Attempts, "callback attempts by result")
	return got
}

func putBlobs(t *testing.T, st *Store, data ...[]byte) []string {
	t.Helper()
	var ids []string
	require.NoError(t, st.Update(func(tx *Txn) error {
		for _, d := range data {
			id, err := PutBlob(tx, d)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	}))
	return ids
}

// TestIdenticalFilesAreStoredOnce: blobs with the same bytes share one
// array, StoredBytes still counts each (the per-world cap is unchanged),
// and the content goes with its last blob.
func TestIdenticalFilesAreStoredOnce(t *testing.T) {
	st := seededStore(t)
	pdf := bytes.Repeat([]byte("%PDF-1.4 same bytes "), 400)
	grown := append(make([]byte, 0, 4*len(pdf)), pdf...)
	ids := putBlobs(t, st, grown, bytes.Clone(pdf), []byte("other"))
	require.Len(t, ids, 3)
	assert.NotEqual(t, ids[0], ids[1], "each stored file keeps its own id")

	tx := st.Read()
	a, err := GetBlob(tx, ids[0])
	require.NoError(t, err)
	b, err := GetBlob(tx, ids[1])
	require.NoError(t, err)
	assert.Equal(t, pdf, a)
	assert.Same(t, &a[0], &b[0], "identical files share one array")
	assert.Equal(t, len(a), cap(a), "a read buffer's spare capacity is not kept")

	used, err := StoredBytes(tx)
	require.NoError(t, err)
	assert.EqualValues(t, 2*len(pdf)+5, used, "StoredBytes counts every stored file")
	assert.EqualValues(t, len(pdf)+5, UniqueBytes(tx), "the memory they take counts them once")
	requireUsageTrue(t, st)

	require.NoError(t, st.Update(func(tx *Txn) error { return DeleteBlob(tx, ids[0]) }))
	u := requireUsageTrue(t, st)
	assert.EqualValues(t, 2, u.Contents, "the content stays while a blob holds it")
	b, err = GetBlob(st.Read(), ids[1])
	require.NoError(t, err)
	assert.Equal(t, pdf, b)

	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := DeleteBlob(tx, ids[1]); err != nil {
			return err
		}
		return DeleteBlob(tx, ids[1]) // already gone: no error, no change
	}))
	u = requireUsageTrue(t, st)
	assert.EqualValues(t, 1, u.Contents, "the last reference released the content")
	assert.EqualValues(t, 5, u.ContentBytes)
}

// TestAbortedWriteLeavesCountersAlone: the counters are rows of the same
// transaction, so a write that fails changes neither files nor counts.
func TestAbortedWriteLeavesCountersAlone(t *testing.T) {
	st := seededStore(t)
	putBlobs(t, st, []byte("kept"))
	before := requireUsageTrue(t, st)
	err := st.Update(func(tx *Txn) error {
		if _, err := PutBlob(tx, []byte("dropped")); err != nil {
			return err
		}
		return ErrNotFound
	})
	require.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, before, requireUsageTrue(t, st))
}

// TestImportRebuildsTheFileStore: export writes every blob with its bytes
// as before; import rebuilds the counters exactly and shares identical
// bytes again, and the round trip stays exact.
func TestImportRebuildsTheFileStore(t *testing.T) {
	st := seededStore(t)
	same := bytes.Repeat([]byte{7}, 3000)
	putBlobs(t, st, same, bytes.Clone(same), []byte("x"), []byte{}, nil)
	want := requireUsageTrue(t, st)
	first := exportJSON(t, st)
	assert.NotContains(t, string(first), tableBlobContents, "derived tables are not exported")
	assert.NotContains(t, string(first), `"usage"`)

	var tables Tables
	require.NoError(t, json.Unmarshal(first, &tables))
	db, err := Import(tables)
	require.NoError(t, err)
	st2 := NewStore(db, func() time.Time { return exportTestNow })
	got := requireUsageTrue(t, st2)
	assert.Equal(t, want.BlobBytes, got.BlobBytes)
	assert.Equal(t, want.Contents, got.Contents)
	assert.Equal(t, string(first), string(exportJSON(t, st2)), "export, import, export")

	rows, err := Rows(st2.Read(), TableBlobs)
	require.NoError(t, err)
	var shared []*Blob
	for _, r := range rows {
		if b := r.(*Blob); len(b.Data) == len(same) {
			shared = append(shared, b)
		}
	}
	require.Len(t, shared, 2)
	assert.Same(t, &shared[0].Data[0], &shared[1].Data[0], "imported identical files share one array")

	tables[tableUsage] = nil
	_, err = Import(tables)
	assert.ErrorContains(t, err, `unknown table "usage"`, "a derived table is not importable")
}
