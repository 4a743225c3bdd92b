package wire

import (
	"bytes"
	"fmt"
)

// ScanJSON bounds the work a JSON decoder will do on raw before it builds
// anything: it counts the nesting depth (the top-level object or array is
// level 1) and the values, in one pass that allocates nothing, and stops at
// the first level or value over the limit. It does not check the syntax
// (the decoder does that); it only makes sure that a small document cannot
// make the decoder build a tree millions of levels deep or items long.
// A limit of 0 or less is no limit.
func ScanJSON(raw []byte, maxDepth, maxValues int) error {
	depth, values := 0, 0
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			values++
		case '{', '[':
			depth++
			values++
			if maxDepth > 0 && depth > maxDepth {
				return fmt.Errorf("nested more than %d levels deep", maxDepth)
			}
		case '}', ']':
			depth--
		case ',', ':':
			// Each separator introduces one more value (numbers, true,
			// false and null are counted by the separators around them).
			values++
		}
		if maxValues > 0 && values > maxValues {
			return fmt.Errorf("holds more than %d values", maxValues)
		}
	}
	return nil
}

// trailingData reports whether anything but white space follows the first
// JSON value a decoder has read from raw. (json.Decoder.More is no test for
// this: it answers false before a stray ] or }.)
func trailingData(raw []byte, offset int64) bool {
	if offset < 0 || offset > int64(len(raw)) {
		return false
	}
	return len(bytes.TrimLeft(raw[offset:], " \t\r\n")) > 0
}

// maxChunk bounds the pieces a read longer than the scratch buffer
// continues in (each twice the last).
const maxChunk = 1 << 20
