package param

import (
	"encoding/json"
	"strings"
)

// AsBool reads a boolean as clients send one (true/false, "true"/"false",
// "1"/"0", "" for false, 1/0) and reports whether v was one. Signer values
// and white-labeling options use it.
func AsBool(v any) (bool, bool) {
	switch t := v.(type) {
	case bool:
		return t, true
	case string:
		switch strings.ToLower(t) {
		case "true", "1":
			return true, true
		case "false", "0", "":
			return false, true
		}
	case json.Number:
		switch string(t) {
		case "1":
			return true, true
		case "0":
			return false, true
		}
	case float64:
		return t != 0, t == 0 || t == 1
	}
	return false, false
}
