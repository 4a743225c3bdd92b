package legacy

import (
	"bytes"
	"encoding/json"
	"errors"
)

// orderedObject is a JSON object that remembers the order of its keys (a
// Go map does not, and old signer lists key signers and custom fields by
// name, meaning the order they are written in).
type orderedObject struct {
	keys   []string
	values map[string]any
}

// parseOrderedJSON parses one JSON value, objects as *orderedObject and
// numbers as json.Number.
func parseOrderedJSON(s string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	v, err := readOrdered(dec, 0)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the value")
	}
	return v, nil
}

// maxOrderedDepth bounds nesting as the wire decoder does.
const maxOrderedDepth = 16

func readOrdered(dec *json.Decoder, depth int) (any, error) {
	if depth > maxOrderedDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &orderedObject{values: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := readOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.values[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.values[k] = v
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := readOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		return nil, errors.New("unexpected delimiter")
	default:
		return t, nil
	}
}

// plainObject is v as a plain map (nested ordered objects and lists made
// plain too), or nil when v is no object.
func plainObject(v any) map[string]any {
	switch t := v.(type) {
	case map[string]any:
		return t
	case *orderedObject:
		m, _ := plain(t).(map[string]any)
		return m
	}
	return nil
}

func plain(v any) any {
	switch t := v.(type) {
	case *orderedObject:
		m := make(map[string]any, len(t.values))
		for k, c := range t.values {
			m[k] = plain(c)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = plain(c)
		}
		return out
	}
	return v
}
