package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func holdersOf(t *testing.T, st *Store, id string) (int, bool) {
	t.Helper()
	b, err := Get[Blob](st.Read(), TableBlobs, id)
	if err != nil {
		return 0, false
	}
	return b.Holders, true
}

// TestBlobHoldersFollowTheRowsThatNameThem: templates, requests, bulk send
// jobs and drafts (through their specs) count as holders of the blobs
// their documents name; a blob whose last holder lets go is deleted, and
// import computes the same counts from the rows.
func TestBlobHoldersFollowTheRowsThatNameThem(t *testing.T) {
	st := seededStore(t)
	ids := putBlobs(t, st, []byte("shared document"), []byte("lone document"))
	shared, lone := ids[0], ids[1]
	spec := func(ids ...string) json.RawMessage {
		var docs []model.Document
		for _, id := range ids {
			docs = append(docs, model.Document{Name: "d.pdf", BlobID: id, PDFBlobID: id})
		}
		raw, err := json.Marshal(struct{ Documents []model.Document }{docs}) // the sandbox's spec shape
		require.NoError(t, err)
		return raw
	}
	update := func(fn func(tx *Txn) error) { t.Helper(); require.NoError(t, st.Update(fn)) }

	update(func(tx *Txn) error {
		if err := PutTemplate(tx, &model.Template{ID: "tpl_shared", Seq: tx.Seq(), OwnerID: "acct", Documents: []model.Document{{BlobID: shared, PDFBlobID: shared}}}); err != nil {
			return err
		}
		if err := PutTemplate(tx, &model.Template{ID: "tpl_lone", Seq: tx.Seq(), OwnerID: "acct", Documents: []model.Document{{BlobID: lone, PDFBlobID: lone}}}); err != nil {
			return err
		}
		if err := Put(tx, TableBulkSendJobs, &model.BulkSendJob{ID: "bulk", AccountID: "acct", Spec: spec(shared)}); err != nil {
			return err
		}
		return Put(tx, TableUnclaimedDrafts, &model.UnclaimedDraft{ID: "draft", AccountID: "acct", Token: "tok", Spec: spec(shared)})
	})
	n, _ := holdersOf(t, st, shared)
	assert.Equal(t, 3, n, "template, bulk send job, draft")

	update(func(tx *Txn) error {
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr", RequesterAccountID: "acct", Documents: []model.Document{{BlobID: shared, PDFBlobID: shared}}})
	})
	update(func(tx *Txn) error { // the job has sent, the draft was claimed
		if err := Put(tx, TableBulkSendJobs, &model.BulkSendJob{ID: "bulk", AccountID: "acct"}); err != nil {
			return err
		}
		return Put(tx, TableUnclaimedDrafts, &model.UnclaimedDraft{ID: "draft", AccountID: "acct", Token: "tok"})
	})
	n, _ = holdersOf(t, st, shared)
	assert.Equal(t, 2, n, "template and request")

	var tables Tables
	require.NoError(t, json.Unmarshal(exportJSON(t, st), &tables))
	for i, r := range tables[TableBlobs] { // an export made before holders were counted
		var b map[string]any
		require.NoError(t, json.Unmarshal(r, &b))
		delete(b, "holders")
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		tables[TableBlobs][i] = raw
	}
	db, err := Import(tables)
	require.NoError(t, err)
	imported := NewStore(db, func() time.Time { return exportTestNow })
	n, _ = holdersOf(t, imported, shared)
	assert.Equal(t, 2, n, "import counts the holders")

	for _, s := range []*Store{st, imported} {
		require.NoError(t, s.Update(func(tx *Txn) error {
			if err := DeleteTemplate(tx, "tpl_shared"); err != nil {
				return err
			}
			return DeleteTemplate(tx, "tpl_lone")
		}))
		n, ok := holdersOf(t, s, shared)
		assert.True(t, ok, "the request still names it")
		assert.Equal(t, 1, n)
		_, ok = holdersOf(t, s, lone)
		assert.False(t, ok, "released with its last holder")
		requireUsageTrue(t, s)
	}
}

// TestRequestPutWithItsOwnDocumentsKeepsItsHolds: a request put again
// with the stored row's documents (a processing copy shares them) holds
// its blobs as before, in the same write or a later one; one put with
// other documents moves its holds as always.
func TestRequestPutWithItsOwnDocumentsKeepsItsHolds(t *testing.T) {
	st := seededStore(t)
	ids := putBlobs(t, st, []byte("first document"), []byte("second document"))
	first, second := ids[0], ids[1]
	update := func(fn func(tx *Txn) error) { t.Helper(); require.NoError(t, st.Update(fn)) }
	stored := func(tx *Txn) *model.SignatureRequest {
		r, err := Get[model.SignatureRequest](tx, TableSignatureRequests, "sr")
		require.NoError(t, err)
		return r
	}
	update(func(tx *Txn) error {
		if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr", RequesterAccountID: "acct", Documents: []model.Document{{BlobID: first, PDFBlobID: first}}}); err != nil {
			return err
		}
		return Put(tx, TableSignatureRequests, stored(tx).CopySignatures()) // the same write
	})
	n, _ := holdersOf(t, st, first)
	assert.Equal(t, 1, n)
	update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, stored(tx).CopySignatures()) })
	n, _ = holdersOf(t, st, first)
	assert.Equal(t, 1, n, "a later write")
	update(func(tx *Txn) error {
		c := stored(tx).Copy()
		c.Documents[0] = model.Document{BlobID: second, PDFBlobID: second}
		return Put(tx, TableSignatureRequests, c)
	})
	_, kept := holdersOf(t, st, first)
	assert.False(t, kept, "the first blob lost its last holder")
	n, _ = holdersOf(t, st, second)
	assert.Equal(t, 1, n)
}
