package scenario

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Expressions. Any string of a step (path, params, query, body, as,
// expectations) may hold ${...}:
//
//	${steps.send.body.signature_request.signature_request_id}
//	${steps.send.status}      ${steps.send.headers.Content-Type}
//	${seed.nda.template_id}   ${seed.contract.signatures[0].signature_id}
//	${world.api_key}          ${world.account_id}   ${world.world_id}
//	${accounts["teammate@sandbox.example"].api_key}
//	${receiver.url}           (a callback receiver the runner serves)
//	${now}  ${now + 3d}  ${seed.contract.expires_at - 1h}
//	${credentials.seq12}      (a credential a recording left out)
//
// A string that is exactly one expression takes the value's type (a number
// stays a number, an object an object); otherwise the value is written
// into the text. A duration after + or - offsets a number of Unix seconds.
// $${ writes a literal ${.

// Expression roots.
const (
	RootSteps    = "steps"
	RootSeed     = "seed"
	RootWorld    = "world"
	RootAccounts = "accounts"
	RootReceiver = "receiver"
	RootNow      = "now"
	// RootCredentials are the credentials a recording left out
	// (credentials.go).
	RootCredentials = credentialsRoot
)

var roots = map[string]bool{RootSteps: true, RootSeed: true, RootWorld: true, RootAccounts: true, RootReceiver: true, RootNow: true, RootCredentials: true}

// Expr is one parsed ${...} expression.
type Expr struct {
	Root   string
	Path   []Segment
	Offset time.Duration
	Text   string
}

// parseExpr reads the inside of ${...}.
func parseExpr(s string) (Expr, error) {
	e := Expr{Text: s}
	body := strings.TrimSpace(s)
	if i := strings.LastIndexAny(body, "+-"); i > 0 {
		// An offset: the part after the operator must be a duration (a
		// minus inside a key such as Content-Type is not one).
		if d, err := ParseDuration(strings.TrimSpace(body[i+1:])); err == nil && strings.TrimSpace(body[i+1:]) != "" &&
			(body[i-1] == ' ' || !strings.ContainsAny(body[:i], "-")) {
			if body[i] == '-' {
				d = -d
			}
			e.Offset = d
			body = strings.TrimSpace(body[:i])
		}
	}
	root := body
	rest := ""
	if i := strings.IndexAny(body, ".["); i >= 0 {
		root, rest = body[:i], body[i:]
	}
	if !roots[root] {
		return e, fmt.Errorf("${%s}: unknown name %q (use steps, seed, world, accounts, receiver, now or credentials)", s, root)
	}
	e.Root = root
	if rest != "" {
		p, err := ParsePath(strings.TrimPrefix(rest, "."))
		if err != nil {
			return e, fmt.Errorf("${%s}: %v", s, err)
		}
		e.Path = p
	}
	switch root {
	case RootNow:
		if len(e.Path) > 0 {
			return e, fmt.Errorf("${%s}: now has no fields", s)
		}
	case RootCredentials:
		if len(e.Path) != 1 || e.Path[0].IsIdx {
			return e, fmt.Errorf("${%s}: name the credential (credentials.NAME)", s)
		}
	case RootSteps, RootSeed, RootAccounts:
		if len(e.Path) == 0 || e.Path[0].IsIdx {
			return e, fmt.Errorf("${%s}: name the %s entry (%s.NAME...)", s, root, root)
		}
	}
	return e, nil
}

type part struct {
	lit  string
	expr *Expr
}

// scan splits a string into literal text and expressions.
func scan(s string) ([]part, error) {
	var out []part
	var lit strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "$${") {
			lit.WriteString("${")
			i += 3
			continue
		}
		if strings.HasPrefix(s[i:], "${") {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q: ${ without }", s)
			}
			e, err := parseExpr(s[i+2 : i+end])
			if err != nil {
				return nil, err
			}
			if lit.Len() > 0 {
				out = append(out, part{lit: lit.String()})
				lit.Reset()
			}
			out = append(out, part{expr: &e})
			i += end + 1
			continue
		}
		lit.WriteByte(s[i])
		i++
	}
	if lit.Len() > 0 {
		out = append(out, part{lit: lit.String()})
	}
	return out, nil
}

// Resolver answers an expression's value (before its offset).
type Resolver func(e Expr) (any, error)

// Interpolate replaces every expression in the strings of v (recursively
// through objects and lists) and answers the new value.
func Interpolate(v any, r Resolver) (any, error) {
	switch t := v.(type) {
	case string:
		return interpolateString(t, r)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			nk, err := interpolateString(k, r)
			if err != nil {
				return nil, err
			}
			ks, ok := nk.(string)
			if !ok {
				ks = fmt.Sprint(nk)
			}
			if out[ks], err = Interpolate(x, r); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			var err error
			if out[i], err = Interpolate(x, r); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// InterpolateString is Interpolate for text: the result is always text.
func InterpolateString(s string, r Resolver) (string, error) {
	v, err := interpolateString(s, r)
	if err != nil {
		return "", err
	}
	return textOf(v), nil
}

func interpolateString(s string, r Resolver) (any, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	parts, err := scan(s)
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 && parts[0].expr != nil {
		return evaluate(*parts[0].expr, r)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := evaluate(*p.expr, r)
		if err != nil {
			return nil, err
		}
		b.WriteString(textOf(v))
	}
	return b.String(), nil
}

func evaluate(e Expr, r Resolver) (any, error) {
	v, err := r(e)
	if err != nil {
		return nil, err
	}
	if e.Offset == 0 {
		return v, nil
	}
	n, ok := number(v)
	if !ok {
		return nil, fmt.Errorf("${%s}: an offset needs a number of Unix seconds, got %s", e.Text, Show(v))
	}
	n.Add(n, new(big.Rat).SetInt64(int64(e.Offset/time.Second)))
	if n.IsInt() {
		return json.Number(n.Num().String()), nil
	}
	f, _ := n.Float64()
	return floatNumber(f), nil
}

// textOf writes a value into text as wire.Text does: strings as they are,
// numbers exactly, everything else as JSON.
func textOf(v any) string { return wire.Text(v) }

// collectExprs lists the expressions in the strings of v (for load-time
// checks); bad syntax is reported through add.
func collectExprs(v any, at []any, add func(path []any, format string, a ...any), fn func(path []any, e Expr)) {
	switch t := v.(type) {
	case string:
		if !strings.Contains(t, "${") {
			return
		}
		parts, err := scan(t)
		if err != nil {
			add(at, "%v", err)
			return
		}
		for _, p := range parts {
			if p.expr != nil {
				fn(at, *p.expr)
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(t) {
			p := append(append([]any(nil), at...), k)
			collectExprs(k, p, add, fn)
			collectExprs(t[k], p, add, fn)
		}
	case []any:
		for i, x := range t {
			collectExprs(x, append(append([]any(nil), at...), i), add, fn)
		}
	}
}
