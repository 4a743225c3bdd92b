package wire

// Building the tree of a JSON body that encoding/json has checked (Valid):
// the same values json.Decoder with UseNumber gives (map[string]any,
// []any, string, json.Number, bool, nil; a repeated key keeps its last
// value), built straight from the body's bytes. The decoder would first
// copy the whole document into a buffer of its own, growing it by
// doubling: for a body of tens of megabytes, up to twice its size more.

import (
	"encoding/json"
	"unicode/utf8"
)

// jsonTree is the value of raw, which must be valid JSON (json.Valid).
func jsonTree(raw []byte) any {
	v, _ := jsonValue(raw, skipSpace(raw, 0))
	return v
}

// jsonValue reads the value at raw[i:] and answers it and the offset
// after it.
func jsonValue(raw []byte, i int) (any, int) {
	switch raw[i] {
	case '{':
		m := map[string]any{}
		i = skipSpace(raw, i+1)
		if raw[i] == '}' {
			return m, i + 1
		}
		for {
			var k string
			k, i = jsonString(raw, i)
			i = skipSpace(raw, i)
			i = skipSpace(raw, i+1) // the colon
			var v any
			v, i = jsonValue(raw, i)
			m[k] = v
			i = skipSpace(raw, i)
			if raw[i] == '}' {
				return m, i + 1
			}
			i = skipSpace(raw, i+1) // the comma
		}
	case '[':
		l := []any{}
		i = skipSpace(raw, i+1)
		if raw[i] == ']' {
			return l, i + 1
		}
		for {
			var v any
			v, i = jsonValue(raw, i)
			l = append(l, v)
			i = skipSpace(raw, i)
			if raw[i] == ']' {
				return l, i + 1
			}
			i = skipSpace(raw, i+1)
		}
	case '"':
		return jsonString(raw, i)
	case 't':
		return true, i + len("true")
	case 'f':
		return false, i + len("false")
	case 'n':
		return nil, i + len("null")
	}
	end := i
	for end < len(raw) && isNumberByte(raw[end]) {
		end++
	}
	return json.Number(raw[i:end]), end
}

// jsonString reads the string literal at raw[i] (its opening quote). One
// without escapes and with valid UTF-8 is its bytes; any other is decoded
// by encoding/json itself, so that escapes and invalid bytes come out as
// the decoder gives them.
func jsonString(raw []byte, i int) (string, int) {
	start := i + 1
	plain, ascii := true, true
	j := start
	for ; raw[j] != '"'; j++ {
		switch c := raw[j]; {
		case c == '\\':
			plain = false
			j++ // the escaped character, which may be a quote
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if plain && (ascii || utf8.Valid(raw[start:j])) {
		return string(raw[start:j]), j + 1
	}
	var s string
	_ = json.Unmarshal(raw[i:j+1], &s) // valid: the document was
	return s, j + 1
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
