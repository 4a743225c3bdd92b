package search

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// doc is an object a list would search.
type doc struct {
	id       string
	title    string
	complete bool
	created  int64
	metadata map[string]any
}

var testResource = &Resource{Fields: map[string]Kind{
	"title": Text, "complete": Flag, "created": Date, "metadata": Text,
}}

func day(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

var docs = []doc{
	{id: "a", title: "Field Trip consent", complete: true, created: day("2026-03-01T09:00:00Z"), metadata: map[string]any{"Client": "Acme"}},
	{id: "b", title: "NDA for Acme", complete: false, created: day("2026-03-02T00:00:00Z")},
	{id: "c", title: "Lease", complete: false, created: day("2026-03-03T23:59:59Z"), metadata: map[string]any{"ref": 42.0}},
}

// match is the matcher a list gives Eval: free terms search titles.
func (d doc) match(t *Term) bool {
	switch t.Field {
	case "", "title":
		return t.Has(d.title)
	case "complete":
		return d.complete == t.Flag
	case "created":
		return t.Range.Match(d.created)
	case "metadata":
		return MatchMetadata(d.metadata, t)
	}
	return false
}

// TestQueryMatches: the syntax of the official search reference, evaluated
// over a few objects.
func TestQueryMatches(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"", "abc"},
		{"   ", "abc"},
		{"lease", "c"},
		{"LEASE", "c"},
		{"title:acme", "b"},
		{"TITLE:acme", "b"},
		{"acme OR lease", "bc"},
		{"nda AND acme", "b"},
		{"nda acme", "b"},
		{"field trip", "a"},
		{`title:"field trip"`, "a"},
		{`"trip consent"`, "a"},
		{"le*", "c"},
		{"complete:true", "a"},
		{"complete:1", "a"},
		{"complete:false", "bc"},
		{"nda OR lease AND complete:false", "bc"},
		{"(nda OR lease) AND complete:true", ""},
		{"(nda OR field) complete:true", "a"},
		{"created:2026-03-02", "b"},
		{"created:[2026-03-02 TO *]", "bc"},
		{"created:{2026-03-02 TO *]", "c"},
		{"created:[* TO 2026-03-02]", "ab"},
		{"created:[* TO 2026-03-02}", "a"},
		{"created:{2026-03-01T09:00:00Z TO 2026-03-03}", "b"},
		{"created:[2026-03-01T09:00:00Z TO 2026-03-01T09:00:00Z]", "a"},
		{"created:1772409600", "b"}, // 2026-03-02T00:00:00Z in Unix seconds
		{"metadata:acme", "a"},
		{"metadata:client:acme", "a"},
		{"metadata:ref:42", "c"},
		{"metadata:ref:acme", ""},
	} {
		q, err := testResource.Parse(tc.q)
		require.Nil(t, err, "%q: %v", tc.q, err)
		var got strings.Builder
		for _, d := range docs {
			if q.Eval(d.match) {
				got.WriteString(d.id)
			}
		}
		assert.Equal(t, tc.want, got.String(), "%q", tc.q)
	}
}

// TestQueryErrors: every mistake is a 400 bad_request naming the query
// parameter and saying what is wrong.
func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct{ q, msg string }{
		{`title:"open`, "unclosed quote"},
		{"created:[2026-01-01 TO 2026-02-01", "unclosed range"},
		{"owner:me", `the field "owner" applies to templates only`},
		{"to:x@example.com", `the field "to" applies to signature requests only`},
		{"colour:red", `unknown field "colour"`},
		{"title:", `"title:" has no value`},
		{"*trip", "leading wildcards are not valid"},
		{"complete:maybe", "complete takes true or false"},
		{"created:yesterday", "created takes a date"},
		{"created:[2026-01-01 2026-02-01]", "a range is written [from TO to]"},
		{"created:[soon TO *]", `"soon" is not a date`},
		{"title:[a TO b]", "ranges apply to dates only"},
		{"lease AND", "a term is missing at the end"},
		{"OR lease", "OR needs a term on both sides"},
		{"(lease", "unclosed ("},
		{"lease)", `unexpected ")"`},
		{strings.Repeat("(", 33) + "x" + strings.Repeat(")", 33), "parentheses nest more than 32 levels deep"},
	} {
		q, err := testResource.Parse(tc.q)
		assert.Nil(t, q, tc.q)
		if assert.NotNil(t, err, tc.q) {
			assert.Equal(t, apierr.BadRequest, err.Name, tc.q)
			assert.Equal(t, "query", err.Path, tc.q)
			assert.Contains(t, err.Msg, "Invalid search query: "+tc.msg, tc.q)
		}
	}
	// 32 levels are fine.
	_, err := testResource.Parse(strings.Repeat("(", 32) + "x" + strings.Repeat(")", 32))
	assert.Nil(t, err)
}

// A nil query (a blank one) matches everything.
func TestNilQueryMatchesAll(t *testing.T) {
	var q *Query
	assert.True(t, q.Eval(func(*Term) bool { return false }))
}
