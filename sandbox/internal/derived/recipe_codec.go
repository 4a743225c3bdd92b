package derived

// The stored form of a recipe. A world keeps one recipe per prepared
// request for the rest of the request's life, so the form is compact
// binary rather than JSON: no field names, numbers as varints, a string
// that comes again (the requester on every audit line, the title that is
// also an audit detail) as a back-reference, and lowercase hex strings
// (object and blob ids) as their bytes. Recipes written as JSON by earlier
// versions (worlds exported before) still decode: their first byte is
// '{', which a binary recipe never starts with.

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// The first byte of a binary recipe is its format version: recipeV2 adds
// the signature each signer of an appended signature page signed with;
// recipes of version 1 still decode (their signers signed with their
// names).
const (
	recipeV1 = 0x01
	recipeV2 = 0x02
)

// String tags: a new string follows as text or as the bytes of its
// lowercase hex form; a larger tag names an earlier string.
const (
	strText = 0
	strHex  = 1
	strRef  = 2 // strRef+i is the i-th string kept for back-reference
)

// Document forms: referenced (the reference follows), or inline without
// bytes (nil) or with them.
const (
	docRef    = 0
	docNil    = 1
	docInline = 2
)

// Number forms: an integral value as a varint, anything else as its bits.
const (
	numInt  = 0
	numBits = 1
)

// recipeWriter appends a recipe's fields.
type recipeWriter struct {
	buf  []byte
	seen map[string]int // string -> index for back-references
	n    int            // strings kept so far
}

func (w *recipeWriter) uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *recipeWriter) int(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }

func (w *recipeWriter) bool(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

func (w *recipeWriter) bytes(b []byte) {
	w.uint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

func (w *recipeWriter) str(s string) {
	if i, ok := w.seen[s]; ok {
		w.uint(uint64(strRef + i))
		return
	}
	if isLowerHex(s) {
		w.uint(strHex)
		raw, _ := hex.DecodeString(s)
		w.bytes(raw)
	} else {
		w.uint(strText)
		w.bytes([]byte(s))
	}
	if s != "" {
		w.seen[s] = w.n
		w.n++
	}
}

// num keeps a float exactly: integral values (not -0) as varints.
func (w *recipeWriter) num(f float64) {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f)) {
		w.buf = append(w.buf, numInt)
		w.int(int64(f))
		return
	}
	w.buf = append(w.buf, numBits)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(f))
}

// time keeps an instant (rendering reads instants in UTC, so the zone is
// not kept).
func (w *recipeWriter) time(t time.Time) {
	w.int(t.Unix())
	w.uint(uint64(t.Nanosecond()))
}

// isLowerHex reports whether s is a non-empty, even-length lowercase hex
// string, which is kept as its bytes and comes back the same.
func isLowerHex(s string) bool {
	if s == "" || len(s)%2 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// encodeBinary writes a recipe in the binary form.
func encodeBinary(c *pdf.Composition, refs []string) []byte {
	return encodeBinaryVersion(c, refs, recipeV2)
}

// encodeBinaryVersion writes a recipe in the binary form of a version
// (earlier ones only for the tests that check they still decode).
func encodeBinaryVersion(c *pdf.Composition, refs []string, version byte) []byte {
	w := &recipeWriter{buf: make([]byte, 0, 256), seen: map[string]int{}}
	w.buf = append(w.buf, version)
	w.str(c.ID)
	w.str(c.Title)
	w.bool(c.CoverPage != nil)
	if p := c.CoverPage; p != nil {
		for _, s := range []string{p.To, p.From, p.Message, p.Recipient, p.Sender} {
			w.str(s)
		}
		w.int(int64(p.Pages))
	}
	w.uint(uint64(len(c.Documents)))
	for i, d := range c.Documents {
		w.str(d.Name)
		switch {
		case i < len(refs) && refs[i] != "":
			w.buf = append(w.buf, docRef)
			w.str(refs[i])
		case d.PDF == nil:
			w.buf = append(w.buf, docNil)
		default:
			w.buf = append(w.buf, docInline)
			w.bytes(d.PDF)
		}
	}
	w.bool(c.SignaturePage != nil)
	if p := c.SignaturePage; p != nil {
		w.uint(uint64(len(p.Signers)))
		for _, s := range p.Signers {
			w.str(s.Name)
			w.str(s.Email)
			w.str(s.Status)
			w.bool(s.SignedAt != nil)
			if s.SignedAt != nil {
				w.time(*s.SignedAt)
			}
			if version >= recipeV2 {
				w.str(s.Signature)
			}
		}
	}
	w.uint(uint64(len(c.Stamps)))
	for _, s := range c.Stamps {
		w.int(int64(s.Document))
		w.int(int64(s.Page))
		w.num(s.X)
		w.num(s.Y)
		w.num(s.Width)
		w.num(s.Height)
		w.str(s.Text)
		w.str(s.Kind)
	}
	w.bool(c.TestMode)
	w.uint(uint64(len(c.Audit)))
	for _, a := range c.Audit {
		w.time(a.Time)
		w.str(a.Actor)
		w.str(a.Action)
		w.str(a.Detail)
	}
	w.time(c.At)
	// The buffer is kept for the life of the request: no spare capacity.
	return append([]byte(nil), w.buf...)
}

// errRecipeShort is the answer for a binary recipe that ends too soon or
// holds a value out of range (a damaged import).
var errRecipeShort = errors.New("derived: recipe is truncated or damaged")

// recipeReader reads a binary recipe; the first error sticks and later
// reads answer zero values.
type recipeReader struct {
	buf  []byte
	kept []string
	err  error
}

func (r *recipeReader) fail() {
	if r.err == nil {
		r.err = errRecipeShort
	}
	r.buf = nil
}

func (r *recipeReader) uint() uint64 {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *recipeReader) int() int64 {
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// small reads an int that must fit an int.
func (r *recipeReader) small() int {
	v := r.int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.fail()
		return 0
	}
	return int(v)
}

// count reads a number of entries, each taking at least one byte.
func (r *recipeReader) count() int {
	v := r.uint()
	if v > uint64(len(r.buf)) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *recipeReader) byte() byte {
	if len(r.buf) == 0 {
		r.fail()
		return 0
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *recipeReader) bool() bool {
	b := r.byte()
	if b > 1 {
		r.fail()
	}
	return b == 1
}

func (r *recipeReader) bytes() []byte {
	n := r.uint()
	if n > uint64(len(r.buf)) {
		r.fail()
		return nil
	}
	b := append([]byte{}, r.buf[:n]...)
	r.buf = r.buf[n:]
	return b
}

func (r *recipeReader) str() string {
	tag := r.uint()
	var s string
	switch {
	case tag == strText:
		s = string(r.bytes())
	case tag == strHex:
		s = hex.EncodeToString(r.bytes())
	case tag-strRef < uint64(len(r.kept)):
		return r.kept[tag-strRef]
	default:
		r.fail()
		return ""
	}
	if s != "" && r.err == nil {
		r.kept = append(r.kept, s)
	}
	return s
}

func (r *recipeReader) num() float64 {
	switch r.byte() {
	case numInt:
		return float64(r.int())
	case numBits:
		if len(r.buf) < 8 {
			r.fail()
			return 0
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(r.buf))
		r.buf = r.buf[8:]
		return f
	}
	r.fail()
	return 0
}

func (r *recipeReader) time() time.Time {
	sec, nsec := r.int(), r.uint()
	if nsec >= 1e9 {
		r.fail()
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

// decodeBinary reads a recipe encodeBinary wrote.
func decodeBinary(raw []byte) (Recipe, error) {
	if len(raw) == 0 || (raw[0] != recipeV1 && raw[0] != recipeV2) {
		return Recipe{}, fmt.Errorf("derived: recipe of an unknown format")
	}
	version := raw[0]
	r := &recipeReader{buf: raw[1:]}
	var c pdf.Composition
	c.ID = r.str()
	c.Title = r.str()
	if r.bool() {
		p := &pdf.CoverPage{}
		for _, s := range []*string{&p.To, &p.From, &p.Message, &p.Recipient, &p.Sender} {
			*s = r.str()
		}
		p.Pages = r.small()
		c.CoverPage = p
	}
	var refs []string
	n := r.count()
	c.Documents = make([]pdf.Source, n)
	for i := 0; i < n && r.err == nil; i++ {
		c.Documents[i].Name = r.str()
		switch r.byte() {
		case docRef:
			if refs == nil {
				refs = make([]string, n)
			}
			refs[i] = r.str()
		case docNil:
		case docInline:
			c.Documents[i].PDF = r.bytes()
		default:
			r.fail()
		}
	}
	if r.bool() {
		p := &pdf.SignaturePage{}
		n := r.count()
		for i := 0; i < n && r.err == nil; i++ {
			s := pdf.SignerLine{Name: r.str(), Email: r.str(), Status: r.str()}
			if r.bool() {
				t := r.time()
				s.SignedAt = &t
			}
			if version >= recipeV2 {
				s.Signature = r.str()
			}
			p.Signers = append(p.Signers, s)
		}
		c.SignaturePage = p
	}
	n = r.count()
	for i := 0; i < n && r.err == nil; i++ {
		s := pdf.Stamp{Document: r.small(), Page: r.small()}
		s.X, s.Y, s.Width, s.Height = r.num(), r.num(), r.num(), r.num()
		s.Text, s.Kind = r.str(), r.str()
		c.Stamps = append(c.Stamps, s)
	}
	c.TestMode = r.bool()
	n = r.count()
	for i := 0; i < n && r.err == nil; i++ {
		a := pdf.AuditEntry{Time: r.time()}
		a.Actor, a.Action, a.Detail = r.str(), r.str(), r.str()
		c.Audit = append(c.Audit, a)
	}
	c.At = r.time()
	if r.err == nil && len(r.buf) != 0 {
		r.err = fmt.Errorf("derived: recipe has %d bytes after its end", len(r.buf))
	}
	if r.err != nil {
		return Recipe{}, r.err
	}
	return Recipe{Composition: c, Refs: refs}, nil
}
