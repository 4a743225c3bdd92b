package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strconv"
)

// pageLimit is how many log entries the runner asks for per page: the
// largest page the control plane serves, so that a step costs few calls.
// Tests lower it to make a small log span several pages.
var pageLimit = 1000

// maxPages bounds how many pages one step reads (a million entries), so a
// server that always answers has_more cannot keep a run going forever.
const maxPages = 1000

// doPaged sends an exchange; for a paged log (ex.list set) it follows
// next_cursor until has_more is false and answers the first page's result
// with the entries of every page in its list, so that a step's expectations
// see the whole log as they did before the log was paged.
func (r *run) doPaged(ex *exchange) (*result, error) {
	if ex.list == "" {
		return r.do(ex)
	}
	q := url.Values{}
	maps.Copy(q, ex.query)
	q.Set("limit", strconv.Itoa(pageLimit))
	page := *ex
	page.query = q
	first, err := r.do(&page)
	if err != nil || first.Status != 200 {
		return first, err
	}
	body, ok := first.Body.(map[string]any)
	if !ok {
		return first, nil
	}
	all, _ := body[ex.list].([]any)
	for n := 1; body["has_more"] == true; n++ {
		if n >= maxPages {
			return nil, fmt.Errorf("%s: more than %d pages", ex.path, maxPages)
		}
		cursor, _ := body["next_cursor"].(string)
		if cursor == "" {
			break
		}
		next := url.Values{}
		maps.Copy(next, q)
		next.Set("cursor", cursor)
		page.query = next
		res, err := r.do(&page)
		if err != nil {
			return nil, err
		}
		if res.Status != 200 {
			return res, nil
		}
		if body, ok = res.Body.(map[string]any); !ok {
			return res, nil
		}
		more, _ := body[ex.list].([]any)
		all = append(all, more...)
	}
	merged := maps.Clone(first.Body.(map[string]any))
	merged[ex.list] = all
	merged["has_more"], merged["next_cursor"] = false, ""
	raw, err := json.Marshal(merged)
	if err != nil {
		return nil, err
	}
	out := *first
	out.Body, out.Raw = merged, raw
	return &out, nil
}
