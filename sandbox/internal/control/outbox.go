package control

import (
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterOutbox adds the list of the e-mails a world has sent.
func RegisterOutbox(r *api.Registry) {
	r.Control(http.MethodGet, "/emails", controlListEmails)
}

// controlListEmails answers a page of the outbox (limit, cursor, order as
// for the callback log); filters: to, kind, signature_request_id.
func controlListEmails(c *api.Call) (any, error) {
	q := c.Request.URL.Query()
	page, field, err := state.ParsePageQuery(q.Get("limit"), q.Get("cursor"), q.Get("order"))
	if err != nil {
		return nil, apierr.Badf(field, "%v", err)
	}
	to, kind, requestID := q.Get("to"), q.Get("kind"), q.Get("signature_request_id")
	rows, err := state.PageEmails(c.Read(), requestID, page, func(e *state.Email) bool {
		return (to == "" || strings.EqualFold(to, e.To)) && (kind == "" || kind == e.Kind)
	})
	if err != nil {
		return nil, err
	}
	out := rows.Rows
	if out == nil {
		out = []*state.Email{}
	}
	return map[string]any{"emails": out, "limit": page.Limit, "order": api.PageOrder(page), "has_more": rows.Next != 0,
		"next_cursor": rows.Cursor()}, nil
}
