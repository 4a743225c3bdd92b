package mail

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Query is a search of the outbox, as a mail client's search box takes
// it: words that must all match (case-insensitively, anywhere in the
// e-mail: recipient, sender, subject, kind, the text of its body), a
// phrase in double quotes matching as one, and field:value terms that
// look in one place: to:, from:, subject:, kind: (exact), body:, id:,
// request: (the signature request's id), is:read, is:unread,
// is:bounced.
type Query struct{ terms []term }

type term struct{ field, value string }

// queryFields are the fields a term may name; any other "x:y" is a word.
var queryFields = map[string]bool{"to": true, "from": true, "subject": true, "kind": true, "body": true,
	"id": true, "request": true, "is": true}

// maxQueryTerms bounds the terms of a query: more are ignored.
const maxQueryTerms = 32

// ParseQuery reads a search.
func ParseQuery(q string) Query {
	var out Query
	for _, word := range splitQuery(q) {
		t := term{value: strings.ToLower(word)}
		if i := strings.IndexByte(word, ':'); i > 0 && queryFields[strings.ToLower(word[:i])] {
			t.field, t.value = strings.ToLower(word[:i]), strings.ToLower(strings.Trim(word[i+1:], `"`))
		}
		if t.value != "" && len(out.terms) < maxQueryTerms {
			out.terms = append(out.terms, t)
		}
	}
	return out
}

// splitQuery splits at spaces outside double quotes; quotes around a
// phrase go.
func splitQuery(q string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
		case (r == ' ' || r == '\t' || r == '\n') && !quoted:
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// Empty reports whether the query keeps every e-mail.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// Match reports whether e matches every term. The text of the body is
// composed only for a term nothing else matched.
func (q Query) Match(e *model.Email) bool {
	var body string
	text := func() string {
		if body == "" {
			body = strings.ToLower(Text(e))
		}
		return body
	}
	has := func(v string, in ...string) bool {
		for _, s := range in {
			if strings.Contains(strings.ToLower(s), v) {
				return true
			}
		}
		return false
	}
	for _, t := range q.terms {
		var ok bool
		switch t.field {
		case "to":
			ok = has(t.value, e.To, e.Name)
		case "from":
			ok = has(t.value, fromName(e), e.ReplyTo)
		case "subject":
			ok = has(t.value, e.Subject)
		case "kind":
			ok = strings.EqualFold(t.value, e.Kind)
		case "body":
			ok = strings.Contains(text(), t.value)
		case "id":
			ok = strings.EqualFold(t.value, e.ID)
		case "request":
			ok = strings.EqualFold(t.value, e.SignatureRequestID)
		case "is":
			ok = t.value == "read" && e.Read || t.value == "unread" && !e.Read || t.value == "bounced" && e.Bounced
		default:
			ok = has(t.value, e.To, e.Name, e.Subject, e.Kind, fromName(e), e.ReplyTo) || strings.Contains(text(), t.value)
		}
		if !ok {
			return false
		}
	}
	return true
}

// Summary is an e-mail as the outbox lists it: the stored record, plus
// the headers a person looks for and, with an SMTP relay, how its
// delivery stands.
type Summary struct {
	*model.Email
	From      string `json:"from"`
	MessageID string `json:"message_id"`
	// Read is always shown (the stored field is left out when false).
	Read     bool `json:"read"`
	Delivery any  `json:"delivery,omitempty"`
}

// Summarize is e's Summary with its delivery state (nil: no relay).
func Summarize(e *model.Email, delivery any) Summary {
	return Summary{Email: e, From: From(e), MessageID: MessageID(e), Read: e.Read, Delivery: delivery}
}

// Detail is an e-mail as the console opens it: its summary and its
// header fields, decoded.
type Detail struct {
	Summary
	Headers []Header `json:"headers"`
}
