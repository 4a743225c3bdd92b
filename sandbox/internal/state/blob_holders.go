package state

import (
	"encoding/json"
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Document blobs are shared by id: a request made from a template names
// the template's blobs, and so do the specs of bulk send jobs and drafts
// made from it until their requests exist. Blob.Holders counts the rows
// whose documents name a blob; Put keeps it (the counter of each holder
// table below compares a row's blobs with the stored row's) and so does
// DeleteTemplate. When the count drops to zero the blob is deleted, and its
// bytes go with the last blob that shares them. Blobs no document names
// (prepared files, logos, reports) are not counted and never released this
// way. Import computes the counts from the rows. A row identical uploads
// share (blob_uploads.go) also learns which of its uploads each row names.

// holderTables are the tables whose rows hold document blobs.
var holderTables = []string{TableSignatureRequests, TableTemplates, TableFaxes, TableBulkSendJobs, TableUnclaimedDrafts}

// countBlobHolders counts, as rows that hold documents are Put, the blobs they hold.
func countBlobHolders() {
	for _, t := range holderTables {
		addPutCounter(t, func(tx *Txn, row any) error { return countHolder(tx, t, row) })
	}
}

// documentsSpec is the part of a stored request spec (bulk send jobs,
// drafts) that names blobs.
type documentsSpec struct {
	Documents []model.Document `json:"documents"`
}

// hold is one blob a row's documents name, with the upload the document
// keeps (Document.Upload; it tells apart the uploads of a shared row).
type hold struct {
	blob   string
	upload uint64
}

// heldBlobs answers a holder row's id and the distinct holds of its
// documents, in document order.
func heldBlobs(row any) (string, []hold) {
	var id string
	var docs []model.Document
	var spec json.RawMessage
	switch r := row.(type) {
	case *model.SignatureRequest:
		id, docs = r.ID, r.Documents
	case *model.Template:
		id, docs = r.ID, r.Documents
	case *model.Fax:
		id, docs = r.ID, r.Documents
	case *model.BulkSendJob:
		id, spec = r.ID, r.Spec
	case *model.UnclaimedDraft:
		id, spec = r.ID, r.Spec
	}
	if len(spec) > 0 {
		var s documentsSpec
		if json.Unmarshal(spec, &s) == nil {
			docs = s.Documents
		}
	}
	var holds []hold
	for _, d := range docs {
		for _, b := range [2]string{d.BlobID, d.PDFBlobID} {
			if h := (hold{b, d.Upload}); b != "" && !slices.Contains(holds, h) {
				holds = append(holds, h)
			}
		}
	}
	return id, holds
}

// blobsOf answers the distinct blob ids of holds, in order.
func blobsOf(holds []hold) []string {
	var ids []string
	for _, h := range holds {
		if !slices.Contains(ids, h.blob) {
			ids = append(ids, h.blob)
		}
	}
	return ids
}

// countHolder moves the holder counts from the stored row's blobs to the
// new row's.
func countHolder(tx *Txn, table string, row any) error {
	if r, ok := row.(*model.SignatureRequest); ok && r != nil {
		// A request put again with the stored row's own documents (a
		// transition's copy shares them, CopySignatures) holds what it
		// held: stored rows are never changed in place. A clock advance
		// job puts its request once.
		if s := storedRequest(tx, r.ID); s != nil && sameDocuments(s.Documents, r.Documents) {
			return nil
		}
	}
	id, now := heldBlobs(row)
	var before []hold
	if raw, err := tx.First(table, IndexID, id); err == nil && raw != nil {
		_, before = heldBlobs(raw)
	}
	return moveHolds(tx, before, now)
}

// sameDocuments reports whether a and b are the same documents of one
// array (not merely equal ones).
func sameDocuments(a, b []model.Document) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// moveHolds counts one holder less for the blobs of before that are not in
// after, and one more for those of after that are not in before. The
// uploads of shared rows are counted first, so that a row whose last
// holder goes knows whether uploads stored in this write still need it.
func moveHolds(tx *Txn, before, after []hold) error {
	for _, h := range after {
		if !slices.Contains(before, h) {
			if err := holdUpload(tx, h, 1); err != nil {
				return err
			}
		}
	}
	for _, h := range before {
		if !slices.Contains(after, h) {
			if err := holdUpload(tx, h, -1); err != nil {
				return err
			}
		}
	}
	was, now := blobsOf(before), blobsOf(after)
	for _, b := range now {
		if !slices.Contains(was, b) {
			if err := addHolds(tx, b, 1); err != nil {
				return err
			}
		}
	}
	for _, b := range was {
		if !slices.Contains(now, b) {
			if err := addHolds(tx, b, -1); err != nil {
				return err
			}
		}
	}
	return nil
}

// releaseHolder counts a deleted holder row out of its blobs.
func releaseHolder(tx *Txn, row any) error {
	_, before := heldBlobs(row)
	return moveHolds(tx, before, nil)
}

// addHolds changes a blob's holder count, deleting the blob when its last
// holder goes (unless it is a shared row that uploads of this write still
// need). A blob already gone is left alone.
func addHolds(tx *Txn, id string, delta int) error {
	b, err := Get[Blob](tx, TableBlobs, id)
	if err != nil {
		return nil
	}
	c := *b
	c.Holders += delta
	if c.Holders <= 0 && delta < 0 && !keepsUnnamedUploads(tx, id) {
		return DeleteBlob(tx, id)
	}
	if err := tx.Insert(TableBlobs, &c); err != nil {
		return fmt.Errorf("state: insert %s: %w", TableBlobs, err)
	}
	return nil
}

// rebuildBlobHolders computes every blob's holder count from the holder
// rows of an imported database.
func rebuildBlobHolders(tx *memdb.Txn) error {
	count := map[string]int{}
	var all []hold
	for _, t := range holderTables {
		it, err := getRows(tx, t, IndexID)
		if err != nil {
			return err
		}
		for raw := it.Next(); raw != nil; raw = it.Next() {
			_, holds := heldBlobs(raw)
			for _, b := range blobsOf(holds) {
				count[b]++
			}
			all = append(all, holds...)
		}
	}
	it, err := tx.Get(TableBlobs, IndexID)
	if err != nil {
		return err
	}
	var fix []*Blob
	for raw := it.Next(); raw != nil; raw = it.Next() {
		if b := raw.(*Blob); b.Holders != count[b.ID] {
			c := *b
			c.Holders = count[b.ID]
			fix = append(fix, &c)
		}
	}
	for _, b := range fix {
		if err := tx.Insert(TableBlobs, b); err != nil {
			return err
		}
	}
	return rebuildUploadShares(tx, all)
}
