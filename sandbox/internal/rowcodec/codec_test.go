package rowcodec

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// requestCodec compiles the codec of signature requests or fails the test.
func requestCodec(t testing.TB) *Codec {
	t.Helper()
	c, err := New(reflect.TypeFor[SignatureRequest]())
	if err != nil {
		t.Fatalf("New(SignatureRequest): %v", err)
	}
	return c
}

// roundTrip encodes row, decodes it and checks that the result is
// DeepEqual to row, that a second encoding of the result gives the same
// bytes (floats bit for bit, deterministic map order) and that
// rowCodecID reads the id. It answers the encoding.
func roundTrip(t *testing.T, c *Codec, row any) []byte {
	t.Helper()
	enc, err := c.Encode(nil, row)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	got, err := c.Decode(enc)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(got, row) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v", got, row)
	}
	again, err := c.Encode([]byte("prefix"), got)
	if err != nil {
		t.Fatalf("encode of the decoded row: %v", err)
	}
	if !bytes.Equal(again[len("prefix"):], enc) {
		t.Fatalf("encoding of the decoded row differs:\n got %x\nwant %x", again[len("prefix"):], enc)
	}
	if id, want := ID(enc), reflect.ValueOf(row).Elem().Field(0).String(); id != want {
		t.Fatalf("rowCodecID = %q, want %q", id, want)
	}
	return enc
}

func TestRowCodecZeroRequest(t *testing.T) {
	c := requestCodec(t)
	enc := roundTrip(t, c, &SignatureRequest{})
	t.Logf("zero request: %d bytes", len(enc))
}

func TestRowCodecFullRequest(t *testing.T) {
	c := requestCodec(t)
	row := &SignatureRequest{}
	fillFull(reflect.ValueOf(row).Elem(), 1)
	// The filler must reach every field of every nested type, including
	// fields added later: otherwise this test would not cover them.
	assertAllSet(t, reflect.ValueOf(row).Elem(), "SignatureRequest")
	enc := roundTrip(t, c, row)
	t.Logf("full request: %d bytes", len(enc))
}

func TestRowCodecTypicalRequest(t *testing.T) {
	c := requestCodec(t)
	row := typicalRequest(7)
	enc := roundTrip(t, c, row)
	got, _ := c.Decode(enc)
	// Strings point into the encoding rather than being copied.
	id := got.(*SignatureRequest).ID
	if p := uintptr(unsafe.Pointer(unsafe.StringData(id))); p < uintptr(unsafe.Pointer(&enc[0])) || p >= uintptr(unsafe.Pointer(&enc[0]))+uintptr(len(enc)) {
		t.Fatalf("decoded id does not point into the encoding")
	}
}

func TestRowCodecNilEmptyAndPointers(t *testing.T) {
	c := requestCodec(t)
	zero := int64(0)
	f := false
	cases := map[string]*SignatureRequest{
		"empty slices and map": {
			ID: "empty", Metadata: map[string]any{}, CCEmails: []string{}, TemplateIDs: []string{},
			CustomFields: []CustomField{}, Documents: []Document{{Pages: []Page{}, TextTags: []DocumentTextTag{}}},
			Signatures: []Signature{}, Audit: []AuditEntry{}, LinkSecrets: []LinkSecret{},
			Files: &FileSet{Recipe: Recipe{}},
		},
		"pointers to zero values": {
			ID: "zero-pointers", ExpiresAt: &zero, SigningOptions: &SigningOptions{}, Files: &FileSet{Rare: &FileSetRare{}},
			Signatures:   []Signature{{Order: new(int), SignedAt: &zero, LastViewedAt: new(int64)}},
			ResponseData: []ResponseValue{{IsSigned: &f, Value: nil}},
			Attachments:  []Attachment{{UploadedAt: &zero}},
		},
		"slices with empty elements": {
			ID: "empty-elements", CCEmails: []string{"", ""}, Documents: []Document{{}, {}},
			FieldRules: []FieldRule{{Triggers: []RuleTrigger{{Values: []string{}}}, Actions: nil}},
		},
		"interface values": {
			ID: "interfaces",
			Metadata: map[string]any{
				"nil": nil, "false": false, "true": true, "string": "s", "empty": "", "number": json.Number("12.50"),
				"float": 1.5, "negzero": math.Copysign(0, -1), "int": -7, "int64": int64(math.MinInt64),
				"nil slice": []any(nil), "empty slice": []any{}, "nil map": map[string]any(nil), "empty map": map[string]any{},
				"nested": []any{nil, true, "x", json.Number("1e3"), 2.25, 3, int64(4),
					map[string]any{"deep": []any{map[string]any{"deeper": []any{}}}}},
			},
			ResponseData: []ResponseValue{
				{Value: "text"}, {Value: true}, {Value: false}, {Value: nil}, {Value: json.Number("5")},
				{Value: []any{"a", 1}}, {Value: map[string]any{"k": map[string]any(nil)}},
			},
		},
	}
	for name, row := range cases {
		t.Run(name, func(t *testing.T) { roundTrip(t, c, row) })
	}
}

func TestRowCodecRandomRequests(t *testing.T) {
	c := requestCodec(t)
	r := rand.New(rand.NewPCG(20261126, 1))
	for i := range 500 {
		row := &SignatureRequest{}
		fillRandom(r, reflect.ValueOf(row).Elem(), 0)
		if i%7 == 0 {
			row.ID = "" // an empty id still encodes and reads back
		}
		roundTrip(t, c, row)
	}
}

func TestRowCodecMapKeysSorted(t *testing.T) {
	c := requestCodec(t)
	a := &SignatureRequest{ID: "m", Metadata: map[string]any{}}
	b := &SignatureRequest{ID: "m", Metadata: map[string]any{}}
	for i := range 50 {
		a.Metadata[string(rune('a'+i%26))+strings.Repeat("x", i)] = i
	}
	for i := 49; i >= 0; i-- {
		b.Metadata[string(rune('a'+i%26))+strings.Repeat("x", i)] = i
	}
	ea, _ := c.Encode(nil, a)
	eb, _ := c.Encode(nil, b)
	if !bytes.Equal(ea, eb) {
		t.Fatal("equal maps encode to different bytes")
	}
}

// codecKinds holds every kind the codec supports beyond those of a
// signature request.
type codecKinds struct {
	ID       codecName
	I8       int8
	I16      int16
	I32      int32
	I64      int64
	I        int
	U8       uint8
	U16      uint16
	U32      uint32
	U64      uint64
	U        uint
	F32      float32
	F64      float64
	B        bool
	Bytes    []byte
	Named    codecName
	Names    []codecName
	Arr      [3]int16
	Grid     [2][2]string
	Counts   map[string]int
	ByName   map[codecName][]string
	Nested   map[string]*codecLeaf
	Leaf     codecLeaf
	Next     *codecKinds
	Children []codecKinds
	Any      any
}

type codecName string

type codecLeaf struct {
	Value  *uint32
	Labels []string
}

func TestRowCodecAllKinds(t *testing.T) {
	c, err := New(reflect.TypeFor[codecKinds]())
	if err != nil {
		t.Fatal(err)
	}
	full := &codecKinds{}
	fillFull(reflect.ValueOf(full).Elem(), 2)
	roundTrip(t, c, full)
	extremes := &codecKinds{
		ID: "x", I8: math.MinInt8, I16: math.MaxInt16, I32: math.MinInt32, I64: math.MaxInt64, I: math.MinInt,
		U8: math.MaxUint8, U16: math.MaxUint16, U32: math.MaxUint32, U64: math.MaxUint64, U: math.MaxUint,
		F32: float32(math.Inf(-1)), F64: math.SmallestNonzeroFloat64, Bytes: []byte{},
		Counts: map[string]int{}, ByName: map[codecName][]string{"b": nil, "a": {}},
		Nested: map[string]*codecLeaf{"nil": nil, "zero": {}},
		Next:   &codecKinds{Next: &codecKinds{ID: "third"}},
	}
	roundTrip(t, c, extremes)
	r := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		row := &codecKinds{}
		fillRandom(r, reflect.ValueOf(row).Elem(), 0)
		roundTrip(t, c, row)
	}
}

func TestRowCodecFloatBits(t *testing.T) {
	c := requestCodec(t)
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	row := &SignatureRequest{ID: "f", Documents: []Document{{Pages: []Page{{Width: nan, Height: math.Copysign(0, -1)}}}},
		Metadata: map[string]any{"nan": nan}}
	enc, err := c.Encode(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	p := got.(*SignatureRequest).Documents[0].Pages[0]
	if math.Float64bits(p.Width) != math.Float64bits(nan) || math.Float64bits(p.Height) != 1<<63 {
		t.Fatalf("floats not bit-exact: %x %x", math.Float64bits(p.Width), math.Float64bits(p.Height))
	}
	if v := got.(*SignatureRequest).Metadata["nan"].(float64); math.Float64bits(v) != math.Float64bits(nan) {
		t.Fatalf("interface float not bit-exact: %x", math.Float64bits(v))
	}
}

func TestRowCodecRefusesTypes(t *testing.T) {
	type withChan struct {
		ID string
		C  chan int
	}
	type withUnexported struct {
		ID      string
		private int //nolint:unused // the unexported field the codec must refuse
	}
	type withIntKeys struct {
		ID string
		M  map[int]string
	}
	type withFunc struct {
		ID string
		F  func()
	}
	type withComplex struct {
		ID string
		C  complex128
	}
	type withUnsafe struct {
		ID string
		P  unsafe.Pointer
	}
	type withError struct {
		ID  string
		Err error
	}
	type withNestedChan struct {
		ID   string
		Deep []map[string]*struct{ C chan int }
	}
	type idNotFirst struct {
		N  int
		ID string
	}
	type emptyElems struct {
		ID string
		S  []struct{}
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[withChan](), reflect.TypeFor[withUnexported](), reflect.TypeFor[withIntKeys](),
		reflect.TypeFor[withFunc](), reflect.TypeFor[withComplex](), reflect.TypeFor[withUnsafe](),
		reflect.TypeFor[withError](), reflect.TypeFor[withNestedChan](), reflect.TypeFor[idNotFirst](),
		reflect.TypeFor[emptyElems](), reflect.TypeFor[*SignatureRequest](), reflect.TypeFor[string](),
	} {
		if _, err := New(typ); err == nil {
			t.Errorf("New(%v) accepted the type", typ)
		} else {
			t.Logf("%v: %v", typ, err)
		}
	}
}

func TestRowCodecRefusesValues(t *testing.T) {
	c := requestCodec(t)
	type point struct{ X int }
	for name, row := range map[string]*SignatureRequest{
		"struct in metadata":         {ID: "a", Metadata: map[string]any{"p": point{1}}},
		"int32 in metadata":          {ID: "a", Metadata: map[string]any{"n": int32(1)}},
		"map[string]string in value": {ID: "a", ResponseData: []ResponseValue{{Value: map[string]string{}}}},
		"named string nested":        {ID: "a", Metadata: map[string]any{"l": []any{"ok", codecName("named")}}},
		"pointer in metadata":        {ID: "a", Metadata: map[string]any{"p": new(string)}},
	} {
		if _, err := c.Encode(nil, row); err == nil {
			t.Errorf("%s: encode accepted it", name)
		}
	}
	if _, err := c.Encode(nil, SignatureRequest{}); err == nil {
		t.Error("encode accepted a struct value instead of a pointer")
	}
	if _, err := c.Encode(nil, nil); err == nil {
		t.Error("encode accepted nil")
	}
	if _, err := c.Encode(nil, (*SignatureRequest)(nil)); err == nil {
		t.Error("encode accepted a nil row")
	}
	if _, err := c.Encode(nil, &SignURL{}); err == nil {
		t.Error("encode accepted a row of another type")
	}
	// A value that contains itself is refused, not encoded forever.
	loop := []any{nil}
	loop[0] = loop
	if _, err := c.Encode(nil, &SignatureRequest{Metadata: map[string]any{"loop": loop}}); err == nil {
		t.Error("encode accepted a slice that contains itself")
	}
}

func TestRowCodecDepthLimit(t *testing.T) {
	c := requestCodec(t)
	var v any = "leaf"
	for range rowCodecMaxDepth - 1 {
		v = []any{v}
	}
	// The metadata map is a level of its own.
	ok := &SignatureRequest{ID: "deep", Metadata: map[string]any{"v": v}}
	roundTrip(t, c, ok)
	tooDeep := &SignatureRequest{ID: "deep", Metadata: map[string]any{"v": []any{v}}}
	if _, err := c.Encode(nil, tooDeep); err == nil {
		t.Fatal("encode accepted a value nested too deep")
	}
}

func TestRowCodecCorruptBytes(t *testing.T) {
	c := requestCodec(t)
	full := &SignatureRequest{}
	fillFull(reflect.ValueOf(full).Elem(), 1)
	r := rand.New(rand.NewPCG(3, 4))
	for _, row := range []*SignatureRequest{full, typicalRequest(1), {}} {
		enc, err := c.Encode(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		// Every proper prefix lacks bytes the encoding needs.
		for n := range len(enc) {
			if _, err := c.Decode(enc[:n:n]); err == nil {
				t.Fatalf("decode of %d of %d bytes succeeded", n, len(enc))
			}
		}
		if _, err := c.Decode(append(enc[:len(enc):len(enc)], 0)); err == nil {
			t.Fatal("decode accepted a trailing byte")
		}
		for range 2000 {
			bad := append([]byte(nil), enc...)
			for range 1 + r.IntN(4) {
				bad[r.IntN(len(bad))] = byte(r.Uint32())
			}
			checkDecodeSafe(t, c, bad)
		}
	}
	for range 2000 {
		junk := make([]byte, r.IntN(64))
		for i := range junk {
			junk[i] = byte(r.Uint32())
		}
		checkDecodeSafe(t, c, junk)
	}
	// Lengths far beyond the bytes given are refused before allocating.
	huge := appendRowString(nil, "id")
	huge = append(huge, 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := c.Decode(huge); err == nil {
		t.Fatal("decode accepted a huge length")
	}
	if id := ID([]byte{0x05, 'a'}); id != "" {
		t.Fatalf("rowCodecID of a truncated id = %q", id)
	}
}

// TestRowCodecRowsOutliveTheirBuffers decodes rows, drops every
// reference to the encodings but the rows' own strings, collects
// garbage and checks the rows: the strings keep their encoding alive,
// and the pointers decode wrote are ones the collector sees.
func TestRowCodecRowsOutliveTheirBuffers(t *testing.T) {
	c := requestCodec(t)
	rows := make([]any, 200)
	for i := range rows {
		enc, err := c.EncodeExact(typicalRequest(i))
		if err != nil {
			t.Fatal(err)
		}
		if rows[i], err = c.Decode(enc); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		runtime.GC()
	}
	// Fresh allocations would reuse freed encodings' memory.
	junk := make([][]byte, 1000)
	for i := range junk {
		junk[i] = bytes.Repeat([]byte{0xee}, 900)
	}
	for i, row := range rows {
		if !reflect.DeepEqual(row, typicalRequest(i)) {
			t.Fatalf("row %d changed after a collection", i)
		}
	}
	runtime.KeepAlive(junk)
}

// TestRowCodecConcurrent uses one codec from several goroutines, as the
// world's readers and writers do.
func TestRowCodecConcurrent(t *testing.T) {
	c := requestCodec(t)
	done := make(chan error)
	for g := range 4 {
		go func() {
			for i := range 100 {
				row := typicalRequest(g*1000 + i)
				enc, err := c.EncodeExact(row)
				if err == nil {
					var got any
					if got, err = c.Decode(enc); err == nil && !reflect.DeepEqual(got, row) {
						err = ErrCorrupt
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// codecAnyRow is a row with an interface value, for hand-made encodings.
type codecAnyRow struct {
	ID string
	V  any
}

// TestRowCodecNestedClaims decodes lists nested in lists, each claiming
// as many elements as the bytes left could hold: the first claim takes
// them, so the nested ones fail instead of each allocating as much again.
func TestRowCodecNestedClaims(t *testing.T) {
	c, err := New(reflect.TypeFor[codecAnyRow]())
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 14
	enc := []byte{0} // the id, ""
	for range 200 {
		enc = append(enc, rowAnySlice)
		enc = binary.AppendUvarint(enc, uint64(size-len(enc)-4))
	}
	enc = append(enc, make([]byte, size-len(enc))...)
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := c.Decode(enc); err == nil {
			t.Fatal("decode accepted lists longer than their bytes")
		}
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	// One list of size elements of 16 bytes, not 200 of them.
	if least > 40*size {
		t.Fatalf("decode of %d bytes allocated %d bytes", size, least)
	}
	t.Logf("decode of %d corrupt bytes allocated %d bytes", size, least)
}

// checkDecodeSafe decodes bytes that may be corrupt: an error is fine; a
// row must encode again to bytes that decode to the same row.
func checkDecodeSafe(t testing.TB, c *Codec, enc []byte) {
	t.Helper()
	got, err := c.Decode(enc)
	if err != nil {
		return
	}
	again, err := c.Encode(nil, got)
	if err != nil {
		t.Fatalf("decoded row of %x does not encode: %v", enc, err)
	}
	third, err := c.Decode(again)
	if err != nil {
		t.Fatalf("re-encoded row of %x does not decode: %v", enc, err)
	}
	if fourth, _ := c.Encode(nil, third); !bytes.Equal(fourth, again) {
		t.Fatalf("decoded row of %x is not stable", enc)
	}
}

func FuzzRowCodecDecode(f *testing.F) {
	c := requestCodec(f)
	full := &SignatureRequest{}
	fillFull(reflect.ValueOf(full).Elem(), 1)
	for _, row := range []*SignatureRequest{{}, full, typicalRequest(2)} {
		enc, err := c.Encode(nil, row)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, enc []byte) {
		checkDecodeSafe(t, c, enc)
		_ = ID(enc)
	})
}

// TestRowCodecOtherRows compiles the codecs of other rows the bucket
// layer might keep frozen.
func TestRowCodecOtherRows(t *testing.T) {
	c, err := New(reflect.TypeFor[SignatureRequestAccess]())
	if err != nil {
		t.Fatalf("SignatureRequestAccess: %v", err)
	}
	row := &SignatureRequestAccess{AccountID: "acct", RequestID: "req", RequestSeq: 9, Ordinal: 3}
	enc := roundTrip(t, c, row)
	// Its first field is the account, not the computed id.
	if id := ID(enc); id != "acct" {
		t.Fatalf("rowCodecID = %q", id)
	}
	t.Logf("SignatureRequestAccess: %d bytes", len(enc))
	if _, err := New(reflect.TypeFor[SignURL]()); err != nil {
		t.Fatalf("SignURL: %v", err)
	}
}

// typicalRequest is a processed request as most rows of a big world are:
// one signer, one document of one page, its file set and recipe, two
// audit lines and a link secret. It repeats strings as a real row does:
// the requester's e-mail as the audit lines' actor, the title as the
// original title, the creation line's detail and the file set's name,
// the signature id in its link secret, the blob id as the PDF's.
func typicalRequest(n int) *SignatureRequest {
	id := strings.Repeat("a1b2c3d4e5", 4)
	const title = "Mutual NDA with Acme Corp"
	expires := int64(1_800_000_000 + n)
	return &SignatureRequest{
		ID: id, Seq: uint64(1000 + n), Generation: 1,
		RequesterAccountID: strings.Repeat("5f3e", 10), RequesterEmail: "requester@example.com",
		BaseURL: "http://127.0.0.1:8080", WorldURL: "http://127.0.0.1:8080/w/default",
		Title: title, OriginalTitle: title, Subject: "Please sign the NDA", Message: "Hello, please sign at your convenience.",
		CreatedAt: 1_790_000_000, ExpiresAt: &expires, TestMode: true, AllowDecline: true,
		Documents: []Document{{Name: "nda.pdf", ContentType: "application/pdf",
			BlobID: strings.Repeat("b10b", 10), PDFBlobID: strings.Repeat("b10b", 10), Pages: []Page{{Width: 612, Height: 792}}}},
		Signatures: []Signature{{ID: strings.Repeat("519a", 10), Email: "signer@example.com", Name: "Signer One",
			Status: SigAwaiting, Notified: true}},
		Phase: PhaseSent,
		Audit: []AuditEntry{
			{Time: 1_790_000_000, Actor: "requester@example.com", Action: "created", Detail: title},
			{Time: 1_790_000_003, Actor: "requester@example.com", Action: "sent"},
		},
		LinkSecrets: []LinkSecret{{SignatureID: strings.Repeat("519a", 10), Secret: strings.Repeat("5ec2", 8)}},
		Files: &FileSet{ID: "sr:" + id, Version: 1, Ready: true, Recipe: Recipe(strings.Repeat("r", 120)),
			PDFSeq: uint64(2000 + n), Name: title, PreparedAt: 1_790_000_002},
	}
}

// fillFull sets every field of v, recursively, to a non-zero value
// derived from seed: one element per slice and map, pointers to filled
// values, and interface values holding every tagged type. Pointers to
// the type being filled stop after a few levels.
func fillFull(v reflect.Value, seed int) {
	fillFullDepth(v, seed, 0)
}

func fillFullDepth(v reflect.Value, seed, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(-seed - 1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed + 1))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(seed) + 0.5)
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", seed%5) + string(rune('a'+seed%26)))
	case reflect.Pointer:
		if depth > 3 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillFullDepth(p.Elem(), seed+1, depth+1)
		v.Set(p)
	case reflect.Slice:
		if depth > 4 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillFullDepth(s.Index(i), seed+i+1, depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fillFullDepth(v.Index(i), seed+i+1, depth+1)
		}
	case reflect.Map:
		if depth > 4 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			fillFullDepth(k, seed+i, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fillFullDepth(e, seed+i+1, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{
			"bool": true, "string": "v", "number": json.Number("3.25"), "float": 2.5, "int": seed + 1,
			"int64": int64(-seed - 2), "nil": nil, "list": []any{"a", false, json.Number("7"), map[string]any{"k": []any{}}},
		}))
	case reflect.Struct:
		for i := range v.NumField() {
			fillFullDepth(v.Field(i), seed+i, depth)
		}
	}
}

// assertAllSet fails when a field of v, recursively, has its zero value.
func assertAllSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			assertAllSet(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
		return
	case reflect.Pointer:
		if !v.IsNil() {
			assertAllSet(t, v.Elem(), path)
			return
		}
	case reflect.Slice:
		if v.Len() > 0 {
			for i := range v.Len() {
				assertAllSet(t, v.Index(i), path+"[]")
			}
			return
		}
	}
	if v.IsZero() {
		t.Errorf("filler left %s zero", path)
	}
}

// fillRandom sets v to a random value: nil, empty or filled slices and
// maps, nil or set pointers, random numbers (no NaN: DeepEqual refuses
// it) and interface values of the tagged types.
func fillRandom(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		x := int64(r.Uint64()) >> (64 - bits)
		if r.IntN(2) == 0 {
			x >>= r.IntN(bits)
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := r.Uint64() >> (64 - v.Type().Bits())
		if r.IntN(2) == 0 {
			x >>= r.IntN(v.Type().Bits())
		}
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(randomFloat(r, v.Kind() == reflect.Float32))
	case reflect.String:
		v.SetString(randomString(r))
	case reflect.Pointer:
		if depth > 4 || r.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		n := r.IntN(5) - 1
		if depth > 4 || n < 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n+r.IntN(3))
		for i := range n {
			fillRandom(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fillRandom(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		n := r.IntN(5) - 1
		if depth > 4 || n < 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			fillRandom(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fillRandom(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		if x := randomAny(r, depth); x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(r, v.Field(i), depth)
		}
	}
}

// randomAny is a random value of one of the tagged interface types.
func randomAny(r *rand.Rand, depth int) any {
	k := r.IntN(10)
	if depth > 5 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 1
	case 2:
		return randomString(r)
	case 3:
		return json.Number(randomString(r))
	case 4:
		return randomFloat(r, false)
	case 5:
		return int(r.Uint64())
	case 6:
		return int64(r.Uint64()) >> r.IntN(64)
	case 7:
		return int(r.IntN(300)) - 150
	case 8:
		n := r.IntN(5) - 1
		if n < 0 {
			return []any(nil)
		}
		s := make([]any, n)
		for i := range s {
			s[i] = randomAny(r, depth+1)
		}
		return s
	default:
		n := r.IntN(5) - 1
		if n < 0 {
			return map[string]any(nil)
		}
		m := make(map[string]any, n)
		for range n {
			m[randomString(r)] = randomAny(r, depth+1)
		}
		return m
	}
}

func randomString(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return ""
	case 1:
		b := make([]byte, r.IntN(300)) // lengths past one varint byte
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return string(b)
	}
	return strings.Repeat("é", r.IntN(3)) + string(rune('a'+r.IntN(26)))
}

func randomFloat(r *rand.Rand, single bool) float64 {
	for {
		var f float64
		switch r.IntN(3) {
		case 0:
			f = math.Float64frombits(r.Uint64())
		case 1:
			f = r.NormFloat64() * 1000
		default:
			f = float64(r.IntN(2000))
		}
		if single {
			f = float64(float32(f))
		}
		if !math.IsNaN(f) {
			return f
		}
	}
}

func TestRowCodecEncodeExact(t *testing.T) {
	c := requestCodec(t)
	for i := range 3 {
		row := typicalRequest(i)
		want, err := c.Encode(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.EncodeExact(row)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("encodeExact differs from encode")
		}
		// The answer is the caller's own, not the pooled buffer.
		again, _ := c.EncodeExact(typicalRequest(i + 10))
		if !bytes.Equal(got, want) || &again[0] == &got[0] {
			t.Fatalf("encodeExact answers share memory")
		}
	}
	if _, err := c.EncodeExact(&SignatureRequest{Metadata: map[string]any{"c": complex(1, 2)}}); err == nil {
		t.Fatal("encodeExact accepted a complex in metadata")
	}
}

// TestEmailRowCodec: an e-mail with every field set, the composition's
// record and its brand included, goes through the row codec the frozen
// outbox keeps it in exactly, and so does one with none.
func TestEmailRowCodec(t *testing.T) {
	c, err := New(reflect.TypeFor[Email]())
	if err != nil {
		t.Fatal(err)
	}
	full := &Email{}
	fillFull(reflect.ValueOf(full).Elem(), 3)
	if full.Brand == nil || full.Brand.PrimaryButtonTextColor == "" || !full.Read {
		t.Fatalf("fillFull left fields unset: %+v", full)
	}
	enc := roundTrip(t, c, full)
	t.Logf("full e-mail: %d bytes", len(enc))
	roundTrip(t, c, &Email{})
	typical := &Email{ID: "0f4b2a1e-3c3d-4e5f-8a9b-0c1d2e3f4a5b", Seq: 42, Kind: "signature_request", To: "signer@example.com",
		Name: "Signer One", Subject: "Owner has requested your signature: NDA", Message: "Please sign.", SignatureRequestID: strings.Repeat("a1", 20),
		SignatureID: strings.Repeat("b2", 20), Link: "http://127.0.0.1:8080/_sandbox/w/default/sign/" + strings.Repeat("c3", 20), SentAt: 1735689602,
		FromName: "Owner", ReplyTo: "owner@sandbox.example", Title: "NDA",
		Brand: &EmailBrand{ClientID: strings.Repeat("d4", 16), AppName: "Acme", HeaderBackgroundColor: "#1a1a1a", PageBackgroundColor: "#f7f8f9",
			TextColor2: "#ffffff", LinkColor: "#0061FE", PrimaryButtonColor: "#0061FE", PrimaryButtonTextColor: "#ffffff"}}
	enc = roundTrip(t, c, typical)
	t.Logf("typical branded e-mail: %d bytes", len(enc))
}
