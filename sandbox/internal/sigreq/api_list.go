package sigreq

import (
	"fmt"
	"math"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerList(r *api.Registry) {
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
	search, e := parseSearchQuery(q.Query)
	if e != nil {
		return nil, e
	}
	tx := c.Read()
	accounts, e := api.ListAccounts(tx, c.Account, q.AccountID)
	if e != nil {
		return nil, e
	}
	var total int
	var rows []*model.SignatureRequest
	if len(accounts) == 1 && search == nil {
		total, rows, err = listPage(tx, accounts[0], page, size)
	} else {
		total, rows, err = listScan(tx, accounts, search, c.Account, page, size)
	}
	if err != nil {
		return nil, err
	}
	// Each row is written as View(row, c.Account.ID) writes it.
	return signatureRequestListResponse{Rows: rows, ListInfo: api.NewListInfo(total, page, size)}, nil
}

// listPage reads one page of an account's list by ordinal: newest first.
// The count and the page's requests come from walks down the account's
// ordinal index (one for the first page, which starts at the newest row;
// two for later pages), which answer each row's request id and ordinal
// without reading the access rows.
func listPage(tx *state.Txn, accountID string, page, size int) (int, []*model.SignatureRequest, error) {
	it := state.NewAccessWalk(tx, accountID, math.MaxUint64)
	requestID, ordinal, ok := it.NextListed()
	if !ok {
		return 0, nil, nil
	}
	total := int(ordinal)
	first := (page - 1) * size
	if first >= total {
		return total, nil, nil
	}
	want := uint64(total - first)
	if first > 0 {
		it = state.NewAccessWalk(tx, accountID, want)
		requestID, ordinal, ok = it.NextListed()
	}
	out := make([]*model.SignatureRequest, 0, min(size, total-first))
	for {
		if !ok || ordinal != want {
			return 0, nil, fmt.Errorf("sigreq: list of %s at %d: %w", accountID, want, state.ErrNotFound)
		}
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, requestID)
		if err != nil {
			return 0, nil, err
		}
		out = append(out, req)
		if len(out) == cap(out) {
			return total, out, nil
		}
		want = want - 1
		requestID, ordinal, ok = it.NextListed()
	}
}

// nextAccess is the walk's next row of the account, nil past its oldest.
// A row the index names but the table does not hold is an error: the
// list would otherwise end early without saying why.
func nextAccess(it *state.AccessWalk, accountID string) (*model.SignatureRequestAccess, error) {
	a, err := it.Next()
	if err != nil {
		return nil, fmt.Errorf("sigreq: list of %s: %w", accountID, err)
	}
	if a == nil || a.AccountID != accountID {
		return nil, nil
	}
	return a, nil
}

// listScan walks the lists of several accounts newest first (merging them
// and dropping duplicates), keeps the requests the query matches, counts
// them and returns the requested page. Without a query (account_id=all)
// only the page's requests are read; the others are just counted.
func listScan(tx *state.Txn, accounts []string, query *search.Query, me *model.Account, page, size int) (int, []*model.SignatureRequest, error) {
	// One walk per account down its ordinal index, newest first.
	type cursor struct {
		account string
		it      *state.AccessWalk
		row     *model.SignatureRequestAccess
	}
	var cursors []*cursor
	for _, id := range accounts {
		it := state.NewAccessWalk(tx, id, math.MaxUint64)
		row, err := nextAccess(it, id)
		if err != nil {
			return 0, nil, err
		}
		cursors = append(cursors, &cursor{account: id, it: it, row: row})
	}
	total := 0
	var out []*model.SignatureRequest
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
		next, err := nextAccess(best.it, best.account)
		if err != nil {
			return 0, nil, err
		}
		best.row = next
		if !first && row.RequestSeq == lastSeq {
			continue
		}
		first, lastSeq = false, row.RequestSeq
		inPage := total >= (page-1)*size && total < page*size
		if query == nil && !inPage {
			total++
			continue
		}
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, row.RequestID)
		if err != nil {
			return 0, nil, err
		}
		if !matches(query, req, me) {
			continue
		}
		if inPage {
			out = append(out, req)
		}
		total++
	}
	return total, out, nil
}
