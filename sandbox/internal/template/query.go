package template

// The fields of the template search (GET /template/list query=...); the
// syntax is package search's, shared with signature requests. Template
// fields, after the reference's table: title, message, metadata, created,
// test_mode, filename and owner (e-mail address or name of the owner, or
// "me"). Free terms match title, message, metadata and filename. Fields of
// signature requests only (to, from, subject, ...) are refused with 400
// naming the query parameter.

import (
	"bytes"
	"encoding/json"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Search lists the fields a template query may name.
var Search = &search.Resource{Fields: map[string]search.Kind{
	"title": search.Text, "message": search.Text, "metadata": search.Text, "filename": search.Text,
	"owner": search.Text, "created": search.Date, "test_mode": search.Flag,
}}

// Filter is a parsed template query; the zero filter matches every
// template.
type Filter struct{ q *search.Query }

// ParseQuery parses a query ("" matches every template).
func ParseQuery(q string) (Filter, error) {
	sq, e := Search.Parse(q)
	if e != nil {
		return Filter{}, e
	}
	return Filter{q: sq}, nil
}

// Match evaluates the filter on a template; viewer resolves owner:me.
func (f Filter) Match(tx *state.Txn, t *model.Template, viewer string) bool {
	var meta map[string]any
	decoded := false
	metadata := func() map[string]any {
		if !decoded {
			meta, decoded = templateMetadataMap(t.Metadata), true
		}
		return meta
	}
	return f.q.Eval(func(n *search.Term) bool {
		switch n.Field {
		case "title":
			return n.Has(t.Title)
		case "message":
			return n.Has(t.Message)
		case "metadata":
			return search.MatchMetadata(metadata(), n)
		case "filename":
			return search.MatchDocumentNames(t.Documents, n)
		case "test_mode":
			return t.TestMode == n.Flag
		case "created":
			return n.Range.Match(t.CreatedAt)
		case "owner":
			if n.Value == "me" {
				return t.OwnerID == viewer
			}
			a, err := state.Get[model.Account](tx, state.TableAccounts, t.OwnerID)
			return err == nil && (n.Has(a.Email) || n.Has(a.Name))
		}
		return n.Has(t.Title) || n.Has(t.Message) || search.MatchMetadata(metadata(), n) || search.MatchDocumentNames(t.Documents, n)
	})
}

// templateMetadataMap reads a template's stored metadata, numbers exact.
func templateMetadataMap(raw json.RawMessage) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}
