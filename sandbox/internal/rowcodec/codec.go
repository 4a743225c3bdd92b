// Package rowcodec is a compact binary codec for rows kept frozen: a row that is not being
// written can be held as one pointer-free []byte, which the garbage
// collector does not walk, and decoded when it is read. A signature
// request is a 688-byte struct with about forty pointers and nested
// slices; at 100,000 requests walking them made every collection, and
// so every send, markedly slower.
//
// The codec is compiled once per struct type by reflection into a tree
// of typeCodecs that encode and decode through unsafe field offsets, so
// the hot path makes no reflect.Value per field. It is exact:
// decode(encode(x)) is reflect.DeepEqual to x, nil and empty slices and
// maps and nil pointers included. A type it cannot render exactly is
// refused when the codec is compiled, and an interface value of a type
// outside its closed set is refused when it is encoded, so a row the
// codec cannot keep stays unencoded instead of losing data.
//
// The encoding, in struct field order:
//   - bool: one byte, 0 or 1;
//   - signed integers: zigzag uvarint; unsigned integers: uvarint;
//   - float32, float64: the IEEE bits, 4 or 8 bytes little endian;
//   - string: a uvarint header, length<<1 followed by the bytes, or
//     length<<1|1 followed by the uvarint offset (from the start of the
//     row's encoding) of an equal string's bytes written before it
//     (strings.go);
//   - pointer: a byte, 0 for nil or 1 followed by the value pointed to;
//   - slice and map: uvarint of length+1 (0 for nil, 1 for empty), then
//     the elements, map entries in increasing key order (key as a string);
//     a slice of bytes as its bytes;
//   - array: its elements; struct: its fields;
//   - interface (any): a tag byte per dynamic type (rowAny*) and the value.
//
// Nothing in the encoding names a type or a field: bytes are only valid
// for the codec (the program, the type) that wrote them. They live in
// memory only and are never exported or journaled.
//
// Decoded strings point into the encoding (see decode), a repeated
// string at its first occurrence's bytes, so a string kept beyond its
// row (an index key, a map key, a field copied into another row) keeps
// the whole encoding alive: clone it (strings.Clone) where it is kept
// long, or decode from a copy of the bytes when every string must be the
// row's own.
package rowcodec

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

// rowCodecMaxDepth bounds the nesting of pointers, slices, maps and
// interface values, in encode and decode alike: corrupt bytes or a value
// that contains itself cannot recurse without bound. Rows nest a few
// levels; metadata a few more.
const rowCodecMaxDepth = 256

// ErrCorrupt is the error of bytes that are not an encoding the
// codec wrote.
var ErrCorrupt = errors.New("row codec: corrupt or truncated encoding")

// rowCodecKind is what a typeCodec does; each kind has one branch in the
// encoder and the decoder.
type rowCodecKind uint8

const (
	rowKindBool rowCodecKind = iota
	rowKindInt8
	rowKindInt16
	rowKindInt32
	rowKindInt64
	rowKindUint8
	rowKindUint16
	rowKindUint32
	rowKindUint64
	rowKindFloat32
	rowKindFloat64
	rowKindString
	rowKindBytes // a slice whose elements are bytes
	rowKindPtr
	rowKindSlice
	rowKindArray
	rowKindMap          // map with string-kinded keys, through reflect
	rowKindMapStringAny // map[string]any, natively
	rowKindAny          // the empty interface
	rowKindStruct
)

// Codec is the compiled codec of one struct type. It is immutable and
// safe for concurrent use.
type Codec struct {
	typ  reflect.Type // the struct type
	ptr  reflect.Type // *typ, the type of rows encode takes and decode answers
	root *typeCodec
}

// typeCodec encodes and decodes values of one type in place, given a
// pointer to the value.
type typeCodec struct {
	kind rowCodecKind
	typ  reflect.Type
	// size is the type's size in memory (elements of slices and arrays).
	size uintptr
	// elem is the codec of what a pointer points to, of the elements of
	// a slice or array, of the values of a map.
	elem *typeCodec
	// n is an array's length.
	n int
	// fields are a struct's fields; ops are the same with the fields of
	// nested structs in place of those structs, which encode and decode
	// walk in one loop.
	fields []fieldCodec
	ops    []fieldCodec
	// minSize is the fewest bytes a value's encoding takes: decode
	// bounds a length by the bytes left before it allocates.
	minSize int
	// arrays are the array types [1]elem .. [rowCodecSmallSlice]elem of
	// a slice: decode allocates a short slice's array with reflect.New,
	// which costs one allocation, where reflect.MakeSlice costs two (its
	// Value holds the slice header on the heap).
	arrays []reflect.Type
}

// rowCodecSmallSlice is the longest slice decode allocates through
// typeCodec.arrays; rows' slices are mostly shorter.
const rowCodecSmallSlice = 8

// fieldCodec is a struct field: where it lies and how it is encoded
// (kind is codec.kind, kept here to spare the loops a load).
type fieldCodec struct {
	off   uintptr
	kind  rowCodecKind
	codec *typeCodec
}

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

var (
	rowAnyType          = reflect.TypeFor[any]()
	rowMapStringAnyType = reflect.TypeFor[map[string]any]()
)

// New compiles the codec of a struct type (e.g.
// reflect.TypeOf(SignatureRequest{})). It refuses a type with something
// the codec cannot render exactly: channels, functions, unsafe pointers,
// complex numbers, uintptrs, unexported fields, maps whose keys are not
// strings, interfaces other than any. The first field must be a string,
// the row's id, which ID reads.
func New(t reflect.Type) (*Codec, error) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("row codec: %v is not a struct", t)
	}
	if t.NumField() == 0 || t.Field(0).Type.Kind() != reflect.String {
		return nil, fmt.Errorf("row codec: the first field of %v is not a string id", t)
	}
	comp := rowCodecCompiler{seen: map[reflect.Type]*typeCodec{}}
	root, err := comp.compile(t, t.String())
	if err != nil {
		return nil, err
	}
	// Minimum sizes follow values contained in place (struct fields,
	// array elements), which cannot form a cycle, once every codec of
	// the type exists.
	for _, c := range comp.order {
		rowCodecMinSize(c)
		rowCodecOps(c)
	}
	for _, c := range comp.order {
		switch c.kind {
		case rowKindSlice, rowKindMap:
			// Elements that encode to nothing would let a length alone
			// make decode loop and allocate.
			if c.elem.minSize == 0 {
				return nil, fmt.Errorf("row codec: %v has elements that encode to no bytes", c.typ)
			}
		}
	}
	return &Codec{typ: t, ptr: reflect.PointerTo(t), root: root}, nil
}

// rowCodecCompiler compiles the codecs of a type and of the types it
// holds, each once: seen holds the codecs compiled or being compiled (a
// type may refer to itself through a pointer, slice or map), order lists
// them in the order they were first met, for passes whose errors must
// not depend on map order.
type rowCodecCompiler struct {
	seen  map[reflect.Type]*typeCodec
	order []*typeCodec
}

// compile compiles the codec of t; path names where t lies, for errors.
func (comp *rowCodecCompiler) compile(t reflect.Type, path string) (*typeCodec, error) {
	if c, ok := comp.seen[t]; ok {
		return c, nil
	}
	c := &typeCodec{typ: t, size: t.Size()}
	comp.seen[t] = c
	comp.order = append(comp.order, c)
	var err error
	switch t.Kind() {
	case reflect.Bool:
		c.kind = rowKindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.kind = [...]rowCodecKind{1: rowKindInt8, 2: rowKindInt16, 4: rowKindInt32, 8: rowKindInt64}[t.Size()]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		c.kind = [...]rowCodecKind{1: rowKindUint8, 2: rowKindUint16, 4: rowKindUint32, 8: rowKindUint64}[t.Size()]
	case reflect.Float32:
		c.kind = rowKindFloat32
	case reflect.Float64:
		c.kind = rowKindFloat64
	case reflect.String:
		c.kind = rowKindString
	case reflect.Pointer:
		c.kind = rowKindPtr
		c.elem, err = comp.compile(t.Elem(), path+".*")
	case reflect.Slice:
		c.kind = rowKindSlice
		if t.Elem().Kind() == reflect.Uint8 {
			c.kind = rowKindBytes
		}
		c.elem, err = comp.compile(t.Elem(), path+"[]")
		if c.kind == rowKindSlice && t.Elem().Size() > 0 {
			for n := 1; n <= rowCodecSmallSlice; n++ {
				c.arrays = append(c.arrays, reflect.ArrayOf(n, t.Elem()))
			}
		}
	case reflect.Array:
		c.kind, c.n = rowKindArray, t.Len()
		c.elem, err = comp.compile(t.Elem(), path+"[]")
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("row codec: %s: map key %v is not a string", path, t.Key())
		}
		c.kind = rowKindMap
		if t == rowMapStringAnyType {
			c.kind = rowKindMapStringAny
		}
		c.elem, err = comp.compile(t.Elem(), path+"[key]")
	case reflect.Interface:
		if t != rowAnyType {
			return nil, fmt.Errorf("row codec: %s: interface %v is not any", path, t)
		}
		c.kind = rowKindAny
	case reflect.Struct:
		c.kind = rowKindStruct
		c.fields = make([]fieldCodec, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return nil, fmt.Errorf("row codec: %s.%s is unexported", path, f.Name)
			}
			fc, err := comp.compile(f.Type, path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			c.fields[i] = fieldCodec{off: f.Offset, kind: fc.kind, codec: fc}
		}
	default: // chan, func, unsafe.Pointer, complex, uintptr
		return nil, fmt.Errorf("row codec: %s: kind %v cannot be encoded", path, t.Kind())
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// rowCodecMinSize computes (once) and answers the fewest bytes a value's
// encoding takes. Only struct fields and array elements add up; a
// pointer, slice, map or interface can be one byte.
func rowCodecMinSize(c *typeCodec) int {
	if c.minSize > 0 {
		return c.minSize
	}
	switch c.kind {
	case rowKindFloat32:
		c.minSize = 4
	case rowKindFloat64:
		c.minSize = 8
	case rowKindArray:
		c.minSize = c.n * rowCodecMinSize(c.elem)
	case rowKindStruct:
		n := 0
		for _, f := range c.fields {
			n += rowCodecMinSize(f.codec)
		}
		c.minSize = n
	default:
		c.minSize = 1
	}
	return c.minSize
}

// rowCodecOps computes (once) the ops of a struct codec: its fields, a
// nested struct's replaced by that struct's ops at its offset. Like
// minimum sizes, they follow values contained in place only.
func rowCodecOps(c *typeCodec) []fieldCodec {
	if c.kind != rowKindStruct || c.ops != nil {
		return c.ops
	}
	ops := make([]fieldCodec, 0, len(c.fields))
	for _, f := range c.fields {
		if f.kind != rowKindStruct {
			ops = append(ops, f)
			continue
		}
		for _, inner := range rowCodecOps(f.codec) {
			inner.off += f.off
			ops = append(ops, inner)
		}
	}
	c.ops = ops
	return ops
}

// Encode appends the encoding of row (a *T of the codec's type) to dst.
// It fails, leaving dst's contents beyond its length unspecified, on a
// row of another type, a nil row, an interface value of a type outside
// the codec's set (see encodeAny) or nesting deeper than
// rowCodecMaxDepth.
func (c *Codec) Encode(dst []byte, row any) ([]byte, error) {
	if reflect.TypeOf(row) != c.ptr {
		return dst, fmt.Errorf("row codec: encode %T with the codec of %v", row, c.typ)
	}
	p := reflect.ValueOf(row).UnsafePointer()
	if p == nil {
		return dst, fmt.Errorf("row codec: encode a nil %v", c.ptr)
	}
	var strs rowStrings
	strs.base = len(dst)
	out, err := encodeRowValue(dst, c.root, p, 0, &strs)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// rowCodecScratch holds the buffers EncodeExact encodes into.
var rowCodecScratch = sync.Pool{New: func() any { return new([]byte) }}

// rowCodecScratchMax is the largest buffer EncodeExact gives back to the
// pool: a rare huge row should not stay held.
const rowCodecScratchMax = 64 << 10

// EncodeExact returns the encoding of row in a new slice of its own
// (capacity the allocator's size class): what a frozen row keeps. It
// encodes into a pooled scratch buffer first, so that freezing a row
// allocates once instead of once per doubling of a buffer grown from
// nil, and keeps no spare capacity beyond the size class.
func (c *Codec) EncodeExact(row any) ([]byte, error) {
	return c.EncodeWith(row, func(enc []byte) []byte { return append([]byte(nil), enc...) })
}

// EncodeWith encodes row into a pooled scratch buffer and returns what
// keep makes of the encoding, which is only valid while keep runs: a
// frozen row copies it behind its length (the engine's frozen rows).
func (c *Codec) EncodeWith(row any, keep func(enc []byte) []byte) ([]byte, error) {
	bp := rowCodecScratch.Get().(*[]byte)
	buf, err := c.Encode((*bp)[:0], row)
	var out []byte
	if err == nil {
		out = keep(buf)
	}
	if cap(buf) <= rowCodecScratchMax {
		*bp = buf
		rowCodecScratch.Put(bp)
	}
	return out, err
}

// Decode returns a new *T (as any) decoded from enc. The row's strings
// are not copied: they point into enc, so enc must never be changed
// after encode wrote it (nor reused for another encoding) while the row
// or any string taken from it lives. Byte slices are copied. Bytes that
// are not a complete encoding of the codec's type give an error; decode
// never allocates more than the input's length could describe.
func (c *Codec) Decode(enc []byte) (any, error) {
	v := reflect.New(c.typ)
	d := newRowDecoder(enc)
	if err := d.value(c.root, v.UnsafePointer()); err != nil {
		return nil, err
	}
	if d.pos != len(enc) {
		return nil, fmt.Errorf("%w: %d bytes after the row", ErrCorrupt, len(enc)-d.pos)
	}
	return v.Interface(), nil
}

// ID reads the first field (a string: the row's id) of an
// encoding without decoding the rest. The result points into enc, as
// Decode's strings do. It returns "" for bytes that do not begin with a
// string.
func ID(enc []byte) string {
	d := newRowDecoder(enc)
	s, err := d.str()
	if err != nil {
		return ""
	}
	return s
}
