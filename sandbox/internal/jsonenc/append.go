package jsonenc

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Appender is a value that writes its own JSON: the bytes json.Marshal
// would give, appended to dst. Hot answers (a signature request, a list
// page) implement it so that they are written straight from the stored
// rows instead of through intermediate structs, maps and pointers, each
// of which is an object the garbage collector must later find and free.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// hex are the digits of \u escapes, lower case as json.Marshal writes them.
const hex = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as json.Marshal writes
// it: <, > and & escaped as \u003c, \u003e and \u0026, control characters
// as their short escapes or \u00XX, invalid UTF-8 as \ufffd, and U+2028
// and U+2029 escaped (they end lines in JavaScript).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, true)
	return append(dst, '"')
}

// AppendStringKeepHTML appends s as a JSON string as a json.Encoder with
// SetEscapeHTML(false) writes it: as AppendString, but with <, > and &
// kept as they are (callback payloads are written that way).
func AppendStringKeepHTML(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, false)
	return append(dst, '"')
}

// AppendJoined appends the concatenation of parts as one JSON string
// without building it (URLs made of a base and an id). Escaping works
// character by character, so ASCII parts are escaped one by one; when a
// part has other bytes they are joined first, so that a character split
// across two parts is read whole, as in the joined string.
func AppendJoined(dst []byte, parts ...string) []byte {
	for _, p := range parts {
		if !isASCII(p) {
			return AppendString(dst, strings.Join(parts, ""))
		}
	}
	dst = append(dst, '"')
	for _, p := range parts {
		dst = appendEscaped(dst, p, true)
	}
	return append(dst, '"')
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendEscaped appends s escaped for the inside of a JSON string; html
// says whether <, > and & are escaped too.
func appendEscaped(dst []byte, s string, html bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// AppendNullString appends s as a JSON string, or null when it is empty:
// the nullable strings of the official schemas.
func AppendNullString(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "null"...)
	}
	return AppendString(dst, s)
}

// AppendBool appends true or false.
func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// AppendInt appends an integer.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// AppendNullInt appends *n, or null when n is nil.
func AppendNullInt(dst []byte, n *int64) []byte {
	if n == nil {
		return append(dst, "null"...)
	}
	return strconv.AppendInt(dst, *n, 10)
}

// AppendStrings appends a list of strings; a nil list is null, as
// json.Marshal writes it.
func AppendStrings(dst []byte, list []string) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}

// AppendValue appends any value as json.Marshal would. Strings, booleans,
// nil and the objects and arrays decoded JSON is made of are written here;
// anything else (numbers, whose formatting json.Marshal owns) goes through
// json.Marshal.
func AppendValue(dst []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, t), nil
	case bool:
		return strconv.AppendBool(dst, t), nil
	case map[string]any:
		return AppendObject(dst, t, func(v any) any { return v })
	case []any:
		if t == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range t {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendValue(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// AppendObject appends a map as a JSON object with its keys sorted, as
// json.Marshal writes maps, each value passed through value first (a nil
// map is null).
func AppendObject(dst []byte, m map[string]any, value func(any) any) ([]byte, error) {
	if m == nil {
		return append(dst, "null"...), nil
	}
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = AppendValue(dst, value(m[k])); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}
