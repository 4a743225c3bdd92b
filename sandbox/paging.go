package sandbox

// Paging of the list operations: page and page_size as the official
// description bounds them, ListInfoResponse, and the account_id of the
// signature request and template lists. Signature requests,
// templates, teams, API apps, faxes, fax lines and bulk send jobs all page
// the same way.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Paging bounds of list operations.
const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// pagingQuery is the page and page_size query parameters; list queries
// with more parameters embed it.
type pagingQuery struct {
	Page     *int `json:"page"`
	PageSize *int `json:"page_size"`
}

// bounds checks page (>= 1, default 1) and page_size (1..100, default 20).
func (q pagingQuery) bounds() (page, size int, err error) {
	page, size = 1, defaultPageSize
	if q.Page != nil {
		if *q.Page < 1 {
			return 0, 0, apierr.Badf("page", "page must be 1 or more (got %d).", *q.Page)
		}
		page = *q.Page
	}
	if q.PageSize != nil {
		if *q.PageSize < 1 || *q.PageSize > maxPageSize {
			return 0, 0, apierr.Badf("page_size", "page_size must be between 1 and %d (got %d).", maxPageSize, *q.PageSize)
		}
		size = *q.PageSize
	}
	return page, size, nil
}

// readPaging reads and checks the page and page_size of a list call's
// query.
func readPaging(c *call) (page, size int, err error) {
	var q pagingQuery
	if err := c.query(&q); err != nil {
		return 0, 0, err
	}
	return q.bounds()
}

// listQuery is the query string of GET /signature_request/list and
// GET /template/list.
type listQuery struct {
	AccountID string `json:"account_id"`
	pagingQuery
	Query string `json:"query"`
}

// readListQuery reads a list query with its checked page and page_size.
func readListQuery(c *call) (q listQuery, page, size int, err error) {
	if err := c.query(&q); err != nil {
		return q, 0, 0, err
	}
	page, size, err = q.bounds()
	return q, page, size, err
}

// listInfoResponse is ListInfoResponse.
type listInfoResponse struct {
	NumPages   int `json:"num_pages"`
	NumResults int `json:"num_results"`
	Page       int `json:"page"`
	PageSize   int `json:"page_size"`
}

// newListInfo describes page of size out of total results; num_pages is 0
// when there are none.
func newListInfo(total, page, size int) listInfoResponse {
	return listInfoResponse{NumPages: (total + size - 1) / size, NumResults: total, Page: page, PageSize: size}
}

// pageSlice cuts one page out of rows and describes it. A page past the end
// is empty.
func pageSlice[T any](rows []T, page, size int) ([]T, listInfoResponse) {
	n := len(rows)
	info := newListInfo(n, page, size)
	start := (page - 1) * size
	if start >= n {
		return []T{}, info
	}
	end := min(start+size, n)
	return rows[start:end], info
}

// listAccounts resolves the account_id of the signature request and
// template lists: the caller (default), a member of the caller's team, or
// "all" for the whole team (members in account id order).
func listAccounts(tx *state.Txn, me *state.Account, accountID string) ([]string, *apierr.Error) {
	switch accountID {
	case "", me.ID:
		return []string{me.ID}, nil
	case "all":
		if me.TeamID == "" {
			return []string{me.ID}, nil
		}
		members, err := state.All[state.Account](tx, state.TableAccounts, state.IndexTeam, me.TeamID)
		if err != nil {
			return nil, apierr.Badf("account_id", "Cannot list the team: %v", err)
		}
		out := make([]string, 0, len(members))
		for _, m := range members {
			out = append(out, m.ID)
		}
		slices.Sort(out)
		return out, nil
	}
	if !sameTeam(tx, me.ID, accountID) {
		return nil, apierr.Forbiddenf("account_id must be your account, a member of your team, or all.").WithPath("account_id")
	}
	return []string{accountID}, nil
}
