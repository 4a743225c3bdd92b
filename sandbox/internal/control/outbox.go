package control

import (
	"errors"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/mailrelay"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterOutbox adds the outbox: the list of the e-mails a world has
// sent, each e-mail as the message a recipient receives (message/rfc822)
// and its HTML and text parts, marking one read, and emptying it.
func RegisterOutbox(r *api.Registry) {
	r.Control(http.MethodGet, "/emails", controlListEmails)
	r.ControlNoBody(http.MethodDelete, "/emails", controlClearEmails)
	r.Control(http.MethodGet, "/emails/{id}", controlEmailMessage)
	r.Control(http.MethodGet, "/emails/{id}/html", controlEmailHTML)
	r.Control(http.MethodGet, "/emails/{id}/text", controlEmailText)
	r.Control(http.MethodPatch, "/emails/{id}", controlMarkEmail)
}

// controlListEmails answers a page of the outbox (limit, cursor, order as
// for the callback log); filters: to, kind, signature_request_id, and q,
// a search as the console's (mail.Query).
func controlListEmails(c *api.Call) (any, error) {
	q := c.Request.URL.Query()
	page, field, err := state.ParsePageQuery(q.Get("limit"), q.Get("cursor"), q.Get("order"))
	if err != nil {
		return nil, apierr.Badf(field, "%v", err)
	}
	to, kind, requestID, search := q.Get("to"), q.Get("kind"), q.Get("signature_request_id"), mail.ParseQuery(q.Get("q"))
	rows, err := state.PageEmails(c.Read(), requestID, page, func(e *model.Email) bool {
		return (to == "" || strings.EqualFold(to, e.To)) && (kind == "" || kind == e.Kind) && search.Match(e)
	})
	if err != nil {
		return nil, err
	}
	out := make([]mail.Summary, 0, len(rows.Rows))
	for _, e := range rows.Rows {
		out = append(out, Summarize(c, e))
	}
	return map[string]any{"emails": out, "limit": page.Limit, "order": api.PageOrder(page), "has_more": rows.Next != 0,
		"next_cursor": rows.Cursor()}, nil
}

// Summarize is an e-mail as the outbox lists it, with its delivery state
// at the SMTP relay when the sandbox has one.
func Summarize(c *api.Call, e *model.Email) mail.Summary {
	if st := mailrelay.Delivery(c.World, e); st != nil {
		return mail.Summarize(e, st)
	}
	return mail.Summarize(e, nil)
}

// controlClearEmails empties the outbox.
func controlClearEmails(c *api.Call) (any, error) {
	var n int
	err := c.Update(func(tx *state.Txn) (err error) {
		n, err = state.ClearEmails(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"deleted": n}, nil
}

// outboxEmail reads one e-mail of the caller's outbox (404 when it holds
// none of that id).
func outboxEmail(c *api.Call) (*model.Email, error) {
	e, err := state.Get[model.Email](c.Read(), state.TableEmails, c.Param("id"))
	if errors.Is(err, state.ErrNotFound) {
		return nil, apierr.NotFoundf("The outbox holds no e-mail %s.", c.Param("id")).WithPath("id")
	}
	return e, err
}

// controlEmailMessage answers an e-mail as the message its recipient
// receives, source and all.
func controlEmailMessage(c *api.Call) (any, error) {
	e, err := outboxEmail(c)
	if err != nil {
		return nil, err
	}
	h := http.Header{
		"Content-Disposition":    {`inline; filename="` + e.ID + `.eml"`},
		"X-Content-Type-Options": {"nosniff"},
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: "message/rfc822", Header: h, Body: mail.Compose(e)}, nil
}

// htmlPolicy is the content security policy of an e-mail's HTML part
// served on its own: inline styles (which e-mails use) and images, no
// script, no form, no plugin, and a sandbox whose links open in a new
// browsing context outside it.
const htmlPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; base-uri 'none'; " +
	"form-action 'none'; frame-ancestors 'self'; sandbox allow-popups allow-popups-to-escape-sandbox"

// controlEmailHTML answers an e-mail's HTML part as a page.
func controlEmailHTML(c *api.Call) (any, error) {
	e, err := outboxEmail(c)
	if err != nil {
		return nil, err
	}
	h := http.Header{
		"Content-Security-Policy": {htmlPolicy},
		"X-Content-Type-Options":  {"nosniff"},
		"Referrer-Policy":         {"no-referrer"},
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: "text/html; charset=utf-8", Header: h, Body: []byte(mail.HTML(e))}, nil
}

// controlEmailText answers an e-mail's text part.
func controlEmailText(c *api.Call) (any, error) {
	e, err := outboxEmail(c)
	if err != nil {
		return nil, err
	}
	h := http.Header{"X-Content-Type-Options": {"nosniff"}}
	return &api.RawResponse{Status: http.StatusOK, ContentType: "text/plain; charset=utf-8", Header: h, Body: []byte(mail.Text(e))}, nil
}

// controlMarkEmail marks an e-mail read or unread: {"read": true|false}.
func controlMarkEmail(c *api.Call) (any, error) {
	var in struct {
		Read *bool `json:"read"`
	}
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	if in.Read == nil {
		return nil, apierr.Missing("read")
	}
	var e *model.Email
	err := c.Update(func(tx *state.Txn) (err error) {
		e, err = state.SetEmailRead(tx, c.Param("id"), *in.Read)
		return err
	})
	if errors.Is(err, state.ErrNotFound) {
		return nil, apierr.NotFoundf("The outbox holds no e-mail %s.", c.Param("id")).WithPath("id")
	}
	if err != nil {
		return nil, err
	}
	return Summarize(c, e), nil
}
