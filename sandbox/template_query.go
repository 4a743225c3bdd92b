package sandbox

// The query parameter of GET /template/list, in the search syntax of the
// official search reference: terms and field:value terms combined with AND
// and OR (case-sensitive operators, AND binding tighter, adjacent terms
// meaning AND, parentheses allowed), quoted phrases, trailing wildcards,
// and date ranges [a TO b] (inclusive) / {a TO b} (exclusive).
//
// Template fields: title, message, metadata, created, test_mode, filename,
// owner. Unfielded terms match title, message, metadata and filename. The
// fields the reference lists for signature requests only (to, from,
// subject, complete, declined, awaiting_my_signature, template) and unknown
// fields are refused with 400, naming the query parameter.

import (
	"encoding/json"
	"strings"
	"time"
	"unicode"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// tplQueryFields are the searchable template fields.
var tplQueryFields = []string{"title", "message", "metadata", "created", "test_mode", "filename", "owner"}

// tplRequestOnlyFields are search fields that only apply to signature
// requests.
var tplRequestOnlyFields = []string{"to", "from", "subject", "complete", "declined", "awaiting_my_signature", "template"}

// tplFilter is a parsed query; a nil node matches everything.
type tplFilter struct{ root *tplNode }

type tplNode struct {
	op          string // "and", "or", "term"
	left, right *tplNode
	field       string // "" for unfielded terms
	value       string // lower-cased
	prefix      bool   // trailing *
	rng         *tplRange
}

type tplRange struct {
	from, to   string
	inclusive  bool
	fromT, toT time.Time
}

func errTemplateQuery(format string, args ...any) error {
	return apierr.Badf("query", "Invalid query: "+format, args...)
}

// parseTemplateQuery parses a query ("" matches every template).
func parseTemplateQuery(q string) (tplFilter, error) {
	toks, err := tplLex(q)
	if err != nil {
		return tplFilter{}, err
	}
	if len(toks) == 0 {
		return tplFilter{}, nil
	}
	p := &tplParser{toks: toks}
	n, err := p.or()
	if err != nil {
		return tplFilter{}, err
	}
	if p.i < len(p.toks) {
		return tplFilter{}, errTemplateQuery("unexpected %q", p.toks[p.i].text)
	}
	return tplFilter{root: n}, nil
}

// tplToken is a lexical token: an operator, a parenthesis, or a term.
type tplToken struct {
	kind string // "AND", "OR", "(", ")", "term"
	text string
	// quoted terms keep their spaces and never act as operators.
	quoted bool
}

// tplLex splits a query into words, quoted phrases and bracketed ranges.
func tplLex(q string) ([]tplToken, error) {
	var out []tplToken
	rs := []rune(q)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '(' || r == ')':
			out = append(out, tplToken{kind: string(r), text: string(r)})
			i++
		default:
			var b strings.Builder
			quoted := false
			for i < len(rs) && !unicode.IsSpace(rs[i]) && rs[i] != ')' && (rs[i] != '(' || b.Len() > 0) {
				switch rs[i] {
				case '"':
					j := i + 1
					for j < len(rs) && rs[j] != '"' {
						j++
					}
					if j >= len(rs) {
						return nil, errTemplateQuery("unterminated quote")
					}
					b.WriteString(string(rs[i+1 : j]))
					quoted = true
					i = j + 1
				case '[', '{':
					close := ']'
					if rs[i] == '{' {
						close = '}'
					}
					j := i + 1
					for j < len(rs) && rs[j] != ']' && rs[j] != '}' {
						j++
					}
					if j >= len(rs) || rs[j] != close {
						return nil, errTemplateQuery("unterminated range")
					}
					b.WriteString(string(rs[i : j+1]))
					i = j + 1
				default:
					b.WriteRune(rs[i])
					i++
				}
			}
			text := b.String()
			kind := "term"
			if !quoted && (text == "AND" || text == "OR") {
				kind = text
			}
			out = append(out, tplToken{kind: kind, text: text, quoted: quoted})
		}
	}
	return tplJoinFieldValues(out), nil
}

// tplJoinFieldValues lets an unquoted field value run over several words
// until the next operator, parenthesis or field (title:Field Trip Release).
func tplJoinFieldValues(toks []tplToken) []tplToken {
	var out []tplToken
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == "term" && !t.quoted && strings.Contains(t.text, ":") {
			for i+1 < len(toks) && toks[i+1].kind == "term" && !toks[i+1].quoted && !strings.Contains(toks[i+1].text, ":") {
				t.text += " " + toks[i+1].text
				i++
			}
		}
		out = append(out, t)
	}
	return out
}

type tplParser struct {
	toks []tplToken
	i    int
}

func (p *tplParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].kind
	}
	return ""
}

func (p *tplParser) or() (*tplNode, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek() == "OR" {
		p.i++
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = &tplNode{op: "or", left: left, right: right}
	}
	return left, nil
}

func (p *tplParser) and() (*tplNode, error) {
	left, err := p.unit()
	if err != nil {
		return nil, err
	}
	for {
		switch p.peek() {
		case "AND":
			p.i++
		case "term", "(":
		default:
			return left, nil
		}
		right, err := p.unit()
		if err != nil {
			return nil, err
		}
		left = &tplNode{op: "and", left: left, right: right}
	}
}

func (p *tplParser) unit() (*tplNode, error) {
	switch p.peek() {
	case "(":
		p.i++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errTemplateQuery("missing )")
		}
		p.i++
		return n, nil
	case "term":
		t := p.toks[p.i]
		p.i++
		return tplTerm(t)
	case "":
		return nil, errTemplateQuery("the query ends after an operator")
	}
	return nil, errTemplateQuery("unexpected %q", p.toks[p.i].text)
}

// tplTerm parses one term: word, phrase, field:value or field:range.
func tplTerm(t tplToken) (*tplNode, error) {
	n := &tplNode{op: "term", value: t.text}
	if !t.quoted {
		if f, v, ok := strings.Cut(t.text, ":"); ok {
			field := strings.ToLower(strings.TrimSpace(f))
			switch {
			case slicesContains(tplRequestOnlyFields, field):
				return nil, errTemplateQuery("the field %q applies to signature requests only, not templates", field)
			case !slicesContains(tplQueryFields, field):
				return nil, errTemplateQuery("unknown field %q (template fields: %s)", field, strings.Join(tplQueryFields, ", "))
			}
			n.field, n.value = field, strings.TrimSpace(strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	if strings.HasPrefix(n.value, "*") {
		return nil, errTemplateQuery("leading wildcards are not allowed")
	}
	if strings.HasSuffix(n.value, "*") {
		n.prefix, n.value = true, strings.TrimSuffix(n.value, "*")
	}
	if n.value == "" {
		return nil, errTemplateQuery("empty search term %q", t.text)
	}
	if v := n.value; (strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]")) || (strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}")) {
		if n.field != "created" {
			return nil, errTemplateQuery("ranges apply to the created field only")
		}
		lo, hi, ok := strings.Cut(v[1:len(v)-1], " TO ")
		if !ok {
			return nil, errTemplateQuery("a range is written [from TO to] or {from TO to}")
		}
		rg := &tplRange{from: strings.TrimSpace(lo), to: strings.TrimSpace(hi), inclusive: v[0] == '['}
		var err error
		if rg.fromT, err = tplDate(rg.from, false, rg.inclusive); err != nil {
			return nil, err
		}
		if rg.toT, err = tplDate(rg.to, true, rg.inclusive); err != nil {
			return nil, err
		}
		n.rng = rg
	} else if n.field == "created" {
		from, err := tplDate(n.value, false, true)
		if err != nil {
			return nil, err
		}
		to, err := tplDate(n.value, true, true)
		if err != nil {
			return nil, err
		}
		n.rng = &tplRange{inclusive: true, fromT: from, toT: to}
	}
	if n.field == "test_mode" && n.value != "true" && n.value != "false" {
		return nil, errTemplateQuery("test_mode takes true or false")
	}
	n.value = strings.ToLower(n.value)
	return n, nil
}

func slicesContains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// tplDate reads a range bound: a date (YYYY-MM-DD) or date and time, or *
// for an open end. Inclusive dates cover their whole day; exclusive ones
// start after it (from) or end before it (to).
func tplDate(s string, upper, inclusive bool) (time.Time, error) {
	if s == "*" {
		if upper {
			return time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), nil
		}
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, errTemplateQuery("%q is not a date (YYYY-MM-DD)", s)
	}
	switch {
	case upper && inclusive:
		return d.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
	case upper:
		return d.Add(-time.Nanosecond), nil
	case inclusive:
		return d, nil
	default:
		return d.AddDate(0, 0, 1), nil
	}
}

// match evaluates the filter on a template; viewer resolves owner:me.
func (f tplFilter) match(tx *state.Txn, t *state.Template, viewer string) bool {
	if f.root == nil {
		return true
	}
	return f.root.match(tx, t, viewer)
}

func (n *tplNode) match(tx *state.Txn, t *state.Template, viewer string) bool {
	switch n.op {
	case "and":
		return n.left.match(tx, t, viewer) && n.right.match(tx, t, viewer)
	case "or":
		return n.left.match(tx, t, viewer) || n.right.match(tx, t, viewer)
	}
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), n.value) }
	switch n.field {
	case "title":
		return has(t.Title)
	case "message":
		return has(t.Message)
	case "metadata":
		return has(tplMetadataText(t.Metadata))
	case "filename":
		return tplAnyDocument(t, has)
	case "test_mode":
		return (n.value == "true") == t.TestMode
	case "owner":
		if n.value == "me" {
			return t.OwnerID == viewer
		}
		a, err := state.Get[state.Account](tx, state.TableAccounts, t.OwnerID)
		return err == nil && (has(a.Email) || has(a.Name))
	case "created":
		at := time.Unix(t.CreatedAt, 0).UTC()
		return !at.Before(n.rng.fromT) && !at.After(n.rng.toT)
	}
	return has(t.Title) || has(t.Message) || has(tplMetadataText(t.Metadata)) || tplAnyDocument(t, has)
}

func tplAnyDocument(t *state.Template, has func(string) bool) bool {
	for _, d := range t.Documents {
		if has(d.Name) {
			return true
		}
	}
	return false
}

// tplMetadataText flattens metadata keys and values into searchable text.
func tplMetadataText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var b strings.Builder
	for _, k := range sortedStringKeys(m) {
		b.WriteString(k)
		b.WriteString(" ")
		if s, ok := m[k].(string); ok {
			b.WriteString(s)
		} else {
			v, _ := json.Marshal(m[k])
			b.Write(v)
		}
		b.WriteString("\n")
	}
	return b.String()
}
