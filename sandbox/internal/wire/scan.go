package wire

import (
	"bytes"
	"fmt"
	"io"
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

// firstChunk and maxChunk bound the pieces readExact reads in: small at
// first (most parts are a few bytes), doubling up to maxChunk.
const (
	firstChunk = 512
	maxChunk   = 1 << 20
)

// readExact reads r to its end into a slice of exactly the size read: it
// collects fixed-size chunks and copies them once, so that no buffer is kept
// at the capacity io.ReadAll grows to (up to twice the data), and a body
// declaring more than it sends costs only what it sent.
func readExact(r io.Reader) ([]byte, error) {
	var chunks [][]byte
	total, size := 0, firstChunk
	for {
		buf := make([]byte, size)
		size = min(2*size, maxChunk)
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var m int
			m, err = r.Read(buf[n:])
			n += m
		}
		if n > 0 {
			chunks = append(chunks, buf[:n])
			total += n
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}
