package param

// Metadata of signature requests and templates: one check of the limits the
// official description gives every metadata parameter ("up to 10 metadata
// keys (or 50 nested metadata keys), with key names up to 40 characters
// long and values up to 1000 characters long").

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Documented metadata limits.
const (
	maxMetadataKeys       = 10
	maxMetadataNestedKeys = 50
	maxMetadataKeyLen     = 40
	maxMetadataValueLen   = 1000
)

// CheckMetadata applies the documented limits: at most 10 keys, and 50
// counting the keys of nested objects; keys of 1 to 40 characters; values
// of up to 1000 characters as MetadataText writes them. Keys are checked in
// order, so the first bad one is named (metadata[key]) whatever the map's
// order.
func CheckMetadata(m map[string]any) *apierr.Error {
	if len(m) > maxMetadataKeys {
		return apierr.Badf("metadata", "metadata can have at most %d keys (got %d).", maxMetadataKeys, len(m))
	}
	if n := countMetadataKeys(m); n > maxMetadataNestedKeys {
		return apierr.Badf("metadata", "metadata can have at most %d keys counting nested keys (got %d).", maxMetadataNestedKeys, n)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := "metadata[" + k + "]"
		if k == "" {
			return apierr.Badf("metadata", "metadata keys cannot be empty.")
		}
		if n := len([]rune(k)); n > maxMetadataKeyLen {
			return apierr.Badf(p, "metadata keys can be at most %d characters (got %d).", maxMetadataKeyLen, n)
		}
		if n := len([]rune(MetadataText(m[k]))); n > maxMetadataValueLen {
			return apierr.Badf(p, "metadata values can be at most %d characters (got %d).", maxMetadataValueLen, n)
		}
	}
	return nil
}

// countMetadataKeys counts the keys of an object and of the objects nested
// in it (inside arrays too).
func countMetadataKeys(v any) int {
	n := 0
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			n += 1 + countMetadataKeys(x)
		}
	case []any:
		for _, x := range t {
			n += countMetadataKeys(x)
		}
	}
	return n
}

// MetadataJSON checks metadata and encodes it as the JSON templates store:
// numbers exactly as given (the body decoder keeps them as json.Number),
// "{}" when there is none.
func MetadataJSON(m map[string]any) (json.RawMessage, *apierr.Error) {
	if len(m) == 0 {
		return json.RawMessage(`{}`), nil
	}
	if e := CheckMetadata(m); e != nil {
		return nil, e
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, apierr.Badf("metadata", "Invalid metadata.")
	}
	return b, nil
}

// MetadataText is a metadata value as text (wire.Text): strings as they
// are, numbers by their exact digits, anything else as JSON. The value
// limit measures it and the list search matches it.
func MetadataText(v any) string { return wire.Text(v) }
