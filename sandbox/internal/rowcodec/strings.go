package rowcodec

// Strings in the row codec (codec.go), written once per row: a
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
	"math"
	"unsafe"
)

const (
	// rowStringMinRef is the shortest string written as a
	// back-reference: a reference takes a byte or two of offset, so
	// shorter strings save little, and each remembered costs a slot.
	rowStringMinRef = 4
	// rowStringSlots (1<<rowStringSlotBits) is the size of the table of
	// literals written: twice rowStringMaxKept, so that probes stay short.
	rowStringSlotBits = 7
	rowStringSlots    = 1 << rowStringSlotBits
	// rowStringMaxKept is how many literals a row's table remembers. A
	// typical request writes about twenty; in a row with more, repeats
	// of the later ones are written again.
	rowStringMaxKept = rowStringSlots / 2
)

// rowStrings is the table of literals (at least rowStringMinRef bytes)
// one row's encoding has written: an open-addressed hash table of their
// offsets and lengths, looked up by content. encode keeps it on its
// stack (half a kilobyte to clear per row), so a row allocates nothing
// for it.
type rowStrings struct {
	// base is where the row's encoding begins in dst: offsets count
	// from it, so that a row encodes to the same bytes wherever it is
	// appended.
	base  int
	kept  int
	slots [rowStringSlots]rowStringSlot
}

// rowStringSlot is a literal's bytes, at base+off; len 0 is an empty
// slot. Literals beyond the first 64 KiB of a row (rows take about one
// KiB) are not remembered, so that an offset is at most three bytes and
// a reference is always shorter than the string.
type rowStringSlot struct {
	off, len uint16
}

// appendString appends s: a back-reference when dst holds a literal
// equal to s since base, else a literal.
func (t *rowStrings) appendString(dst []byte, s string) []byte {
	if len(s) >= rowStringMinRef {
		return t.appendLong(dst, s)
	}
	return append(append(dst, byte(len(s))<<1), s...) // a one-byte header
}

// appendLong is appendString of a string long enough to be remembered: it
// looks s up in the table and remembers it when it is not there. The
// search begins at a slot that hashes s's length and its first and last
// four bytes, which tell the strings of a row apart (ids differ at both
// ends) at the cost of two loads.
func (t *rowStrings) appendLong(dst []byte, s string) []byte {
	n := len(s)
	head := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
	tail := uint64(s[n-4]) | uint64(s[n-3])<<8 | uint64(s[n-2])<<16 | uint64(s[n-1])<<24
	i := ((head | tail<<32) ^ uint64(n)) * 0x9e3779b97f4a7c15 >> (64 - rowStringSlotBits)
	for {
		slot := &t.slots[i]
		if slot.len == 0 {
			break
		}
		if int(slot.len) == n {
			at := t.base + int(slot.off)
			if string(dst[at:at+n]) == s {
				dst = binary.AppendUvarint(dst, uint64(n)<<1|1)
				return binary.AppendUvarint(dst, uint64(slot.off))
			}
		}
		i = (i + 1) & (rowStringSlots - 1)
	}
	dst = binary.AppendUvarint(dst, uint64(n)<<1)
	if off := len(dst) - t.base; t.kept < rowStringMaxKept && off+n <= math.MaxUint16 {
		t.slots[i] = rowStringSlot{off: uint16(off), len: uint16(n)}
		t.kept++
	}
	return append(dst, s...)
}

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
