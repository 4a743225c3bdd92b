package state

import (
	"fmt"
	"sort"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// A signature request's file set lives in its request row
// (SignatureRequest.Files), not in a file_sets row of its own: every
// request keeps one for the rest of its life, and a row of its own cost a
// go-immutable-radix entry of the id index (about 450 bytes) beside the
// request's. Templates and other kinds keep their file_sets rows.
//
// Nothing outside the memory layout sees the difference. GetFileSet and
// PutFileSet know where a file set lives, so callers do not. The file set
// is still a file_sets row everywhere a world leaves the process: an
// export writes the request row without it (RowAsExported) and it as a
// file_sets row (exportedFileSets), byte for byte what exports always
// were; a commit observer (the journal) is handed a file_sets change for
// it (withFileSetChanges) and writes request rows as exports do; and the
// row counts count it as a file_sets row (requestFileRows), so exports,
// journals and metrics are what they were. Coming back, the rows are
// folded into their requests: on import (foldRequestFileSets) and on
// journal replay (Replay), so a state or a journal written before the
// change loads as one written after it. A request row's own JSON carries
// its file set ("files"), so that the row round-trips by itself; import
// and replay accept that shape too.
//
// The request row's file set is owned by these functions: Put of a
// request row keeps the file set stored (withStoredFiles), whatever the
// row it is given holds, as a request row and its file_sets row were
// always written independently. Only PutFileSet changes it.
//
// A file_sets row of a request that does not exist (test worlds built in
// part) stays a row: GetFileSet and PutFileSet use it, and it exports and
// counts as before. GetFileSet still finds it once the request row is put;
// the next PutFileSet moves it into the row (dropFileSetRow).

// GetFileSet reads an object's file set (ErrNotFound when none was ever
// scheduled).
func GetFileSet(tx *Txn, kind, objectID string) (*model.FileSet, error) {
	if kind == model.FileSetKindRequest {
		if req, err := Get[model.SignatureRequest](tx, TableSignatureRequests, objectID); err == nil && req.Files != nil {
			return req.Files, nil
		}
	}
	// A request without one in its row may still have a file_sets row:
	// one put before its request row was (test worlds built in part).
	return Get[model.FileSet](tx, TableFileSets, model.FileSetID(kind, objectID))
}

// PutFileSet stores an object's file set: in its request row for a
// request (a copy of the row that differs only in Files), else as a
// file_sets row. The request row's other fields are those stored, so its
// blob holds and indexes do not move.
func PutFileSet(tx *Txn, fs *model.FileSet) error {
	if fs.Kind() == model.FileSetKindRequest {
		if req, err := Get[model.SignatureRequest](tx, TableSignatureRequests, fs.ObjectID()); err == nil {
			if err := dropFileSetRow(tx, req); err != nil {
				return err
			}
			c := *req
			c.Files = fs
			if err := tx.Insert(TableSignatureRequests, &c); err != nil {
				return fmt.Errorf("state: insert %s: %w", TableSignatureRequests, err)
			}
			if tx.eng.rows == nil { // an observed write (withFileSetChanges)
				if tx.eng.filesOnly == nil {
					tx.eng.filesOnly = map[*model.SignatureRequest]*model.SignatureRequest{}
				}
				tx.eng.filesOnly[&c] = req
			}
			return nil
		}
	}
	return Put(tx, TableFileSets, fs)
}

// dropFileSetRow deletes the file_sets row of a request whose row holds no
// file set yet, before PutFileSet moves the file set into the row: a
// request's file set is in one place, as import leaves it. The delete
// comes first in the write, so that a journal replays it before the file
// set the request row now carries.
func dropFileSetRow(tx *Txn, req *model.SignatureRequest) error {
	if req.Files != nil {
		return nil
	}
	row, err := Get[model.FileSet](tx, TableFileSets, model.FileSetID(model.FileSetKindRequest, req.ID))
	if err != nil {
		return nil // none
	}
	if err := tx.Delete(TableFileSets, row); err != nil {
		return fmt.Errorf("state: delete %s: %w", TableFileSets, err)
	}
	return nil
}

// withStoredFiles answers the request row Put stores for row: row itself
// when it holds the file set stored under its id (none for a new
// request), else a copy that does. Callers build request rows from copies
// of what they read, and a file set put since would otherwise be lost.
func withStoredFiles(tx *Txn, row any) any {
	r, ok := row.(*model.SignatureRequest)
	if !ok || r == nil {
		return row
	}
	var stored *model.FileSet
	if req := storedRequest(tx, r.ID); req != nil {
		stored = req.Files
	}
	if r.Files == stored {
		return row
	}
	c := *r
	c.Files = stored
	return &c
}

// RowAsExported is a row as exports and journals write it: a request row
// without its file set, which they write as a file_sets row; any other
// row as it is.
func RowAsExported(row any) any {
	if r, ok := row.(*model.SignatureRequest); ok && r != nil && r.Files != nil {
		c := *r
		c.Files = nil
		return &c
	}
	return row
}

// storedRequest is the request row stored under id as this transaction
// has it (nil: none), read from its bucket without the arguments a lookup
// boxes: Put asks for every request row it stores.
func storedRequest(tx *Txn, id string) *model.SignatureRequest {
	bt := bucketed(TableSignatureRequests)
	raw := tx.bucketGet(bt, id)
	if checkOwnReads {
		tx.checkBucketRead(bt, id, raw)
	}
	r, _ := raw.(*model.SignatureRequest)
	return r
}

// onlyFilesChanged reports whether a request row's change is PutFileSet's
// alone: following the rows PutFileSet made (filesOnly: row made -> row
// it copied) back from the row after reaches the row before.
func onlyFilesChanged(ch *memdb.Change, filesOnly map[*model.SignatureRequest]*model.SignatureRequest) bool {
	before, _ := ch.Before.(*model.SignatureRequest)
	after, _ := ch.After.(*model.SignatureRequest)
	if before == nil || after == nil {
		return false
	}
	for r := after; r != nil; r = filesOnly[r] {
		if r == before {
			return true
		}
	}
	return false
}

// requestFileRows is how many file_sets rows a request row stands for
// (one when it holds a file set, none for anything else).
func requestFileRows(row any) int64 {
	if r, ok := row.(*model.SignatureRequest); ok && r != nil && r.Files != nil {
		return 1
	}
	return 0
}

// filesOf is the file set a request row holds, as a row: nil (untyped)
// when it holds none.
func filesOf(row any) any {
	if r, ok := row.(*model.SignatureRequest); ok && r != nil && r.Files != nil {
		return r.Files
	}
	return nil
}

// withFileSetChanges adds to a write's changes, after each change of a
// request row whose file set changed, the change of that file set as a
// file_sets row: what the write would have changed before file sets moved
// into request rows. A request row changed only by PutFileSet (filesOnly
// leads from the row after back to the row before) is left out, as it
// was never changed before file sets moved: a preparation job journals
// its file set, not the whole request again. The changes are returned as
// they are when no file set changed.
func withFileSetChanges(changes memdb.Changes, filesOnly map[*model.SignatureRequest]*model.SignatureRequest) memdb.Changes {
	var out memdb.Changes
	for i := range changes {
		ch := &changes[i]
		var before, after any
		if ch.Table == TableSignatureRequests {
			before, after = filesOf(ch.Before), filesOf(ch.After)
		}
		if before == after {
			if out != nil {
				out = append(out, *ch)
			}
			continue
		}
		if out == nil {
			out = make(memdb.Changes, i, len(changes)+1)
			copy(out, changes[:i])
		}
		if !onlyFilesChanged(ch, filesOnly) {
			out = append(out, *ch)
		}
		out = append(out, memdb.Change{Table: TableFileSets, Before: before, After: after})
	}
	if out == nil {
		return changes
	}
	return out
}

// exportedFileSets adds to the file_sets rows of a table those kept in
// request rows, in id order, as export has always written them.
func exportedFileSets(tx *Txn, rows []any) ([]any, error) {
	reqs, err := Rows(tx, TableSignatureRequests)
	if err != nil {
		return nil, err
	}
	added := false
	for _, r := range reqs {
		if fs := r.(*model.SignatureRequest).Files; fs != nil {
			rows = append(rows, fs)
			added = true
		}
	}
	if added {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].(*model.FileSet).ID < rows[j].(*model.FileSet).ID })
	}
	return rows, nil
}

// foldRequestFileSets moves every file_sets row of an existing request
// into its request row (an import; a journal replay folds the file sets
// of each commit, see Replay). Rows of requests that do not exist stay.
func foldRequestFileSets(tx *memdb.Txn) error {
	it, err := tx.Get(TableFileSets, IndexID+"_prefix", model.FileSetKindRequest+":")
	if err != nil {
		return fmt.Errorf("state: fold file sets: %w", err)
	}
	var legacy []*model.FileSet
	for raw := it.Next(); raw != nil; raw = it.Next() {
		legacy = append(legacy, raw.(*model.FileSet))
	}
	w := newLoadingWrite(tx)
	for _, fs := range legacy {
		if err := foldFileSet(w, fs.ObjectID(), false); err != nil {
			return err
		}
	}
	return w.flush()
}

// foldFileSet moves the file_sets row of request id, if both exist, into
// the request row. Unless the row replaces it (a replayed change, newer),
// a request row that carries a file set already is refused: an import that
// gives one request two file sets. The request rows are read and written
// through w, the write's bucket copies (bucket_rows_write.go).
func foldFileSet(w *bucketWrite, id string, replaces bool) error {
	reqs := bucketed(TableSignatureRequests)
	rawReq := w.get(reqs, id)
	if rawReq == nil {
		return nil
	}
	tx := w.tx
	rawFS, err := tx.First(TableFileSets, IndexID, model.FileSetID(model.FileSetKindRequest, id))
	if err != nil || rawFS == nil {
		return err
	}
	c := *rawReq.(*model.SignatureRequest)
	if c.Files != nil && !replaces {
		return fmt.Errorf("table %q: request %s has a file set in its row and in table %q", TableSignatureRequests, id, TableFileSets)
	}
	c.Files = rawFS.(*model.FileSet)
	w.put(reqs, id, &c)
	if err := tx.Delete(TableFileSets, rawFS); err != nil {
		return fmt.Errorf("state: fold file set of %s: %w", id, err)
	}
	return nil
}
