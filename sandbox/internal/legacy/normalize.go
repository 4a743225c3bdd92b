package legacy

import (
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Normalize rewrites the older parameter forms of a decoded form body
// (urlencoded or multipart) into the current ones, in place, for the
// operation operationID; it refuses a body that gives one parameter in both
// its older and its current shape, naming both. JSON bodies are left alone:
// no older client sent JSON, and a JSON object has no order to keep.
func Normalize(operationID string, b *wire.Body) error {
	if b == nil || !b.Form {
		return nil
	}
	for _, step := range []func(string, *wire.Body) error{
		fileURLs,
		fileParts,
		templateID,
		roleKeyed("signers"),
		roleKeyed("ccs"),
		signerGroups,
		customFieldsByName,
		bulkSignerList,
		apiAppFields,
	} {
		if err := step(operationID, b); err != nil {
			return err
		}
	}
	return nil
}

// mixed is the refusal of a parameter given in its older and its current
// shape at once: which one the client meant cannot be known.
func mixed(older, current, param string) error {
	return apierr.Badf(param, "%s and %s are the older and the current form of the same parameter %s: send only one of them", older, current, param)
}

// isIndex reports whether a bracket segment is a list index ("0", "12"), as
// the wire decoder reads them (canonical decimal only).
func isIndex(seg string) bool {
	i, err := strconv.Atoi(seg)
	return err == nil && i >= 0 && strconv.Itoa(i) == seg
}

// splitKeys parts a map's keys into list indexes (in numeric order) and
// names (in sorted order).
func splitKeys(m map[string]any) (indexes, names []string) {
	for k := range m {
		if isIndex(k) {
			indexes = append(indexes, k)
		} else {
			names = append(names, k)
		}
	}
	sort.Slice(indexes, func(i, j int) bool {
		a, _ := strconv.Atoi(indexes[i])
		b, _ := strconv.Atoi(indexes[j])
		return a < b
	})
	sort.Strings(names)
	return indexes, names
}

// inBodyOrder sorts names, the keys of param[name][...] fields, by where
// each first appears in the body (order, the body's field names); a name the
// order does not show (none should) goes last, by name.
func inBodyOrder(order []string, param string, names []string) []string {
	first := map[string]int{}
	prefix := param + "["
	for i, field := range order {
		rest, ok := strings.CutPrefix(field, prefix)
		if !ok {
			continue
		}
		name, _, ok := strings.Cut(rest, "]")
		if _, seen := first[name]; ok && !seen {
			first[name] = i
		}
	}
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool {
		pi, oki := first[out[i]]
		pj, okj := first[out[j]]
		switch {
		case oki && okj:
			return pi < pj
		case oki != okj:
			return oki
		}
		return out[i] < out[j]
	})
	return out
}
