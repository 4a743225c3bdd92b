package state

import (
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Replay applies the row changes of one journaled commit (rows decoded
// with DecodeRow) to a database outside the store, as the commit made
// them, keeping a request's file set in its request row: a request row
// written without one keeps the file set stored (journals write request
// rows as exports do, and a request never loses its file set), and a
// file_sets change of a request reaches the request row when the commit
// is done (Finish), whether the request row comes before or after it in
// the commit.
type Replay struct {
	tx *memdb.Txn
	// rows is the commit's copies of the buckets of bucketed tables
	// (bucket_rows.go), stored by Finish.
	rows *bucketWrite
	// files lists the requests whose file set the commit changed, in
	// order; gone those whose file set it deleted last.
	files []string
	gone  map[string]bool
}

// NewReplay starts replaying one commit in tx.
func NewReplay(tx *memdb.Txn) *Replay { return &Replay{tx: tx, rows: newLoadingWrite(tx)} }

// Apply makes one change: row is the new row, or for a deletion the row
// deleted.
func (r *Replay) Apply(table string, row any, deleted bool) error {
	switch fs, _ := row.(*model.FileSet); {
	case table == TableSignatureRequests && !deleted:
		req, ok := row.(*model.SignatureRequest)
		if !ok {
			return fmt.Errorf("a %T is not a signature request", row)
		}
		if req.Files != nil {
			break // written with its file set
		}
		if raw := r.rows.get(bucketed(TableSignatureRequests), req.ID); raw != nil {
			req.Files = raw.(*model.SignatureRequest).Files
		}
	case table == TableFileSets && fs != nil && fs.Kind() == model.FileSetKindRequest:
		id := fs.ObjectID()
		r.files = append(r.files, id)
		if r.gone == nil {
			r.gone = map[string]bool{}
		}
		r.gone[id] = deleted
		if deleted {
			// The row is in the table only when its request was not
			// there to take it.
			if raw, err := r.tx.First(TableFileSets, IndexID, fs.ID); err != nil || raw == nil {
				return err
			}
		}
	}
	if bt := bucketed(table); bt != nil {
		if deleted {
			return r.rows.deleteRow(bt, row)
		}
		return r.rows.insertRow(bt, row)
	}
	if deleted {
		return r.tx.Delete(table, row)
	}
	return r.tx.Insert(table, row)
}

// Finish folds the file sets the commit changed into their requests, and
// stores the buckets the commit changed.
func (r *Replay) Finish() error {
	done := make(map[string]bool, len(r.files))
	for _, id := range r.files {
		if done[id] {
			continue
		}
		done[id] = true
		if !r.gone[id] {
			if err := foldFileSet(r.rows, id, true); err != nil {
				return err
			}
			continue
		}
		reqs := bucketed(TableSignatureRequests)
		if req, _ := r.rows.get(reqs, id).(*model.SignatureRequest); req != nil && req.Files != nil {
			c := *req
			c.Files = nil
			r.rows.put(reqs, id, &c)
		}
	}
	return r.rows.flush()
}
