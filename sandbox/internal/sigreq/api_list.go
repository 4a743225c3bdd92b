package sigreq

import (
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterList(r *api.Registry) {
	r.Handle("signatureRequestList", signatureRequestList)
}

// signatureRequestList lists the requests the caller (or a team member, or
// the whole team) sent or received, newest first. Without a query a page
// costs page_size index lookups whatever the world holds; a query or
// account_id=all scans the accounts' lists.
func signatureRequestList(c *api.Call) (any, error) {
	q, page, size, err := api.ReadListQuery(c)
	if err != nil {
		return nil, err
	}
	search, e := ParseSearchQuery(q.Query)
	if e != nil {
		return nil, e
	}
	tx := c.Read()
	accounts, e := api.ListAccounts(tx, c.Account, q.AccountID)
	if e != nil {
		return nil, e
	}
	var total int
	var rows []*state.SignatureRequest
	if len(accounts) == 1 && search == nil {
		total, rows, err = ListPage(tx, accounts[0], page, size)
	} else {
		total, rows, err = ListScan(tx, accounts, search, c.Account, page, size)
	}
	if err != nil {
		return nil, err
	}
	// Each row is written as View(row, c.Account.ID) writes it.
	return signatureRequestListResponse{Rows: rows, ListInfo: api.NewListInfo(total, page, size)}, nil
}

// ListPage reads one page of an account's list by ordinal: newest first.
// The page's access rows come from one walk down the account's ordinal
// index from the page's newest ordinal, rather than one index lookup per
// row: each lookup builds its key and an index reader, objects every
// page would leave to the garbage collector.
func ListPage(tx *state.Txn, accountID string, page, size int) (int, []*state.SignatureRequest, error) {
	n, err := state.AccessCount(tx, accountID)
	if err != nil {
		return 0, nil, err
	}
	total := int(n)
	first := (page - 1) * size
	if first >= total {
		return total, nil, nil
	}
	want := uint64(total - first)
	it, err := tx.Txn.ReverseLowerBound(state.TableSignatureRequestAccess, state.IndexAccountOrdinal, accountID, want)
	if err != nil {
		return 0, nil, fmt.Errorf("sigreq: list of %s: %w", accountID, err)
	}
	out := make([]*state.SignatureRequest, 0, min(size, total-first))
	for len(out) < cap(out) {
		raw := it.Next()
		a, _ := raw.(*state.SignatureRequestAccess)
		if a == nil || a.AccountID != accountID || a.Ordinal != want {
			return 0, nil, fmt.Errorf("sigreq: list of %s at %d: %w", accountID, want, state.ErrNotFound)
		}
		req, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, a.RequestID)
		if err != nil {
			return 0, nil, err
		}
		out = append(out, req)
		want--
	}
	return total, out, nil
}

// ListScan walks the lists of several accounts newest first (merging them
// and dropping duplicates), keeps the requests the query matches, counts
// them and returns the requested page. Without a query (account_id=all)
// only the page's requests are read; the others are just counted.
func ListScan(tx *state.Txn, accounts []string, query *search.Query, me *state.Account, page, size int) (int, []*state.SignatureRequest, error) {
	type cursor struct {
		account string
		ord     uint64
		row     *state.SignatureRequestAccess
	}
	var cursors []*cursor
	advance := func(cu *cursor) error {
		cu.row = nil
		if cu.ord == 0 {
			return nil
		}
		a, err := state.AccessAt(tx, cu.account, cu.ord)
		if err != nil {
			return err
		}
		cu.row, cu.ord = a, cu.ord-1
		return nil
	}
	for _, id := range accounts {
		n, err := state.AccessCount(tx, id)
		if err != nil {
			return 0, nil, err
		}
		cu := &cursor{account: id, ord: n}
		if err := advance(cu); err != nil {
			return 0, nil, err
		}
		cursors = append(cursors, cu)
	}
	total := 0
	var out []*state.SignatureRequest
	lastSeq, first := uint64(0), true
	for {
		var best *cursor
		for _, cu := range cursors {
			if cu.row != nil && (best == nil || cu.row.RequestSeq > best.row.RequestSeq) {
				best = cu
			}
		}
		if best == nil {
			break
		}
		row := best.row
		if err := advance(best); err != nil {
			return 0, nil, err
		}
		if !first && row.RequestSeq == lastSeq {
			continue
		}
		first, lastSeq = false, row.RequestSeq
		inPage := total >= (page-1)*size && total < page*size
		if query == nil && !inPage {
			total++
			continue
		}
		req, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, row.RequestID)
		if err != nil {
			return 0, nil, err
		}
		if !Matches(query, req, me) {
			continue
		}
		if inPage {
			out = append(out, req)
		}
		total++
	}
	return total, out, nil
}
