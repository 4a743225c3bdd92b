package state

// The list access of signature requests: per account, dense ordinals in
// request creation order (TableSignatureRequestAccess).

import (
	"fmt"
	"sort"
)

// AccessCount is the number of requests in an account's list.
func AccessCount(tx *Txn, accountID string) (uint64, error) {
	raw, err := tx.Txn.Last(TableSignatureRequestAccess, IndexAccountOrdinal+"_prefix", accountID)
	if err != nil {
		return 0, fmt.Errorf("state: access count: %w", err)
	}
	if raw == nil {
		return 0, nil
	}
	return raw.(*SignatureRequestAccess).Ordinal, nil
}

// AccessAt returns the access row of an account at an ordinal.
func AccessAt(tx *Txn, accountID string, ordinal uint64) (*SignatureRequestAccess, error) {
	return First[SignatureRequestAccess](tx, TableSignatureRequestAccess, IndexAccountOrdinal, accountID, ordinal)
}

// AddAccess puts a request in an account's list, keeping ordinals dense and
// in request creation order. A request newer than all others (the usual
// case) costs one insert; an older one shifts the newer rows up.
func AddAccess(tx *Txn, accountID, requestID string, requestSeq uint64) error {
	if _, err := Get[SignatureRequestAccess](tx, TableSignatureRequestAccess, AccessID(accountID, requestID)); err == nil {
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
	return Put(tx, TableSignatureRequestAccess, &SignatureRequestAccess{
		AccountID: accountID, RequestID: requestID, RequestSeq: requestSeq, Ordinal: pos,
	})
}

// RemoveAccess takes a request out of an account's list; the newer rows
// move down so that ordinals stay dense.
func RemoveAccess(tx *Txn, accountID, requestID string) error {
	row, err := Get[SignatureRequestAccess](tx, TableSignatureRequestAccess, AccessID(accountID, requestID))
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
	it, err := tx.Txn.Get(TableSignatureRequestAccess, IndexAccountOrdinal+"_prefix", accountID)
	if err != nil {
		return fmt.Errorf("state: access of %s: %w", accountID, err)
	}
	var rows []*SignatureRequestAccess
	for raw := it.Next(); raw != nil; raw = it.Next() {
		if a := raw.(*SignatureRequestAccess); a.AccountID == accountID {
			rows = append(rows, a)
		}
	}
	have := map[string]bool{}
	var keep []SignatureRequestAccess
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
			keep = append(keep, SignatureRequestAccess{AccountID: accountID, RequestID: id, RequestSeq: seq})
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
