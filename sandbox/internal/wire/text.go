package wire

import (
	"encoding/json"
	"fmt"
)

// Text writes a decoded JSON value as text: strings as they are, numbers
// (decoded with UseNumber) by their exact digits, null as "", anything
// else (booleans, objects, arrays) as JSON. Metadata values are measured
// and searched this way, and scenario expressions interpolate values so.
func Text(v any) string {
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
