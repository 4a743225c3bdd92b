package scenario

// Field paths (a.b[0].c, ["key.with.dots"]) into JSON values, as matchers
// and ${...} expressions write them.

import (
	"fmt"
	"strconv"
	"strings"
)

// Segment is one step of a field path: a key or a list index.
type Segment struct {
	Key   string
	Index int
	IsIdx bool
}

// ParsePath reads a.b[0].c (a key holding dots or brackets is written
// ["a.b"]).
func ParsePath(s string) ([]Segment, error) {
	var out []Segment
	i := 0
	for i < len(s) {
		switch s[i] {
		case '.':
			i++
			if i == len(s) || s[i] == '.' || s[i] == '[' {
				return nil, fmt.Errorf("bad path %q: empty key", s)
			}
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("bad path %q: [ without ]", s)
			}
			inner := s[i+1 : i+end]
			if strings.HasPrefix(inner, `"`) {
				k, err := strconv.Unquote(inner)
				if err != nil {
					return nil, fmt.Errorf("bad path %q: %v", s, err)
				}
				out = append(out, Segment{Key: k})
			} else {
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("bad path %q: [%s] is not an index", s, inner)
				}
				out = append(out, Segment{Index: n, IsIdx: true})
			}
			i += end + 1
			continue
		}
		j := i
		for j < len(s) && s[j] != '.' && s[j] != '[' {
			j++
		}
		if j > i {
			out = append(out, Segment{Key: s[i:j]})
		}
		i = j
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty path")
	}
	return out, nil
}

// Resolve follows a path into a JSON value.
func Resolve(v any, p []Segment) (any, bool) {
	for _, s := range p {
		if s.IsIdx {
			l, ok := v.([]any)
			if !ok || s.Index >= len(l) {
				return nil, false
			}
			v = l[s.Index]
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[s.Key]; !ok {
			return nil, false
		}
	}
	return v, true
}

func joinPath(base, k string) string {
	switch {
	case base == "":
		return k
	case strings.HasPrefix(k, "["):
		return base + k
	}
	return base + "." + k
}
