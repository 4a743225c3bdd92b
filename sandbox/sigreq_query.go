package sandbox

// The search syntax of GET /signature_request/list (query=...), after the
// official search reference: field:value terms and free terms, AND / OR
// (case-sensitive, AND binding tighter, adjacent terms meaning AND),
// parentheses, quoted phrases, trailing * wildcards (leading ones are
// invalid), and created date ranges [a TO b] (inclusive) and {a TO b}
// (exclusive). Matching is case-insensitive containment.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// searchFields are the fields a signature request query may name.
var searchFields = map[string]bool{
	"to": true, "from": true, "title": true, "subject": true, "message": true, "metadata": true, "created": true,
	"complete": true, "declined": true, "awaiting_my_signature": true, "test_mode": true, "filename": true, "template": true,
}

// searchQuery is a parsed query.
type searchQuery struct{ root qNode }

// qCtx is what a query is matched against.
type qCtx struct {
	req *state.SignatureRequest
	me  *state.Account
}

type qNode interface{ match(x *qCtx) bool }

type qAnd []qNode
type qOr []qNode

func (n qAnd) match(x *qCtx) bool {
	for _, c := range n {
		if !c.match(x) {
			return false
		}
	}
	return true
}

func (n qOr) match(x *qCtx) bool {
	for _, c := range n {
		if c.match(x) {
			return true
		}
	}
	return false
}

// qTerm is field:value (field "" for free terms).
type qTerm struct {
	field string
	value string // lower-cased, wildcard removed
	flag  bool   // boolean fields
}

// qRange is created:[a TO b] or a single created date.
type qRange struct {
	from, to           time.Time // zero for an open bound
	fromIncl, toIncl   bool
	fromOpen, toOpen   bool
	fromIsDay, toIsDay bool
}

// parseSearchQuery parses a query; errors name the query parameter.
func parseSearchQuery(q string) (*searchQuery, *apierr.Error) {
	toks, e := tokenizeQuery(q)
	if e != nil {
		return nil, e
	}
	if len(toks) == 0 {
		return nil, nil
	}
	p := &qParser{toks: toks}
	n, e := p.or()
	if e != nil {
		return nil, e
	}
	if p.pos < len(p.toks) {
		return nil, queryErr("unexpected %q", p.toks[p.pos])
	}
	return &searchQuery{root: n}, nil
}

func queryErr(format string, args ...any) *apierr.Error {
	return apierr.Badf("query", "Invalid search query: "+format+".", args...)
}

// tokenizeQuery splits a query into terms, parentheses and operators.
func tokenizeQuery(q string) ([]string, *apierr.Error) {
	var toks []string
	r := []rune(q)
	i := 0
	for i < len(r) {
		switch c := r[i]; {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '(' || c == ')':
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
}

func (p *qParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *qParser) or() (qNode, *apierr.Error) {
	first, e := p.and()
	if e != nil {
		return nil, e
	}
	out := qOr{first}
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

func (p *qParser) and() (qNode, *apierr.Error) {
	first, e := p.unary()
	if e != nil {
		return nil, e
	}
	out := qAnd{first}
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

func (p *qParser) unary() (qNode, *apierr.Error) {
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
	return parseTerm(t)
}

// parseTerm parses one term token.
func parseTerm(t string) (qNode, *apierr.Error) {
	field, value := "", t
	if i := strings.IndexByte(t, ':'); i > 0 && !strings.HasPrefix(t, `"`) {
		field, value = strings.ToLower(t[:i]), t[i+1:]
		if !searchFields[field] {
			return nil, queryErr("unknown field %q", field)
		}
	}
	value = strings.Trim(value, `"`)
	if value == "" {
		return nil, queryErr("%q has no value", t)
	}
	if strings.HasPrefix(value, "*") {
		return nil, queryErr("leading wildcards are not valid (%q)", t)
	}
	switch field {
	case "created":
		return parseCreated(value)
	case "complete", "declined", "awaiting_my_signature", "test_mode":
		switch strings.ToLower(value) {
		case "true", "1":
			return qTerm{field: field, flag: true}, nil
		case "false", "0":
			return qTerm{field: field, flag: false}, nil
		}
		return nil, queryErr("%s takes true or false", field)
	}
	return qTerm{field: field, value: strings.ToLower(strings.TrimSuffix(value, "*"))}, nil
}

// parseCreated parses created:[a TO b], created:{a TO b} or created:date.
func parseCreated(v string) (qNode, *apierr.Error) {
	if v[0] != '[' && v[0] != '{' {
		t, isDay, ok := parseQueryTime(v)
		if !ok {
			return nil, queryErr("created takes a date (YYYY-MM-DD), a time or a range [a TO b]")
		}
		return qRange{from: t, to: t, fromIncl: true, toIncl: true, fromIsDay: isDay, toIsDay: isDay}, nil
	}
	closeCh := v[len(v)-1]
	if closeCh != ']' && closeCh != '}' {
		return nil, queryErr("unclosed range")
	}
	lo, hi, ok := strings.Cut(v[1:len(v)-1], " TO ")
	if !ok {
		return nil, queryErr("a range is written [from TO to]")
	}
	r := qRange{fromIncl: v[0] == '[', toIncl: closeCh == ']'}
	var good bool
	if lo = strings.TrimSpace(lo); lo == "*" {
		r.fromOpen = true
	} else if r.from, r.fromIsDay, good = parseQueryTime(lo); !good {
		return nil, queryErr("%q is not a date", lo)
	}
	if hi = strings.TrimSpace(hi); hi == "*" {
		r.toOpen = true
	} else if r.to, r.toIsDay, good = parseQueryTime(hi); !good {
		return nil, queryErr("%q is not a date", hi)
	}
	return r, nil
}

// parseQueryTime reads a date (a whole day), an RFC 3339 time or Unix
// seconds.
func parseQueryTime(s string) (time.Time, bool, bool) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, true, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, false, true
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), false, true
	}
	return time.Time{}, false, false
}

func (r qRange) match(x *qCtx) bool {
	c := time.Unix(x.req.CreatedAt, 0).UTC()
	if !r.fromOpen {
		// The lower bound is the day's start (inclusive) or its end
		// (exclusive) for dates, the instant itself for times.
		lo := r.from
		if r.fromIsDay && !r.fromIncl {
			lo = lo.AddDate(0, 0, 1)
		}
		if (r.fromIsDay || r.fromIncl) && c.Before(lo) {
			return false
		}
		if !r.fromIsDay && !r.fromIncl && !c.After(lo) {
			return false
		}
	}
	if !r.toOpen {
		hi := r.to
		if r.toIsDay && r.toIncl {
			hi = hi.AddDate(0, 0, 1)
		}
		if r.toIsDay || !r.toIncl {
			if !c.Before(hi) {
				return false
			}
		} else if c.After(hi) {
			return false
		}
	}
	return true
}

func contains(hay, needle string) bool { return strings.Contains(strings.ToLower(hay), needle) }

func (t qTerm) match(x *qCtx) bool {
	req := x.req
	switch t.field {
	case "complete":
		return (req.Phase == state.PhaseComplete) == t.flag
	case "declined":
		return (req.Phase == state.PhaseDeclined) == t.flag
	case "test_mode":
		return req.TestMode == t.flag
	case "awaiting_my_signature":
		return awaitingSignatureOf(req, x.me) == t.flag
	case "to":
		return matchTo(req, x.me, t.value)
	case "from":
		return matchFrom(req, x.me, t.value)
	case "title":
		return contains(req.Title, t.value)
	case "subject":
		return contains(req.Subject, t.value)
	case "message":
		return contains(req.Message, t.value)
	case "metadata":
		return matchMetadata(req.Metadata, t.value)
	case "filename":
		return matchFilename(req, t.value)
	case "template":
		for _, id := range req.TemplateIDs {
			if strings.EqualFold(id, t.value) {
				return true
			}
		}
		return false
	}
	return matchTo(req, x.me, t.value) || matchFrom(req, x.me, t.value) || contains(req.Title, t.value) ||
		contains(req.Subject, t.value) || contains(req.Message, t.value) || matchMetadata(req.Metadata, t.value) ||
		matchFilename(req, t.value)
}

func matchTo(req *state.SignatureRequest, me *state.Account, v string) bool {
	for _, sg := range req.Signatures {
		if v == "me" && me != nil && state.EmailKey(sg.Email) == state.EmailKey(me.Email) {
			return true
		}
		if contains(sg.Email, v) || contains(sg.Name, v) {
			return true
		}
	}
	return false
}

func matchFrom(req *state.SignatureRequest, me *state.Account, v string) bool {
	if v == "me" && me != nil {
		return req.RequesterAccountID == me.ID
	}
	return contains(req.RequesterEmail, v) || contains(req.RequesterName, v)
}

// matchMetadata matches values (and keys); "key:value" matches one entry.
func matchMetadata(m map[string]any, v string) bool {
	key, val, pair := strings.Cut(v, ":")
	for k, raw := range m {
		text := metadataText(raw)
		if pair && strings.EqualFold(k, key) && contains(text, val) {
			return true
		}
		if !pair && (contains(k, v) || contains(text, v)) {
			return true
		}
	}
	return false
}

func metadataText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func matchFilename(req *state.SignatureRequest, v string) bool {
	for _, d := range req.Documents {
		if contains(d.Name, v) || contains(titleFromDocument(d), v) {
			return true
		}
	}
	return false
}

// awaitingSignatureOf reports whether the account has a signature waiting
// for it now.
func awaitingSignatureOf(req *state.SignatureRequest, me *state.Account) bool {
	if me == nil || req.Phase != state.PhaseSent {
		return false
	}
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if state.EmailKey(sg.Email) == state.EmailKey(me.Email) && sg.Status == state.SigAwaiting && isTurn(req, sg) {
			return true
		}
	}
	return false
}

// matches reports whether a request matches the query (a nil query matches
// everything).
func (q *searchQuery) matches(req *state.SignatureRequest, me *state.Account) bool {
	if q == nil || q.root == nil {
		return true
	}
	return q.root.match(&qCtx{req: req, me: me})
}
