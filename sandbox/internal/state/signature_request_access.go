package state

// The list access of signature requests: per account, dense ordinals in
// request creation order (TableSignatureRequestAccess).

import (
	"fmt"
	"math"
	"sort"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// AccessCount is the number of requests in an account's list: its
// newest row's ordinal.
func AccessCount(tx *Txn, accountID string) (uint64, error) {
	e, ok := accessEntry(tx, accountID, math.MaxUint64)
	if !ok {
		return 0, nil
	}
	return e.Order, nil
}

// AccessAt returns the access row of an account at an ordinal.
func AccessAt(tx *Txn, accountID string, ordinal uint64) (*model.SignatureRequestAccess, error) {
	e, ok := accessEntry(tx, accountID, ordinal)
	if !ok || e.Order != ordinal {
		return nil, ErrNotFound
	}
	return accessRow(tx, &e)
}

// accessEntry answers the entry of an account's newest row at or below
// ordinal in the lists' compact index.
func accessEntry(tx *Txn, accountID string, ordinal uint64) (compactEntry, bool) {
	var found compactEntry
	ok := false
	tx.compactScan(accessIndex(), accountID, ordinal, true, func(e *compactEntry) bool {
		found, ok = *e, true
		return false
	})
	return found, ok
}

// accessRow reads the row an entry of the lists' index names.
func accessRow(tx *Txn, e *compactEntry) (*model.SignatureRequestAccess, error) {
	raw, err := tx.First(TableSignatureRequestAccess, IndexID, accessIndex().lookupID(e))
	if err != nil {
		return nil, fmt.Errorf("state: access of %s: %w", e.Group, err)
	}
	if raw == nil {
		return nil, fmt.Errorf("state: access of %s at %d: %w", e.Group, e.Order, ErrNotFound)
	}
	return raw.(*model.SignatureRequestAccess), nil
}

// accessIndex is the compact index of the lists (IndexAccountOrdinal).
func accessIndex() *compactIndex {
	return compactIndexNamed(TableSignatureRequestAccess, IndexAccountOrdinal)
}

// AccessWalk walks an account's access rows down from an ordinal, newest
// first, through the compact index of the lists (IndexAccountOrdinal),
// reading entries ahead in batches that grow from accessWalkFirst to
// accessWalkBatch: a list page reads a few dozen rows, a scan all of them.
type AccessWalk struct {
	tx      *Txn
	account string
	from    uint64
	done    bool
	buf     []compactEntry
	pos     int
}

const (
	accessWalkFirst = 8
	accessWalkBatch = 64
)

// NewAccessWalk starts a walk of the account's rows at the newest one at
// or below ordinal.
func NewAccessWalk(tx *Txn, accountID string, ordinal uint64) *AccessWalk {
	return &AccessWalk{tx: tx, account: accountID, from: ordinal}
}

// Next returns the walk's next row, nil past the account's oldest.
func (w *AccessWalk) Next() (*model.SignatureRequestAccess, error) {
	e := w.next()
	if e == nil {
		return nil, nil
	}
	return accessRow(w.tx, e)
}

// NextListed returns the request id and ordinal of the walk's next row
// without reading the row (ok false past the account's oldest): a list
// page needs no more.
func (w *AccessWalk) NextListed() (requestID string, ordinal uint64, ok bool) {
	e := w.next()
	if e == nil {
		return "", 0, false
	}
	return e.ID, e.Order, true
}

// next answers the walk's next entry (nil: none).
func (w *AccessWalk) next() *compactEntry {
	if w.pos == len(w.buf) {
		if w.done {
			return nil
		}
		w.fill()
		if len(w.buf) == 0 {
			return nil
		}
	}
	w.pos++
	return &w.buf[w.pos-1]
}

// fill reads the next batch of entries.
func (w *AccessWalk) fill() {
	batch := accessWalkFirst
	if cap(w.buf) > 0 {
		batch = min(2*cap(w.buf), accessWalkBatch)
	}
	if cap(w.buf) < batch {
		w.buf = make([]compactEntry, 0, batch)
	}
	w.buf, w.pos = w.buf[:0], 0
	w.tx.compactScan(accessIndex(), w.account, w.from, true, func(e *compactEntry) bool {
		w.buf = append(w.buf, *e)
		return len(w.buf) < batch
	})
	if last := len(w.buf) - 1; last < batch-1 || w.buf[last].Order == 0 {
		w.done = true
	} else {
		w.from = w.buf[last].Order - 1
	}
}

// AddAccess puts a request in an account's list, keeping ordinals dense and
// in request creation order. A request newer than all others (the usual
// case) costs one insert; an older one shifts the newer rows up.
func AddAccess(tx *Txn, accountID, requestID string, requestSeq uint64) error {
	if _, err := Get[model.SignatureRequestAccess](tx, TableSignatureRequestAccess, model.AccessID(accountID, requestID)); err == nil {
		return nil
	}
	n, err := AccessCount(tx, accountID)
	if err != nil {
		return err
	}
	pos := n + 1
	for pos > 1 {
		prev, err := AccessAt(tx, accountID, pos-1)
		if err != nil {
			return fmt.Errorf("state: access of %s at %d: %w", accountID, pos-1, err)
		}
		if prev.RequestSeq < requestSeq {
			break
		}
		pos--
	}
	for o := n; o >= pos; o-- {
		if err := moveAccess(tx, accountID, o, o+1); err != nil {
			return err
		}
	}
	return Put(tx, TableSignatureRequestAccess, &model.SignatureRequestAccess{
		AccountID: accountID, RequestID: requestID, RequestSeq: requestSeq, Ordinal: pos,
	})
}

// RemoveAccess takes a request out of an account's list; the newer rows
// move down so that ordinals stay dense.
func RemoveAccess(tx *Txn, accountID, requestID string) error {
	row, err := Get[model.SignatureRequestAccess](tx, TableSignatureRequestAccess, model.AccessID(accountID, requestID))
	if err != nil {
		return nil
	}
	n, err := AccessCount(tx, accountID)
	if err != nil {
		return err
	}
	if err := tx.Delete(TableSignatureRequestAccess, row); err != nil {
		return err
	}
	for o := row.Ordinal + 1; o <= n; o++ {
		if err := moveAccess(tx, accountID, o, o-1); err != nil {
			return err
		}
	}
	return nil
}

func moveAccess(tx *Txn, accountID string, from, to uint64) error {
	cur, err := AccessAt(tx, accountID, from)
	if err != nil {
		return fmt.Errorf("state: access of %s at %d: %w", accountID, from, err)
	}
	// Insert replaces the row by id and moves its index entries.
	c := *cur
	c.Ordinal = to
	return Put(tx, TableSignatureRequestAccess, &c)
}

// RebuildAccess changes many rows of one account's list at once: the
// requests in drop leave it, the requests in add (request id -> request
// seq) join it, and the ordinals are renumbered in one pass. Moving many
// requests between accounts (team ownership transfers) costs one rewrite
// of each list instead of a shift per request.
func RebuildAccess(tx *Txn, accountID string, drop map[string]bool, add map[string]uint64) error {
	if len(drop) == 0 && len(add) == 0 {
		return nil
	}
	var rows []*model.SignatureRequestAccess
	err := tx.compactRows(accessIndex(), accountID, 0, false, func(raw any) bool {
		rows = append(rows, raw.(*model.SignatureRequestAccess))
		return true
	})
	if err != nil {
		return fmt.Errorf("state: access of %s: %w", accountID, err)
	}
	have := map[string]bool{}
	var keep []model.SignatureRequestAccess
	for _, a := range rows {
		if err := tx.Delete(TableSignatureRequestAccess, a); err != nil {
			return err
		}
		if !drop[a.RequestID] {
			have[a.RequestID] = true
			keep = append(keep, *a)
		}
	}
	for id, seq := range add {
		if !have[id] && !drop[id] {
			have[id] = true
			keep = append(keep, model.SignatureRequestAccess{AccountID: accountID, RequestID: id, RequestSeq: seq})
		}
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].RequestSeq < keep[j].RequestSeq })
	for i := range keep {
		keep[i].Ordinal = uint64(i + 1)
		if err := Put(tx, TableSignatureRequestAccess, &keep[i]); err != nil {
			return err
		}
	}
	return nil
}
