package api

// Paging of the list operations: page and page_size as the official
// description bounds them, ListInfoResponse, and the account_id of the
// signature request and template lists. Signature requests,
// templates, teams, API apps, faxes, fax lines and bulk send jobs all page
// the same way.

import (
	"slices"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Paging bounds of list operations.
const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// PagingQuery is the page and page_size query parameters; list queries
// with more parameters embed it.
type PagingQuery struct {
	Page     *int `json:"page"`
	PageSize *int `json:"page_size"`
}

// Bounds checks page (>= 1, default 1) and page_size (1..100, default 20).
func (q PagingQuery) Bounds() (page, size int, err error) {
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

// ReadPaging reads and checks the page and page_size of a list call's
// query.
func ReadPaging(c *Call) (page, size int, err error) {
	var q PagingQuery
	if err := c.Query(&q); err != nil {
		return 0, 0, err
	}
	return q.Bounds()
}

// listQuery is the query string of GET /signature_request/list and
// GET /template/list.
type listQuery struct {
	AccountID string `json:"account_id"`
	PagingQuery
	Query string `json:"query"`
}

// ReadListQuery reads a list query with its checked page and page_size.
func ReadListQuery(c *Call) (q listQuery, page, size int, err error) {
	if err := c.Query(&q); err != nil {
		return q, 0, 0, err
	}
	page, size, err = q.Bounds()
	return q, page, size, err
}

// ListInfoResponse is ListInfoResponse.
type ListInfoResponse struct {
	NumPages   int `json:"num_pages"`
	NumResults int `json:"num_results"`
	Page       int `json:"page"`
	PageSize   int `json:"page_size"`
}

// AppendJSON writes ListInfoResponse as encoding/json does, for answers
// that write themselves (jsonenc.Appender).
func (l ListInfoResponse) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"num_pages":`...)
	dst = strconv.AppendInt(dst, int64(l.NumPages), 10)
	dst = append(dst, `,"num_results":`...)
	dst = strconv.AppendInt(dst, int64(l.NumResults), 10)
	dst = append(dst, `,"page":`...)
	dst = strconv.AppendInt(dst, int64(l.Page), 10)
	dst = append(dst, `,"page_size":`...)
	dst = strconv.AppendInt(dst, int64(l.PageSize), 10)
	return append(dst, '}')
}

// NewListInfo describes page of size out of total results; num_pages is 0
// when there are none.
func NewListInfo(total, page, size int) ListInfoResponse {
	return ListInfoResponse{NumPages: (total + size - 1) / size, NumResults: total, Page: page, PageSize: size}
}

// PageSlice cuts one page out of rows and describes it. A page past the end
// is empty.
func PageSlice[T any](rows []T, page, size int) ([]T, ListInfoResponse) {
	n := len(rows)
	info := NewListInfo(n, page, size)
	start := (page - 1) * size
	if start >= n {
		return []T{}, info
	}
	end := min(start+size, n)
	return rows[start:end], info
}

// ListAccounts resolves the account_id of the signature request and
// template lists: the caller (default), a member of the caller's team, or
// "all" for the whole team (members in account id order).
func ListAccounts(tx *state.Txn, me *model.Account, accountID string) ([]string, *apierr.Error) {
	switch accountID {
	case "", me.ID:
		return []string{me.ID}, nil
	case "all":
		if me.TeamID == "" {
			return []string{me.ID}, nil
		}
		members, err := state.All[model.Account](tx, state.TableAccounts, state.IndexTeam, me.TeamID)
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
	if !SameTeam(tx, me.ID, accountID) {
		return nil, apierr.Forbiddenf("account_id must be your account, a member of your team, or all.").WithPath("account_id")
	}
	return []string{accountID}, nil
}

// PageOrder names the order of a page of a control log (callbacks,
// outbox).
func PageOrder(q state.PageQuery) string {
	if q.Desc {
		return "desc"
	}
	return "asc"
}
