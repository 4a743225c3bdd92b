package sandboxtest

// Paging of the control plane's logs: GET /_sandbox/callbacks and
// /_sandbox/emails answer pages (limit, cursor, order). Callbacks and
// Emails walk every page, so a test sees the whole log however long it is;
// CallbacksPage and EmailsPage answer one.

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
)

// PageOptions asks for one page of a log.
type PageOptions struct {
	// Limit is the most entries (the sandbox's default, 100, when 0).
	Limit int
	// Cursor is the next cursor of the previous page ("" for the first).
	Cursor string
	// NewestFirst walks the log from its end.
	NewestFirst bool
}

// pageSize is the limit the walking helpers ask for (the sandbox's most).
const pageSize = 1000

// logPage is the paging part of a log answer.
type logPage struct {
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor"`
}

// query adds the page options to q.
func (p PageOptions) query(q url.Values) {
	if p.Limit > 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	if p.NewestFirst {
		q.Set("order", "desc")
	}
}

// page asks for one page of a control-plane log and decodes its entries
// from field; it answers the next cursor ("" after the last page).
func (s *Server) page(path string, q url.Values, p PageOptions, field string, into any) string {
	s.t.Helper()
	p.query(q)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var raw map[string]json.RawMessage
	s.Control(http.MethodGet, path, nil, &raw)
	if err := json.Unmarshal(raw[field], into); err != nil {
		s.t.Fatalf("sandboxtest: decode %s of %s: %v", field, path, err)
	}
	var lp logPage
	for k, v := range map[string]any{"has_more": &lp.HasMore, "next_cursor": &lp.NextCursor} {
		if b, ok := raw[k]; ok {
			if err := json.Unmarshal(b, v); err != nil {
				s.t.Fatalf("sandboxtest: decode %s of %s: %v", k, path, err)
			}
		}
	}
	if !lp.HasMore {
		return ""
	}
	return lp.NextCursor
}

// walk collects every page of a log, oldest first.
func walk[T any](s *Server, path string, q url.Values, field string) []T {
	s.t.Helper()
	out := []T{}
	p := PageOptions{Limit: pageSize}
	for {
		var rows []T
		next := s.page(path, cloneValues(q), p, field, &rows)
		out = append(out, rows...)
		if next == "" {
			return out
		}
		p.Cursor = next
	}
}

func cloneValues(q url.Values) url.Values {
	c := url.Values{}
	for k, v := range q {
		c[k] = append([]string(nil), v...)
	}
	return c
}

// CallbacksPage returns one page of the callback log and the cursor of the
// next ("" when it is the last).
func (s *Server) CallbacksPage(p PageOptions, filters ...CallbackFilter) ([]Callback, string) {
	s.t.Helper()
	var rows []Callback
	next := s.page("/callbacks", callbackQuery(filters), p, "callbacks", &rows)
	return rows, next
}

// EmailsPage returns one page of the outbox and the cursor of the next
// ("" when it is the last). filters are query pairs as for Emails.
func (s *Server) EmailsPage(p PageOptions, filters ...string) ([]Email, string) {
	s.t.Helper()
	var rows []Email
	next := s.page("/emails", emailQuery(filters), p, "emails", &rows)
	return rows, next
}

func callbackQuery(filters []CallbackFilter) url.Values {
	q := url.Values{}
	for _, f := range filters {
		q.Set(f.Key, f.Value)
	}
	return q
}

func emailQuery(filters []string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(filters); i += 2 {
		q.Set(filters[i], filters[i+1])
	}
	return q
}
