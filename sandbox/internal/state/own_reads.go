package state

import (
	"errors"

	memdb "github.com/hashicorp/go-memdb"
)

// Reads by id inside a write. memdb answers a read of an index the same
// write has already changed from a clone of that index's radix
// transaction, and the clone drops the write's cache of the index nodes it
// has already copied: the next insert into the index copies its whole
// path again (about 16 allocations and several microseconds). A job of a
// clock advance reads its request after the job before it in the batch
// stored one, Put reads the stored row of a holder table, and so on: a
// few such clones per job. A write counting its rows (row_counts.go)
// already knows every row it put or deleted (rowWrite.seen) and keeps a
// read transaction on the database as it found it (base), so a read by
// id is answered from those instead, exactly as memdb would answer it,
// without touching the write's indexes.
//
// It is exact only for tables whose every change goes through Txn's
// Insert, Delete, DeleteAll and DeletePrefix, which record the change.
// Derived tables (usage, blob contents) and the meta row are written
// through memdb's own transaction as well, and a change that failed part
// way leaves memdb's indexes in a state seen does not know (rowWrite.unsure):
// those reads, and every read by another index or by other arguments, are
// memdb's own. Build with -tags readcheck to check every read answered
// here against memdb's answer.

// First is memdb's First, answering a lookup by id in a counting write
// from the rows the write changed and the database as the write found it.
func (t *Txn) First(table, index string, args ...any) (any, error) {
	if ix := compactIndexNamed(table, index); ix != nil {
		return t.compactFirst(ix, args)
	}
	if bt := bucketed(table); bt != nil {
		return t.firstBucketed(bt, index, args)
	}
	if raw, ok := t.firstOwn(table, index, args); ok {
		if checkOwnReads {
			t.checkOwnRead(raw, table, index, args)
		}
		return raw, nil
	}
	return t.mem.First(table, index, args...)
}

// firstOwn answers a lookup by id without memdb's write transaction (ok
// false when it cannot, for memdb to answer).
func (t *Txn) firstOwn(table, index string, args []any) (raw any, ok bool) {
	if t.eng.rows == nil || t.eng.rows.unsure || index != IndexID || len(args) == 0 || table == tableMeta {
		return nil, false
	}
	ri := t.rowInfo(table)
	if ri == nil {
		return nil, false
	}
	id, ok := ri.lookupID(args)
	if !ok {
		return nil, false
	}
	key := rowKey{table, id}
	raw, err := t.current(key, args)
	if err != nil {
		return nil, false
	}
	// Remembered as the row's state in this write (seen holds exactly
	// that), so that the lookups that follow (a job reads its request,
	// Put reads the stored row twice) need not walk the index again.
	t.eng.rows.remember(key, raw)
	return raw, true
}

// rowRecord is what a write knows of the rows it changed, so that it can
// read them by id without asking its own indexes: each row's state in
// the write (seen: the row it put, nil for one it deleted), and a read
// transaction on the database as the write found it (base, opened from
// db when first needed; the write holds memdb's writer lock, so no commit
// came between). unsure is set when a change failed part way: memdb's
// indexes may then hold what seen does not know, and only memdb answers.
type rowRecord struct {
	db     *memdb.MemDB
	base   *memdb.Txn
	seen   map[rowKey]any
	unsure bool
}

// remember records that the row of key is row from now on (nil: none).
func (r *rowRecord) remember(key rowKey, row any) {
	if r.seen == nil {
		r.seen = map[rowKey]any{}
	}
	r.seen[key] = row
}

// current answers the row of key as the write has it: what the write did
// to it, else the database as the write found it, looked up with args.
func (r *rowRecord) current(key rowKey, args []any) (any, error) {
	if row, ok := r.seen[key]; ok {
		return row, nil
	}
	if r.base == nil {
		r.base = r.db.Txn(false)
	}
	return r.base.First(key.table, IndexID, args...)
}

// lookupID is the id (as rowID reads it from a row) that a lookup by the
// id index with args finds, ok false for arguments or indexes it does not
// know to be exact about.
func (ri *rowInfo) lookupID(args []any) (string, bool) {
	switch idx := ri.indexer.(type) {
	case *memdb.StringFieldIndex:
		// rowID reads the field; the index stores it with a NUL after it,
		// and looks up the argument the same way.
		if ri.rowType == nil || idx.Lowercase || len(args) != 1 {
			return "", false
		}
		id, ok := args[0].(string)
		return id, ok && id != ""
	case idStringIndexer:
		// The key is the id string with a NUL after it (access rows).
		if len(args) != 1 {
			return "", false
		}
		id, ok := args[0].(string)
		return id, ok && id != ""
	case *jobQueueIndex:
		// A job's id is its whole binary key (jobKeyID).
		if len(args) == 1 {
			if k, ok := args[0].(jobKeyArg); ok && len(k) == 2*numberKeyLen {
				return string(k), true
			}
		}
		key, err := idx.FromArgs(args...)
		if err != nil {
			return "", false
		}
		return string(key), true
	}
	return "", false
}

// failed marks the write's record of its rows unsure when a change
// failed (memdb may have changed some indexes of the row and not others),
// and answers err. A delete of a row that is not there changed nothing:
// memdb looks the row up before it touches an index, and the scheduler's
// JobCursor.Take meets it whenever a job of a batch cancelled a later one.
func (t *Txn) failed(err error) error {
	if err != nil && !errors.Is(err, memdb.ErrNotFound) {
		t.eng.rows.unsure = true
	}
	return err
}
