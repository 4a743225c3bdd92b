package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// codecStrings is a row of strings, for hand-made encodings.
type codecStrings struct {
	ID string
	A  string
	B  string
}

// TestRowCodecBackRefs decodes hand-made back-references: one to bytes
// before its header decodes to those bytes (the encoder only points at
// literals, but any bytes before are safe to point at); any other is an
// error.
func TestRowCodecBackRefs(t *testing.T) {
	c, err := newRowCodec(reflect.TypeFor[codecStrings]())
	if err != nil {
		t.Fatal(err)
	}
	lit := func(s string) []byte { return appendRowString(nil, s) }
	ref := func(n, off uint64) []byte {
		return binary.AppendUvarint(binary.AppendUvarint(nil, n<<1|1), off)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	id := lit("abcdef") // a header at 0, the bytes at 1..6; what follows begins at 7
	for name, tc := range map[string]struct {
		enc  []byte
		want codecStrings
	}{
		"whole id":         {cat(id, ref(6, 1), lit("")), codecStrings{ID: "abcdef", A: "abcdef"}},
		"inside the id":    {cat(id, ref(4, 2), ref(4, 1)), codecStrings{ID: "abcdef", A: "bcde", B: "abcd"}},
		"up to its header": {cat(id, ref(4, 3), lit("")), codecStrings{ID: "abcdef", A: "cdef"}},
		"a header":         {cat(id, ref(4, 0), lit("")), codecStrings{ID: "abcdef", A: "\x0cabc"}},
		"all before it":    {cat(id, ref(7, 0), lit("")), codecStrings{ID: "abcdef", A: "\x0cabcdef"}},
		"a reference":      {cat(id, ref(6, 1), ref(4, 5)), codecStrings{ID: "abcdef", A: "abcdef", B: "ef\x0d\x01"}},
		"a later literal":  {cat(id, lit("wxyz"), ref(4, 8)), codecStrings{ID: "abcdef", A: "wxyz", B: "wxyz"}},
	} {
		got, err := c.decode(tc.enc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(got, &tc.want) {
			t.Errorf("%s: decoded %+v, want %+v", name, got, tc.want)
		}
		checkDecodeSafe(t, c, tc.enc)
	}
	for name, enc := range map[string][]byte{
		"pointing forward":       cat(id, ref(4, 9), lit("wxyz")),
		"at its own header":      cat(id, ref(4, 7), lit("wxyz")),
		"overlapping its header": cat(id, ref(4, 4), lit("")),
		"longer than before it":  cat(id, ref(8, 0), lit("")),
		"offset out of range":    cat(id, ref(4, 1000), lit("")),
		"offset overflowing":     cat(id, ref(4, 1<<63), lit("")),
		"length overflowing":     cat(id, ref(1<<62, 1), lit("")),
		"zero length":            cat(id, ref(0, 1), lit("")),
		"zero length at zero":    cat(id, ref(0, 0), lit("")),
		"shorter than worth it":  cat(id, ref(3, 1), lit("")),
		"no offset":              cat(id, ref(4, 1)[:1]),
		"bad offset varint":      cat(id, ref(4, 1)[:1], bytes.Repeat([]byte{0xff}, 10), lit("")),
		"the first string":       cat(ref(4, 0), lit(""), lit("")),
		"the first, zero":        cat(ref(0, 0), lit(""), lit("")),
	} {
		if got, err := c.decode(enc); err == nil {
			t.Errorf("%s: %x decoded to %+v", name, enc, got)
		} else if !errors.Is(err, errRowCodecCorrupt) {
			t.Errorf("%s: error %v is not errRowCodecCorrupt", name, err)
		}
		checkDecodeSafe(t, c, enc)
	}
	if got := rowCodecID(cat(ref(4, 0), lit(""), lit(""))); got != "" {
		t.Errorf("rowCodecID of a back-reference first = %q", got)
	}

	// Strings of interface values read references the same way.
	ca, err := newRowCodec(reflect.TypeFor[codecAnyRow]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ca.decode(cat(id, []byte{rowAnyString}, ref(6, 1)))
	if err != nil || !reflect.DeepEqual(got, &codecAnyRow{ID: "abcdef", V: "abcdef"}) {
		t.Errorf("interface string by reference: %+v, %v", got, err)
	}
	for _, enc := range [][]byte{
		cat(id, []byte{rowAnyNumber}, ref(4, 9), lit("wxyz")),
		cat(id, []byte{rowAnyMap, 2}, ref(4, 8), []byte{rowAnyNil}),
	} {
		if got, err := ca.decode(enc); err == nil {
			t.Errorf("%x decoded to %+v", enc, got)
		}
	}
}
