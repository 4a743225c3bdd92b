package search

// The search syntax of the query parameter of GET /signature_request/list
// and GET /template/list, after the official search reference: one
// tokenizer and parser for both lists, which differ only in the fields they
// may name and how a field matches (Resource; the matchers are in
// internal/sigreq/query.go and internal/template/query.go, dates in dates.go).
//
// Syntax: field:value terms and free terms; AND / OR (case-sensitive, AND
// binding tighter, adjacent terms meaning AND); parentheses; quoted phrases
// (field:"two words"); trailing * wildcards (leading ones are invalid);
// dates and date ranges, [a TO b] inclusive and {a TO b} exclusive, with *
// for an open end. Matching is case-insensitive containment.
//
// Edges, the same for both lists: a field value is one word or one quoted
// phrase (title:Field Trip is title:Field AND the free terms Trip); fields
// the other list has are refused naming that list; boolean fields take
// true/false/1/0; a date is YYYY-MM-DD (a whole day), a date and time
// (RFC 3339, or YYYY-MM-DD[T ]hh:mm[:ss] in UTC) or Unix seconds; ranges
// are refused on fields that are not dates.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
)

// maxSearchDepth bounds the nesting of parentheses in a query.
const maxSearchDepth = 32

// Kind is how a field's value is read.
type Kind int

const (
	Text Kind = iota // containment
	Flag             // true/false
	Date             // a date or a range of dates
)

// Resource is what one list may search.
type Resource struct {
	Fields map[string]Kind
}

// searchFieldOnly names the list each one-list field of the reference's
// table belongs to, for the error of a field the other list has.
var searchFieldOnly = map[string]string{
	"to": "signature requests", "from": "signature requests", "subject": "signature requests",
	"complete": "signature requests", "declined": "signature requests",
	"awaiting_my_signature": "signature requests", "template": "signature requests",
	"owner": "templates",
}

// Query is a parsed query; nil matches everything.
type Query struct{ root searchNode }

// searchNode is a node of a parsed query: searchAnd, searchOr or a
// *Term. match tells whether one term matches the object at hand.
type searchNode interface {
	eval(match func(t *Term) bool) bool
}

type searchAnd []searchNode
type searchOr []searchNode

func (n searchAnd) eval(match func(*Term) bool) bool {
	for _, c := range n {
		if !c.eval(match) {
			return false
		}
	}
	return true
}

func (n searchOr) eval(match func(*Term) bool) bool {
	for _, c := range n {
		if c.eval(match) {
			return true
		}
	}
	return false
}

// Term is field:value (Field "" for free terms).
type Term struct {
	Field string
	Value string     // text fields: lower-cased, trailing wildcard removed
	Flag  bool       // boolean fields
	Range *DateRange // date fields
}

func (t *Term) eval(match func(*Term) bool) bool { return match(t) }

// Has reports whether s contains the term's value, ignoring case.
func (t *Term) Has(s string) bool { return searchContains(s, t.Value) }

// Eval evaluates the query with a per-resource term matcher.
func (q *Query) Eval(match func(*Term) bool) bool {
	if q == nil || q.root == nil {
		return true
	}
	return q.root.eval(match)
}

func searchContains(hay, needle string) bool { return strings.Contains(strings.ToLower(hay), needle) }

func queryErr(format string, args ...any) *apierr.Error {
	return apierr.Badf("query", "Invalid search query: "+format+".", args...)
}

// Parse parses a query for this resource; a blank query is nil. Errors
// name the query parameter.
func (r *Resource) Parse(q string) (*Query, *apierr.Error) {
	toks, e := tokenizeQuery(q)
	if e != nil {
		return nil, e
	}
	if len(toks) == 0 {
		return nil, nil
	}
	// The parser recurses once per parenthesis: bound the nesting before
	// it starts (300,000 levels took 2 s and 67 MB).
	depth := 0
	for _, t := range toks {
		switch t {
		case "(":
			if depth++; depth > maxSearchDepth {
				return nil, queryErr("parentheses nest more than %d levels deep", maxSearchDepth)
			}
		case ")":
			depth--
		}
	}
	p := &qParser{toks: toks, res: r}
	n, e := p.or()
	if e != nil {
		return nil, e
	}
	if p.pos < len(p.toks) {
		return nil, queryErr("unexpected %q", p.toks[p.pos])
	}
	return &Query{root: n}, nil
}

// tokenizeQuery splits a query into terms, parentheses and operators. A
// quoted phrase, and a range after a colon, stay inside their term.
func tokenizeQuery(q string) ([]string, *apierr.Error) {
	var toks []string
	r := []rune(q)
	i := 0
	for i < len(r) {
		switch c := r[i]; c {
		case ' ', '\t', '\n':
			i++
		case '(', ')':
			toks = append(toks, string(c))
			i++
		default:
			start := i
			for i < len(r) && r[i] != ' ' && r[i] != '\t' && r[i] != '\n' && r[i] != ')' && r[i] != '(' {
				if r[i] == '"' {
					end := indexRune(r, i+1, '"')
					if end < 0 {
						return nil, queryErr("unclosed quote")
					}
					i = end + 1
					continue
				}
				if (r[i] == '[' || r[i] == '{') && i > start && r[i-1] == ':' {
					end := indexRune(r, i+1, ']')
					if alt := indexRune(r, i+1, '}'); end < 0 || (alt >= 0 && alt < end) {
						end = alt
					}
					if end < 0 {
						return nil, queryErr("unclosed range")
					}
					i = end + 1
					continue
				}
				i++
			}
			toks = append(toks, string(r[start:i]))
		}
	}
	return toks, nil
}

func indexRune(r []rune, from int, c rune) int {
	for i := from; i < len(r); i++ {
		if r[i] == c {
			return i
		}
	}
	return -1
}

type qParser struct {
	toks []string
	pos  int
	res  *Resource
}

func (p *qParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *qParser) or() (searchNode, *apierr.Error) {
	first, e := p.and()
	if e != nil {
		return nil, e
	}
	out := searchOr{first}
	for p.peek() == "OR" {
		p.pos++
		n, e := p.and()
		if e != nil {
			return nil, e
		}
		out = append(out, n)
	}
	if len(out) == 1 {
		return first, nil
	}
	return out, nil
}

func (p *qParser) and() (searchNode, *apierr.Error) {
	first, e := p.unary()
	if e != nil {
		return nil, e
	}
	out := searchAnd{first}
	for {
		t := p.peek()
		if t == "" || t == "OR" || t == ")" {
			break
		}
		if t == "AND" {
			p.pos++
		}
		n, e := p.unary()
		if e != nil {
			return nil, e
		}
		out = append(out, n)
	}
	if len(out) == 1 {
		return first, nil
	}
	return out, nil
}

func (p *qParser) unary() (searchNode, *apierr.Error) {
	t := p.peek()
	switch t {
	case "":
		return nil, queryErr("a term is missing at the end")
	case "AND", "OR":
		return nil, queryErr("%s needs a term on both sides", t)
	case ")":
		return nil, queryErr("unexpected )")
	case "(":
		p.pos++
		n, e := p.or()
		if e != nil {
			return nil, e
		}
		if p.peek() != ")" {
			return nil, queryErr("unclosed (")
		}
		p.pos++
		return n, nil
	}
	p.pos++
	return p.res.term(t)
}

// term parses one term token.
func (r *Resource) term(t string) (*Term, *apierr.Error) {
	field, value, kind := "", t, Text
	if i := strings.IndexByte(t, ':'); i > 0 && !strings.HasPrefix(t, `"`) {
		field, value = strings.ToLower(t[:i]), t[i+1:]
		k, ok := r.Fields[field]
		switch {
		case !ok && searchFieldOnly[field] != "":
			return nil, queryErr("the field %q applies to %s only", field, searchFieldOnly[field])
		case !ok:
			return nil, queryErr("unknown field %q", field)
		}
		kind = k
	}
	value = strings.Trim(value, `"`)
	if value == "" {
		return nil, queryErr("%q has no value", t)
	}
	if strings.HasPrefix(value, "*") {
		return nil, queryErr("leading wildcards are not valid (%q)", t)
	}
	switch kind {
	case Date:
		rg, e := parseDateTerm(field, value)
		if e != nil {
			return nil, e
		}
		return &Term{Field: field, Range: rg}, nil
	case Flag:
		switch strings.ToLower(value) {
		case "true", "1":
			return &Term{Field: field, Flag: true}, nil
		case "false", "0":
			return &Term{Field: field, Flag: false}, nil
		}
		return nil, queryErr("%s takes true or false", field)
	}
	if isRangeText(value) {
		return nil, queryErr("ranges apply to dates only (%q)", t)
	}
	return &Term{Field: field, Value: strings.ToLower(strings.TrimSuffix(value, "*"))}, nil
}

// isRangeText reports whether a value is written as a range.
func isRangeText(v string) bool {
	return len(v) > 1 && (v[0] == '[' || v[0] == '{') && (v[len(v)-1] == ']' || v[len(v)-1] == '}') && strings.Contains(v, " TO ")
}

// MatchDocumentNames matches the file names of documents (Document.Title:
// the name, or for a file_urls document without one its URL's last segment).
func MatchDocumentNames(docs []model.Document, t *Term) bool {
	for _, d := range docs {
		if t.Has(d.Title()) {
			return true
		}
	}
	return false
}

// MatchMetadata matches metadata keys and values; "key:value" matches the
// value of one key (keys compared ignoring case). Objects and arrays match
// by their JSON text.
func MatchMetadata(m map[string]any, t *Term) bool {
	key, val, pair := strings.Cut(t.Value, ":")
	for k, raw := range m {
		text := param.MetadataText(raw)
		if pair && strings.EqualFold(k, key) && searchContains(text, val) {
			return true
		}
		if !pair && (t.Has(k) || t.Has(text)) {
			return true
		}
	}
	return false
}
