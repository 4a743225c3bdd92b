package state

import (
	"encoding/json"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blobRows counts the world's blob rows.
func blobRows(t *testing.T, st *Store) int {
	t.Helper()
	rows, err := All[Blob](st.Read(), TableBlobs, IndexID)
	require.NoError(t, err)
	return len(rows)
}

func storedBytes(t *testing.T, st *Store) int64 {
	t.Helper()
	n, err := StoredBytes(st.Read())
	require.NoError(t, err)
	return n
}

// TestIdenticalUploadsShareOneRow: uploads of the same bytes name one
// blob row, each under its own upload number; the id sequence moves as if
// each had its own row, and each counts in the stored bytes.
func TestIdenticalUploadsShareOneRow(t *testing.T) {
	st, twin := seededStore(t), seededStore(t)
	data := []byte("%PDF-1.4 the same upload")
	before := blobRows(t, st)
	var ids []string
	var uploads []uint64
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i := 0; i < 3; i++ {
			id, up, err := PutUpload(tx, data)
			if err != nil {
				return err
			}
			ids, uploads = append(ids, id), append(uploads, up)
		}
		return nil
	}))
	var want []string
	require.NoError(t, twin.Update(func(tx *Txn) error {
		for i := 0; i < 3; i++ {
			want = append(want, tx.NewID())
		}
		return nil
	}))
	assert.Equal(t, []string{want[0], want[0], want[0]}, ids, "the first upload's id names the row")
	assert.Equal(t, uint64(0), uploads[0])
	assert.NotZero(t, uploads[1])
	assert.NotEqual(t, uploads[1], uploads[2])
	assert.Equal(t, before+1, blobRows(t, st))
	assert.Equal(t, int64(3*len(data)), storedBytes(t, st), "each upload counts")
	var next, twinNext string
	require.NoError(t, st.Update(func(tx *Txn) error { next = tx.NewID(); return nil }))
	require.NoError(t, twin.Update(func(tx *Txn) error { twinNext = tx.NewID(); return nil }))
	assert.Equal(t, twinNext, next, "later ids are those separate rows gave")

	// Bytes stored as a file of another kind are not shared.
	require.NoError(t, st.Update(func(tx *Txn) error { _, err := PutBlob(tx, data); return err }))
	assert.Equal(t, before+2, blobRows(t, st))
	assert.Equal(t, int64(4*len(data)), storedBytes(t, st))
	requireUsageTrue(t, st)
}

// TestSharedUploadsCountLikeRowsOfTheirOwn: stored bytes follow the
// uploads exactly as when each upload had a row: an upload counts until
// the last row naming it lets go, whichever rows name the same bytes under
// other uploads, and import computes the same counts.
func TestSharedUploadsCountLikeRowsOfTheirOwn(t *testing.T) {
	st := seededStore(t)
	data := []byte("%PDF-1.4 a shared document")
	n := int64(len(data))
	update := func(fn func(tx *Txn) error) { t.Helper(); require.NoError(t, st.Update(fn)) }
	doc := func(id string, up uint64) []model.Document {
		return []model.Document{{Name: "d.pdf", BlobID: id, PDFBlobID: id, Upload: up}}
	}
	spec := func(docs []model.Document) json.RawMessage {
		raw, err := json.Marshal(struct{ Documents []model.Document }{docs})
		require.NoError(t, err)
		return raw
	}
	seq := uint64(1000)
	putRequest := func(tx *Txn, id string, docs []model.Document) error {
		seq++
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: id, Seq: seq, RequesterAccountID: "acct", Documents: docs})
	}
	// check compares the stored bytes with the uploads still named, here
	// and after an export and import.
	check := func(uploads int64, msg string) {
		t.Helper()
		assert.Equal(t, uploads*n, storedBytes(t, st), msg)
		assert.Equal(t, uploads*n, storedBytes(t, reimported(t, st)), msg+" (imported)")
		requireUsageTrue(t, st)
	}

	var row string
	var r1, r3 uint64
	update(func(tx *Txn) error { // a template, made by the first upload
		id, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		row = id
		return PutTemplate(tx, &model.Template{ID: "tpl", Seq: tx.Seq(), OwnerID: "acct", Documents: doc(id, up)})
	})
	check(1, "the template's upload")
	update(func(tx *Txn) error { // a request with the same bytes, uploaded
		id, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		require.Equal(t, row, id)
		r1 = up
		return putRequest(tx, "r1", doc(id, up))
	})
	check(2, "the request's own upload")
	update(func(tx *Txn) error { return putRequest(tx, "r2", doc(row, 0)) }) // made from the template
	check(2, "a request made from the template adds no upload")
	update(func(tx *Txn) error { // a draft to edit r1 with: r1's upload
		return Put(tx, TableUnclaimedDrafts, &model.UnclaimedDraft{ID: "draft", AccountID: "acct", Token: "tok", Spec: spec(doc(row, r1))})
	})
	check(2, "the draft names r1's upload")

	update(func(tx *Txn) error { return DeleteTemplate(tx, "tpl") })
	check(2, "r2 still names the template's upload")
	update(func(tx *Txn) error { // r1 edited with a new upload of the same bytes
		_, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		r3 = up
		return putRequest(tx, "r1", doc(row, up))
	})
	check(3, "the draft still names r1's first upload")
	update(func(tx *Txn) error { // the draft is gone
		return Put(tx, TableUnclaimedDrafts, &model.UnclaimedDraft{ID: "draft", AccountID: "acct", Token: "tok"})
	})
	check(2, "r1's first upload went with the draft")
	update(func(tx *Txn) error { return putRequest(tx, "r2", nil) })
	check(1, "the template's upload went with r2's documents")

	b, err := Get[Blob](st.Read(), TableBlobs, row)
	require.NoError(t, err)
	assert.Equal(t, 1, b.Holders)

	update(func(tx *Txn) error { // two documents of one request: two uploads
		_, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		return putRequest(tx, "r1", append(doc(row, r3), doc(row, up)...))
	})
	check(2, "two documents, two uploads")
	update(func(tx *Txn) error { return putRequest(tx, "r1", nil) })
	check(0, "the last upload went with the row")
	_, err = Get[Blob](st.Read(), TableBlobs, row)
	assert.ErrorIs(t, err, ErrNotFound, "the row went with its last upload")

	update(func(tx *Txn) error { // the same bytes again: a new row
		id, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		assert.NotEqual(t, row, id)
		assert.Zero(t, up)
		return putRequest(tx, "r3", doc(id, up))
	})
	check(1, "a new row for the next upload")
}

// TestUploadReplacedInOneWriteKeepsItsRow: a write that stores an upload
// and lets go of the only row naming the shared row's other upload before
// naming the new one keeps the row for it.
func TestUploadReplacedInOneWriteKeepsItsRow(t *testing.T) {
	st := seededStore(t)
	data := []byte("%PDF-1.4 replaced in one write")
	var row string
	require.NoError(t, st.Update(func(tx *Txn) error {
		id, up, err := PutUpload(tx, data)
		row = id
		if err != nil {
			return err
		}
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "r", Seq: 1, RequesterAccountID: "acct", Documents: []model.Document{{BlobID: id, PDFBlobID: id, Upload: up}}})
	}))
	require.NoError(t, st.Update(func(tx *Txn) error {
		_, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "r", Seq: 1, RequesterAccountID: "acct"}); err != nil {
			return err
		}
		_, err = Get[Blob](tx, TableBlobs, row)
		require.NoError(t, err, "kept for the upload of this write")
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "r", Seq: 1, RequesterAccountID: "acct", Documents: []model.Document{{BlobID: row, PDFBlobID: row, Upload: up}}})
	}))
	assert.Equal(t, int64(len(data)), storedBytes(t, st))
	requireUsageTrue(t, st)
}

// TestUploadsOfEarlierExportsStayTheirOwn: a world exported before uploads
// shared rows (a row per upload, none marked shared) imports with its rows
// as they were; the next identical upload makes a shared row of its own,
// and every upload still counts.
func TestUploadsOfEarlierExportsStayTheirOwn(t *testing.T) {
	st := seededStore(t)
	data := []byte("%PDF-1.4 from an earlier version")
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i, id := range []string{"r1", "r2"} {
			blob, err := PutBlob(tx, data) // as uploads were stored then
			if err != nil {
				return err
			}
			if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: id, Seq: uint64(i + 1), RequesterAccountID: "acct",
				Documents: []model.Document{{BlobID: blob, PDFBlobID: blob}}}); err != nil {
				return err
			}
		}
		return nil
	}))
	old := reimported(t, st)
	rows := blobRows(t, old)
	require.NoError(t, old.Update(func(tx *Txn) error {
		id, up, err := PutUpload(tx, data)
		if err != nil {
			return err
		}
		assert.Zero(t, up, "a new shared row")
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "r3", Seq: 3, RequesterAccountID: "acct",
			Documents: []model.Document{{BlobID: id, PDFBlobID: id}}})
	}))
	assert.Equal(t, rows+1, blobRows(t, old))
	assert.Equal(t, int64(3*len(data)), storedBytes(t, old))
	requireUsageTrue(t, old)
}
