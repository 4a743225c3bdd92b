package state

// Strings in the row codec (row_codec.go), written once per row: a
// string equal to one the row's encoding already holds is written as a
// back-reference to those bytes, and decodes as a string over them.
//
// Strings are most of a frozen row, and a row repeats many of them: the
// requester's e-mail as the actor of audit lines, the title as the
// original title, an audit line's detail and the file set's name, a
// signature id in its link secret, a document's blob id as its PDF's.
// Decoded strings point into the encoding anyway, so a repeat can point
// at the first one's bytes at no cost.
//
// A string is a uvarint header h and what follows:
//   - h&1 == 0: a literal, h>>1 bytes;
//   - h&1 == 1: a back-reference to h>>1 bytes (at least
//     rowStringMinRef), then the uvarint offset of those bytes from the
//     start of the row's encoding. The encoder points at an earlier
//     literal's bytes; the decoder accepts any bytes that end before the
//     header, which are bytes it has read, and refuses all else.
//
// Every string the codec writes goes this way: fields, map keys and the
// strings and numbers of interface values alike, so that one decoder
// reads them all.

import (
	"encoding/binary"
	"unsafe"
)

// rowStringMinRef is the shortest string written as a back-reference: a
// reference takes a byte or two of offset, so shorter strings would save
// little.
const rowStringMinRef = 4

// appendRowString appends s as a literal.
func appendRowString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s))<<1)
	return append(dst, s...)
}

// backRef reads the rest of a back-reference to n bytes whose header
// began at start: their offset, which must put them inside the bytes
// before the header. The answer points into buf.
func (d *rowDecoder) backRef(start int, n uint64) (string, error) {
	off, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if n < rowStringMinRef {
		return "", d.corrupt("back-reference too short")
	}
	if n > uint64(start) || off > uint64(start)-n {
		return "", d.corrupt("back-reference beyond the bytes before it")
	}
	return unsafe.String(&d.buf[off], int(n)), nil
}
