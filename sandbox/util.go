package sandbox

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

func itoa(i int) string { return strconv.Itoa(i) }

func parseInt64(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

// mergeJSONInto applies a partial JSON tree onto dst: fields present in the
// tree change, the others keep their values. Unknown keys are refused so that
// a typo in a control call does not pass silently.
func mergeJSONInto(tree map[string]any, dst any) error {
	b, err := json.Marshal(tree)
	if err != nil {
		return apierr.Badf("", "invalid body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return apierr.Badf("", "invalid body: %v", err)
	}
	return nil
}

// intPtr returns a pointer to a copy of v.
func intPtr(v int) *int { return &v }

// sortedStringKeys returns a map's keys in order (used across the package).
func sortedStringKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
