package rowcodec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// typicalRepeats points at the fields of a typical request (see
// typicalRequest) that repeat a string written before them.
func typicalRepeats(r *SignatureRequest) []*string {
	return []*string{
		&r.OriginalTitle, &r.Audit[0].Detail, &r.Files.Name, // the title
		&r.Audit[0].Actor, &r.Audit[1].Actor, // the requester's e-mail
		&r.Documents[0].PDFBlobID,     // the blob id
		&r.LinkSecrets[0].SignatureID, // the signature id
	}
}

// TestRowCodecRepeatedStringsShrink encodes a typical request and the
// same request with each repeat made a string of its own, of the same
// length: the repeats cost a back-reference each (a header and an
// offset of at most two bytes) instead of their bytes.
func TestRowCodecRepeatedStringsShrink(t *testing.T) {
	c := requestCodec(t)
	row := typicalRequest(1)
	enc := roundTrip(t, c, row)

	distinct := typicalRequest(1)
	repeated, refs := 0, 0
	for i, p := range typicalRepeats(distinct) {
		if len(*p) < rowStringMinRef {
			t.Fatalf("repeat %d (%q) is too short to be referenced", i, *p)
		}
		repeated += len(*p)
		refs++
		*p = (*p)[:len(*p)-1] + string(rune('A'+i)) // same length, unlike any other
	}
	encDistinct := roundTrip(t, c, distinct)

	saved := len(encDistinct) - len(enc)
	t.Logf("typical request: %d bytes, %d with its %d repeats (%d bytes) distinct: %d saved",
		len(enc), len(encDistinct), refs, repeated, saved)
	if saved > repeated || saved < repeated-2*refs {
		t.Fatalf("repeats of %d bytes saved %d bytes, want %d..%d", repeated, saved, repeated-2*refs, repeated)
	}
}

// TestRowCodecRepeatedStringsShareBytes checks that a decoded repeat is
// the first occurrence's bytes in the encoding, for fields and for the
// strings of interface values and map keys alike.
func TestRowCodecRepeatedStringsShareBytes(t *testing.T) {
	c := requestCodec(t)
	row := typicalRequest(3)
	row.Metadata = map[string]any{"cc": "requester@example.com", "Mutual NDA with Acme Corp": []any{"Signer One"}}
	row.CCEmails = []string{"signer@example.com"}
	enc := roundTrip(t, c, row)
	got, err := c.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	r := got.(*SignatureRequest)
	var title string
	for k := range r.Metadata {
		if strings.HasPrefix(k, "Mutual") {
			title = k
		}
	}
	for name, pair := range map[string][2]string{
		"original title":         {r.Title, r.OriginalTitle},
		"audit detail":           {r.Title, r.Audit[0].Detail},
		"file set name":          {r.Title, r.Files.Name},
		"first audit actor":      {r.RequesterEmail, r.Audit[0].Actor},
		"second audit actor":     {r.RequesterEmail, r.Audit[1].Actor},
		"pdf blob id":            {r.Documents[0].BlobID, r.Documents[0].PDFBlobID},
		"link secret's signer":   {r.Signatures[0].ID, r.LinkSecrets[0].SignatureID},
		"cc e-mail":              {r.Signatures[0].Email, r.CCEmails[0]},
		"metadata value":         {r.RequesterEmail, r.Metadata["cc"].(string)},
		"metadata key":           {r.Title, title},
		"metadata nested string": {r.Signatures[0].Name, r.Metadata[title].([]any)[0].(string)},
	} {
		first, repeat := pair[0], pair[1]
		if first != repeat {
			t.Fatalf("%s: %q != %q", name, repeat, first)
		}
		if unsafe.StringData(first) != unsafe.StringData(repeat) {
			t.Errorf("%s: the repeat has bytes of its own", name)
		}
		if !insideEncoding(enc, first) {
			t.Errorf("%s: the string does not point into the encoding", name)
		}
	}
	// Strings too short to be worth a reference are written again.
	row = &SignatureRequest{ID: "abc", Title: "abc"}
	enc = roundTrip(t, c, row)
	got, _ = c.Decode(enc)
	if r := got.(*SignatureRequest); unsafe.StringData(r.ID) == unsafe.StringData(r.Title) {
		t.Errorf("a 3-byte string was written as a back-reference")
	}
}

// insideEncoding reports whether s's bytes lie inside enc.
func insideEncoding(enc []byte, s string) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(enc)))
	return p >= start && p+uintptr(len(s)) <= start+uintptr(len(enc))
}

// TestRowCodecManyStrings round-trips rows with more strings than the
// encoder's table remembers, and strings that hash alike (same length,
// same first and last four bytes), each repeated.
func TestRowCodecManyStrings(t *testing.T) {
	c := requestCodec(t)
	for _, n := range []int{rowStringMaxKept - 1, rowStringMaxKept, rowStringMaxKept + 1, 3 * rowStringSlots} {
		for _, alike := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d strings alike %v", n, alike), func(t *testing.T) {
				row := &SignatureRequest{ID: "many"}
				for i := range n {
					s := fmt.Sprintf("string number %d of many", i)
					if alike {
						s = fmt.Sprintf("head%06dtail", i)
					}
					row.CCEmails = append(row.CCEmails, s)
					row.TemplateIDs = append(row.TemplateIDs, s)
				}
				enc := roundTrip(t, c, row)
				got, _ := c.Decode(enc)
				r := got.(*SignatureRequest)
				shared := 0
				for i := range n {
					if unsafe.StringData(r.CCEmails[i]) == unsafe.StringData(r.TemplateIDs[i]) {
						shared++
					}
				}
				if want := min(n, rowStringMaxKept-1); shared != want { // the id is remembered too
					t.Fatalf("%d of %d repeats are back-references, want %d", shared, n, want)
				}
			})
		}
	}
}

// TestRowCodecStringsPast64KiB round-trips a row whose repeats lie
// beyond the first 64 KiB, where the encoder remembers no literal: a
// repeat of a literal there is written again, a repeat of one before it
// is still a back-reference.
func TestRowCodecStringsPast64KiB(t *testing.T) {
	c := requestCodec(t)
	row := &SignatureRequest{ID: "big-row-id", Message: strings.Repeat("m", 70_000),
		CCEmails: []string{"after the message", "after the message", "big-row-id"}} // after Message
	enc := roundTrip(t, c, row)
	got, _ := c.Decode(enc)
	r := got.(*SignatureRequest)
	if unsafe.StringData(r.CCEmails[0]) == unsafe.StringData(r.CCEmails[1]) {
		t.Error("a literal past 64 KiB was referred to")
	}
	if unsafe.StringData(r.CCEmails[2]) != unsafe.StringData(r.ID) {
		t.Error("a repeat of the id past 64 KiB was written again")
	}
}

// TestRowCodecEncodeAllocatesNothing checks that encode allocates
// nothing per row beyond the buffer it grows: the table of strings lives
// on its stack.
func TestRowCodecEncodeAllocatesNothing(t *testing.T) {
	c := requestCodec(t)
	row := typicalRequest(5)
	buf, err := c.Encode(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { buf, _ = c.Encode(buf[:0], row) }); n != 0 {
		t.Fatalf("encode into a buffer large enough allocated %v times per row", n)
	}
}

// TestRowCodecRefsFromOffset encodes after other bytes in dst: offsets
// count from the row's first byte, so the row's bytes are the same.
func TestRowCodecRefsFromOffset(t *testing.T) {
	c := requestCodec(t)
	row := typicalRequest(4)
	want, err := c.Encode(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	prefix := bytes.Repeat([]byte{0xab}, 300) // longer than a one-byte offset
	got, err := c.Encode(prefix, row)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("the row encodes differently after %d bytes", len(prefix))
	}
}

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
	c, err := New(reflect.TypeFor[codecStrings]())
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
		got, err := c.Decode(tc.enc)
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
		if got, err := c.Decode(enc); err == nil {
			t.Errorf("%s: %x decoded to %+v", name, enc, got)
		} else if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v is not ErrCorrupt", name, err)
		}
		checkDecodeSafe(t, c, enc)
	}
	if got := ID(cat(ref(4, 0), lit(""), lit(""))); got != "" {
		t.Errorf("rowCodecID of a back-reference first = %q", got)
	}

	// Offsets of two and three bytes (the decoder reads one- and
	// two-byte offsets inline, longer ones through value).
	for _, size := range []int{200, 20_000} {
		long := strings.Repeat("0123456789", size/10)
		idLong := lit(long) // a header of 2 or 3 bytes, then the bytes
		next := len(idLong) // where A's header begins
		// The bytes of a literal after A's reference, were it to point
		// at them.
		forward := next + len(ref(4, uint64(next))) + 1
		want := codecStrings{ID: long, A: long[size-4:], B: long[size-8 : size-4]}
		enc := cat(idLong, ref(4, uint64(next-4)), ref(4, uint64(next-8)))
		if got, err := c.Decode(enc); err != nil || !reflect.DeepEqual(got, &want) {
			t.Errorf("offsets into %d bytes: %v", size, err)
		}
		for name, enc := range map[string][]byte{
			"overlapping its header": cat(idLong, ref(4, uint64(next-3)), lit("")),
			"pointing forward":       cat(idLong, ref(4, uint64(forward)), lit("wxyz")),
			"past the end":           cat(idLong, ref(4, uint64(len(idLong)+100)), lit("")),
		} {
			if got, err := c.Decode(enc); err == nil {
				t.Errorf("%d bytes, %s: decoded to %+v", size, name, got)
			}
			checkDecodeSafe(t, c, enc)
		}
	}

	// Strings of interface values read references the same way.
	ca, err := New(reflect.TypeFor[codecAnyRow]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ca.Decode(cat(id, []byte{rowAnyString}, ref(6, 1)))
	if err != nil || !reflect.DeepEqual(got, &codecAnyRow{ID: "abcdef", V: "abcdef"}) {
		t.Errorf("interface string by reference: %+v, %v", got, err)
	}
	for _, enc := range [][]byte{
		cat(id, []byte{rowAnyNumber}, ref(4, 9), lit("wxyz")),
		cat(id, []byte{rowAnyMap, 2}, ref(4, 8), []byte{rowAnyNil}),
	} {
		if got, err := ca.Decode(enc); err == nil {
			t.Errorf("%x decoded to %+v", enc, got)
		}
	}
}
