package scenario

import (
	"encoding/json"
	"fmt"
	"math/big"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Field matchers. A matcher is written where a value is expected:
//
//   - a scalar (string, number, boolean, null) must be equal (numbers
//     compare by value);
//   - a mapping whose keys are all operators (eq, ne, regex, glob, exists,
//     absent, gt, gte, lt, lte, len, contains, one_of, type) combines them;
//   - any other mapping matches an object: each key is a path into it
//     (a.b[0].c) and its value a matcher; other fields are allowed;
//   - a list must have the same length, element by element.

// operators are the keys of an operator mapping.
var operators = map[string]bool{
	"eq": true, "ne": true, "regex": true, "glob": true, "exists": true, "absent": true,
	"gt": true, "gte": true, "lt": true, "lte": true, "len": true, "contains": true, "one_of": true, "type": true,
}

// Mismatch is one failed expectation, located by path.
type Mismatch struct {
	Path string `json:"path"`
	Msg  string `json:"message"`
}

func (m Mismatch) String() string {
	if m.Path == "" {
		return m.Msg
	}
	return m.Path + ": " + m.Msg
}

// isOperatorMap reports whether m is an operator matcher.
func isOperatorMap(m map[string]any) bool {
	if len(m) == 0 {
		return false
	}
	for k := range m {
		if !operators[k] {
			return false
		}
	}
	return true
}

// MatchValue checks got (present says whether the field exists at all)
// against the matcher want, and lists what does not hold under base.
func MatchValue(base string, want, got any, present bool) []Mismatch {
	switch w := want.(type) {
	case map[string]any:
		if isOperatorMap(w) {
			return matchOperators(base, w, got, present)
		}
		if !present {
			return []Mismatch{{base, "want an object, but the field is absent"}}
		}
		var out []Mismatch
		for _, k := range sortedKeys(w) {
			p, err := ParsePath(k)
			if err != nil {
				out = append(out, Mismatch{joinPath(base, k), err.Error()})
				continue
			}
			v, ok := Resolve(got, p)
			out = append(out, MatchValue(joinPath(base, k), w[k], v, ok)...)
		}
		return out
	case []any:
		if !present {
			return []Mismatch{{base, fmt.Sprintf("want a list of %d, but the field is absent", len(w))}}
		}
		l, ok := got.([]any)
		if !ok {
			return []Mismatch{{base, fmt.Sprintf("want a list, got %s", Show(got))}}
		}
		if len(l) != len(w) {
			return []Mismatch{{base, fmt.Sprintf("want %d entries, got %d: %s", len(w), len(l), Show(got))}}
		}
		var out []Mismatch
		for i := range w {
			out = append(out, MatchValue(fmt.Sprintf("%s[%d]", base, i), w[i], l[i], true)...)
		}
		return out
	}
	if !present {
		return []Mismatch{{base, fmt.Sprintf("want %s, but the field is absent", Show(want))}}
	}
	if !Equal(want, got) {
		return []Mismatch{{base, fmt.Sprintf("want %s, got %s", Show(want), Show(got))}}
	}
	return nil
}

func matchOperators(base string, ops map[string]any, got any, present bool) []Mismatch {
	var out []Mismatch
	fail := func(format string, a ...any) { out = append(out, Mismatch{base, fmt.Sprintf(format, a...)}) }
	for _, op := range sortedKeys(ops) {
		arg := ops[op]
		switch op {
		case "exists", "absent":
			want, _ := arg.(bool)
			if op == "absent" {
				want = !want // absent: true is exists: false
			}
			switch {
			case want == present:
			case present:
				fail("want the field absent, got %s", Show(got))
			default:
				fail("want the field present, but it is absent")
			}
			continue
		}
		if !present {
			fail("want %s %s, but the field is absent", op, Show(arg))
			continue
		}
		switch op {
		case "eq":
			if d := Diff("", arg, got); len(d) > 0 {
				fail("want %s, got %s", Show(arg), Show(got))
			}
		case "ne":
			if len(Diff("", arg, got)) == 0 {
				fail("want anything but %s", Show(arg))
			}
		case "regex":
			re, err := wire.CompilePattern(fmt.Sprint(arg))
			s, ok := got.(string)
			switch {
			case err != nil:
				fail("bad regex: %v", err)
			case !ok:
				fail("want a string matching /%s/, got %s", arg, Show(got))
			case !re.MatchString(s):
				fail("want a string matching /%s/, got %s", arg, Show(got))
			}
		case "glob":
			s, ok := got.(string)
			if !ok || !Glob(fmt.Sprint(arg), s) {
				fail("want a string like %q, got %s", arg, Show(got))
			}
		case "gt", "gte", "lt", "lte":
			a, aok := number(arg)
			g, gok := number(got)
			if !aok || !gok {
				fail("want a number %s %s, got %s", op, Show(arg), Show(got))
				continue
			}
			c := g.Cmp(a)
			ok := map[string]bool{"gt": c > 0, "gte": c >= 0, "lt": c < 0, "lte": c <= 0}[op]
			if !ok {
				fail("want a number %s %s, got %s", op, Show(arg), Show(got))
			}
		case "len":
			n := -1
			switch t := got.(type) {
			case []any:
				n = len(t)
			case map[string]any:
				n = len(t)
			case string:
				n = len([]rune(t))
			}
			if n < 0 {
				fail("want something with a length, got %s", Show(got))
				continue
			}
			for _, m := range MatchValue("", arg, json.Number(strconv.Itoa(n)), true) {
				fail("length %d: %s", n, m.Msg)
			}
		case "contains":
			switch t := got.(type) {
			case string:
				if !strings.Contains(t, fmt.Sprint(arg)) {
					fail("want a string containing %q, got %s", arg, Show(got))
				}
			case []any:
				found := false
				for _, e := range t {
					if len(MatchValue("", arg, e, true)) == 0 {
						found = true
						break
					}
				}
				if !found {
					fail("want a list with an entry matching %s, got %s", Show(arg), Show(got))
				}
			default:
				fail("want a string or list containing %s, got %s", Show(arg), Show(got))
			}
		case "one_of":
			l, _ := arg.([]any)
			found := false
			for _, e := range l {
				if Equal(e, got) {
					found = true
					break
				}
			}
			if !found {
				fail("want one of %s, got %s", Show(arg), Show(got))
			}
		case "type":
			if t := TypeName(got); t != fmt.Sprint(arg) {
				fail("want a %s, got %s %s", arg, t, Show(got))
			}
		}
	}
	return out
}

// TypeName is the JSON type of a value.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64, int, int64:
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// Equal compares two JSON values exactly (numbers by value).
func Equal(a, b any) bool { return len(Diff("", a, b)) == 0 }

// Diff lists every difference between want and got, exactly: objects must
// have the same keys, lists the same length.
func Diff(base string, want, got any) []Mismatch {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []Mismatch{{base, fmt.Sprintf("want an object, got %s", Show(got))}}
		}
		var out []Mismatch
		for _, k := range sortedKeys(w) {
			gv, ok := g[k]
			if !ok {
				out = append(out, Mismatch{joinPath(base, k), fmt.Sprintf("want %s, but the field is absent", Show(w[k]))})
				continue
			}
			out = append(out, Diff(joinPath(base, k), w[k], gv)...)
		}
		for _, k := range sortedKeys(g) {
			if _, ok := w[k]; !ok {
				out = append(out, Mismatch{joinPath(base, k), fmt.Sprintf("want no such field, got %s", Show(g[k]))})
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []Mismatch{{base, fmt.Sprintf("want a list, got %s", Show(got))}}
		}
		var out []Mismatch
		for i := 0; i < len(w) && i < len(g); i++ {
			out = append(out, Diff(fmt.Sprintf("%s[%d]", base, i), w[i], g[i])...)
		}
		if len(w) != len(g) {
			out = append(out, Mismatch{base, fmt.Sprintf("want %d entries, got %d", len(w), len(g))})
		}
		return out
	}
	if a, ok := number(want); ok {
		if b, ok := number(got); ok && a.Cmp(b) == 0 {
			return nil
		}
		return []Mismatch{{base, fmt.Sprintf("want %s, got %s", Show(want), Show(got))}}
	}
	if want != got {
		return []Mismatch{{base, fmt.Sprintf("want %s, got %s", Show(want), Show(got))}}
	}
	return nil
}

// number reads a JSON number exactly.
func number(v any) (*big.Rat, bool) {
	var s string
	switch t := v.(type) {
	case json.Number:
		s = string(t)
	case int:
		s = strconv.Itoa(t)
	case int64:
		s = strconv.FormatInt(t, 10)
	case float64:
		s = strconv.FormatFloat(t, 'g', -1, 64)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// Show writes a value compactly for messages.
func Show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// Glob matches s against a pattern where * is any run of characters, ?
// one character and [...] a class; matching ignores case (e-mail
// addresses).
func Glob(pattern, s string) bool {
	slash := func(x string) string { return strings.ToLower(strings.ReplaceAll(x, "/", "\x00")) }
	ok, err := path.Match(slash(pattern), slash(s))
	return err == nil && ok
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkMatcher validates a matcher's operators (regex syntax, argument
// types) and answers the problems under the given path.
func checkMatcher(want any, at []any, add func(path []any, format string, a ...any)) {
	switch w := want.(type) {
	case map[string]any:
		if !isOperatorMap(w) {
			for _, k := range sortedKeys(w) {
				if _, err := ParsePath(k); err != nil {
					add(append(at, k), "%v", err)
					continue
				}
				checkMatcher(w[k], append(append([]any(nil), at...), k), add)
			}
			return
		}
		for _, op := range sortedKeys(w) {
			arg, p := w[op], append(append([]any(nil), at...), op)
			switch op {
			case "exists", "absent":
				if _, ok := arg.(bool); !ok {
					add(p, "%s takes true or false", op)
				}
			case "regex":
				s, ok := arg.(string)
				if !ok {
					add(p, "regex takes a string")
				} else if _, err := wire.CompilePattern(s); err != nil {
					add(p, "bad regex: %v", err)
				}
			case "glob":
				s, ok := arg.(string)
				if !ok {
					add(p, "glob takes a string")
				} else if _, err := path.Match(s, ""); err != nil {
					add(p, "bad glob: %v", err)
				}
			case "gt", "gte", "lt", "lte":
				if str, isStr := arg.(string); isStr && strings.Contains(str, "${") {
					break
				}
				if _, ok := number(arg); !ok {
					add(p, "%s takes a number", op)
				}
			case "len":
				checkMatcher(arg, p, add)
			case "one_of":
				if _, ok := arg.([]any); !ok {
					add(p, "one_of takes a list")
				}
			case "type":
				switch arg {
				case "string", "number", "boolean", "null", "object", "array":
				default:
					add(p, "type is one of string, number, boolean, null, object, array")
				}
			}
		}
		if _, e := w["exists"]; e {
			if _, a := w["absent"]; a {
				add(at, "exists and absent contradict each other")
			}
		}
	case []any:
		for i, e := range w {
			checkMatcher(e, append(append([]any(nil), at...), i), add)
		}
	}
}
