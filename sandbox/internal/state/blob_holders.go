package state

import (
	"encoding/json"
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// Document blobs are shared by id: a request made from a template names
// the template's blobs, and so do the specs of bulk send jobs and drafts
// made from it until their requests exist. Blob.Holders counts the rows
// whose documents name a blob; Put keeps it (the counter of each holder
// table below compares a row's blobs with the stored row's) and so does
// DeleteTemplate. When the count drops to zero the blob is deleted, and its
// bytes go with the last blob that shares them. Blobs no document names
// (prepared files, logos, reports) are not counted and never released this
// way. Import computes the counts from the rows.

// holderTables are the tables whose rows hold document blobs.
var holderTables = []string{TableSignatureRequests, TableTemplates, TableFaxes, TableBulkSendJobs, TableUnclaimedDrafts}

func init() {
	for _, t := range holderTables {
		addPutCounter(t, func(tx *Txn, row any) error { return countHolder(tx, t, row) })
	}
}

// addPutCounter adds fn to the counters Put runs for table (after those
// added before it).
func addPutCounter(table string, fn func(tx *Txn, row any) error) {
	prev := putCounters[table]
	if prev == nil {
		putCounters[table] = fn
		return
	}
	putCounters[table] = func(tx *Txn, row any) error {
		if err := prev(tx, row); err != nil {
			return err
		}
		return fn(tx, row)
	}
}

// documentsSpec is the part of a stored request spec (bulk send jobs,
// drafts) that names blobs.
type documentsSpec struct {
	Documents []Document `json:"documents"`
}

// heldBlobs answers a holder row's id and the distinct blob ids its
// documents name, in document order.
func heldBlobs(row any) (string, []string) {
	var id string
	var docs []Document
	var spec json.RawMessage
	switch r := row.(type) {
	case *SignatureRequest:
		id, docs = r.ID, r.Documents
	case *Template:
		id, docs = r.ID, r.Documents
	case *Fax:
		id, docs = r.ID, r.Documents
	case *BulkSendJob:
		id, spec = r.ID, r.Spec
	case *UnclaimedDraft:
		id, spec = r.ID, r.Spec
	}
	if len(spec) > 0 {
		var s documentsSpec
		if json.Unmarshal(spec, &s) == nil {
			docs = s.Documents
		}
	}
	var ids []string
	for _, d := range docs {
		for _, b := range [2]string{d.BlobID, d.PDFBlobID} {
			if b != "" && !slices.Contains(ids, b) {
				ids = append(ids, b)
			}
		}
	}
	return id, ids
}

// countHolder moves the holder counts from the stored row's blobs to the
// new row's.
func countHolder(tx *Txn, table string, row any) error {
	id, now := heldBlobs(row)
	var before []string
	if raw, err := tx.Txn.First(table, IndexID, id); err == nil && raw != nil {
		_, before = heldBlobs(raw)
	}
	return moveHolds(tx, before, now)
}

// moveHolds counts one holder less for the blobs of before that are not in
// after, and one more for those of after that are not in before.
func moveHolds(tx *Txn, before, after []string) error {
	for _, b := range after {
		if !slices.Contains(before, b) {
			if err := addHolds(tx, b, 1); err != nil {
				return err
			}
		}
	}
	for _, b := range before {
		if !slices.Contains(after, b) {
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
// holder goes. A blob already gone is left alone.
func addHolds(tx *Txn, id string, delta int) error {
	b, err := Get[Blob](tx, TableBlobs, id)
	if err != nil {
		return nil
	}
	c := *b
	c.Holders += delta
	if c.Holders <= 0 && delta < 0 {
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
	for _, t := range holderTables {
		it, err := tx.Get(t, IndexID)
		if err != nil {
			return err
		}
		for raw := it.Next(); raw != nil; raw = it.Next() {
			_, ids := heldBlobs(raw)
			for _, b := range ids {
				count[b]++
			}
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
	return nil
}
