package rowcodec

// The decoder of the row codec (codec.go): one branch per kind,
// writing into a freshly allocated (zeroed) row through unsafe pointers
// at the offsets compiled. Every read checks the bytes left, so corrupt
// bytes give an error, never a panic.
//
// Nor do they make decode allocate more than the input could describe:
// a slice or map of n elements that encode to at least m bytes each
// claims n*m bytes of what is left before it is allocated, and gives back
// m as each element begins. What an element reads (its own slices' claims
// included) must fit before end, which excludes what its later siblings
// and its ancestors' later siblings claimed. Claims outstanding never
// exceed the input's length, so neither nesting nor siblings can claim
// the same bytes twice, and every allocation is at most a fixed multiple
// (an element's size over its encoding's least size) of bytes that were
// read or are still claimed.

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// rowDecoder reads an encoding from pos on. end is where what is being
// decoded must stop: len(buf) less the bytes claimed by elements not yet
// decoded.
type rowDecoder struct {
	buf   []byte
	pos   int
	end   int
	depth int
}

// newRowDecoder starts reading enc.
func newRowDecoder(enc []byte) rowDecoder {
	return rowDecoder{buf: enc, end: len(enc)}
}

// corrupt is the error of bytes that cannot be what the codec wrote.
func (d *rowDecoder) corrupt(what string) error {
	return fmt.Errorf("%w: %s at byte %d", ErrCorrupt, what, d.pos)
}

// byte reads one byte.
func (d *rowDecoder) byte() (byte, error) {
	if d.pos >= d.end {
		return 0, d.corrupt("truncated")
	}
	b := d.buf[d.pos]
	d.pos++
	return b, nil
}

// uvarint reads an unsigned varint.
func (d *rowDecoder) uvarint() (uint64, error) {
	if d.pos < d.end {
		if b := d.buf[d.pos]; b < 0x80 {
			d.pos++
			return uint64(b), nil
		}
	}
	v, n := binary.Uvarint(d.buf[d.pos:d.end])
	if n <= 0 {
		return 0, d.corrupt("bad varint")
	}
	d.pos += n
	return v, nil
}

// zigzag reads a signed integer that must fit in bits.
func (d *rowDecoder) zigzag(bits int) (int64, error) {
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	v := int64(u>>1) ^ -int64(u&1)
	if bits < 64 && (v < -1<<(bits-1) || v >= 1<<(bits-1)) {
		return 0, d.corrupt("integer out of range")
	}
	return v, nil
}

// unsigned reads an unsigned integer that must fit in bits.
func (d *rowDecoder) unsigned(bits int) (uint64, error) {
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if bits < 64 && u >= 1<<bits {
		return 0, d.corrupt("integer out of range")
	}
	return u, nil
}

// fixed reads n bytes.
func (d *rowDecoder) fixed(n int) ([]byte, error) {
	if d.end-d.pos < n {
		return nil, d.corrupt("truncated")
	}
	b := d.buf[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// str reads a string, a literal or a back-reference to bytes before it
// (strings.go), without copying it: it points into buf.
func (d *rowDecoder) str() (string, error) {
	start := d.pos
	h, err := d.uvarint()
	if err != nil {
		return "", err
	}
	u := h >> 1
	if h&1 == 1 {
		return d.backRef(start, u)
	}
	if u > uint64(d.end-d.pos) {
		return "", d.corrupt("string longer than the bytes left")
	}
	if u == 0 {
		return "", nil
	}
	s := unsafe.String(&d.buf[d.pos], int(u))
	d.pos += int(u)
	return s, nil
}

// claim reads the uvarint length+1 of a slice or map whose elements take
// at least minSize bytes each (nil answers -1) and claims length*minSize
// of the bytes left, which each element gives back (release) as it
// begins. A length the bytes left cannot hold is an error, so that
// nothing is allocated for it.
func (d *rowDecoder) claim(minSize int) (int, error) {
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if u == 0 {
		return -1, nil
	}
	if u-1 > uint64(d.end-d.pos)/uint64(minSize) {
		return 0, d.corrupt("length longer than the bytes left")
	}
	n := int(u - 1)
	d.end -= n * minSize
	return n, nil
}

// release gives back the bytes claimed for an element that begins.
func (d *rowDecoder) release(minSize int) { d.end += minSize }

// enter counts one more level of nesting.
func (d *rowDecoder) enter() error {
	if d.depth++; d.depth > rowCodecMaxDepth {
		return d.corrupt("nested too deep")
	}
	return nil
}

// value decodes a value of c's type into p, which holds its zero value.
func (d *rowDecoder) value(c *typeCodec, p unsafe.Pointer) error {
	switch c.kind {
	case rowKindBool:
		b, err := d.byte()
		if err != nil {
			return err
		}
		if b > 1 {
			return d.corrupt("bad bool")
		}
		*(*bool)(p) = b == 1
	case rowKindInt8:
		v, err := d.zigzag(8)
		*(*int8)(p) = int8(v)
		return err
	case rowKindInt16:
		v, err := d.zigzag(16)
		*(*int16)(p) = int16(v)
		return err
	case rowKindInt32:
		v, err := d.zigzag(32)
		*(*int32)(p) = int32(v)
		return err
	case rowKindInt64:
		v, err := d.zigzag(64)
		*(*int64)(p) = v
		return err
	case rowKindUint8:
		v, err := d.unsigned(8)
		*(*uint8)(p) = uint8(v)
		return err
	case rowKindUint16:
		v, err := d.unsigned(16)
		*(*uint16)(p) = uint16(v)
		return err
	case rowKindUint32:
		v, err := d.unsigned(32)
		*(*uint32)(p) = uint32(v)
		return err
	case rowKindUint64:
		v, err := d.unsigned(64)
		*(*uint64)(p) = v
		return err
	case rowKindFloat32:
		b, err := d.fixed(4)
		if err != nil {
			return err
		}
		*(*float32)(p) = math.Float32frombits(binary.LittleEndian.Uint32(b))
	case rowKindFloat64:
		b, err := d.fixed(8)
		if err != nil {
			return err
		}
		*(*float64)(p) = math.Float64frombits(binary.LittleEndian.Uint64(b))
	case rowKindString:
		s, err := d.str()
		*(*string)(p) = s
		return err
	case rowKindStruct:
		return d.structOps(c.ops, p)
	case rowKindArray:
		for i := range c.n {
			if err := d.value(c.elem, unsafe.Add(p, uintptr(i)*c.elem.size)); err != nil {
				return err
			}
		}
	default:
		if err := d.enter(); err != nil {
			return err
		}
		err := d.nested(c, p)
		d.depth--
		return err
	}
	return nil
}

// rowZeroIsOneByte has a bit set for each kind whose zero value encodes
// as the one byte 0: all but floats and arrays (and structs, which ops
// flatten).
const rowZeroIsOneByte = (1<<(rowKindStruct+1) - 1) &^ (1<<rowKindFloat32 | 1<<rowKindFloat64 | 1<<rowKindArray | 1<<rowKindStruct)

// structOps decodes a struct's fields (ops, nested structs flattened)
// into p. The common cases are inline, reading from a local position: a
// zero value (one 0 byte for every kind but floats, left as the zeroed
// row has it), a short literal string or a back-reference to the first
// bytes, a bool, a small integer. Others go through value.
func (d *rowDecoder) structOps(ops []fieldCodec, p unsafe.Pointer) error {
	buf, pos, end := d.buf, d.pos, d.end
	for i := range ops {
		f := &ops[i]
		fp := unsafe.Add(p, f.off)
		if pos < end {
			b := buf[pos]
			if b == 0 && rowZeroIsOneByte&(1<<f.kind) != 0 {
				pos++
				continue
			}
			if b < 0x80 {
				switch f.kind {
				case rowKindString:
					n := int(b >> 1)
					if b&1 == 1 {
						// A back-reference with an offset of one or
						// two bytes, to bytes before its header; any
						// other goes through value, which checks it.
						if pos+2 < end && n >= rowStringMinRef {
							off, next := int(buf[pos+1]), pos+2
							if off >= 0x80 {
								if buf[pos+2] >= 0x80 {
									break
								}
								off, next = off&0x7f|int(buf[pos+2])<<7, pos+3
							}
							if off+n <= pos {
								*(*string)(fp) = unsafe.String(&buf[off], n)
								pos = next
								continue
							}
						}
						break
					}
					if n > end-pos-1 {
						d.pos = pos
						return d.corrupt("string longer than the bytes left")
					}
					*(*string)(fp) = unsafe.String(&buf[pos+1], n)
					pos += 1 + n
					continue
				case rowKindBool:
					if b == 1 {
						*(*bool)(fp) = true
						pos++
						continue
					}
				case rowKindInt64:
					*(*int64)(fp) = int64(b>>1) ^ -int64(b&1)
					pos++
					continue
				case rowKindUint64:
					*(*uint64)(fp) = uint64(b)
					pos++
					continue
				}
			}
		}
		d.pos = pos
		if err := d.value(f.codec, fp); err != nil {
			return err
		}
		pos, end = d.pos, d.end
	}
	d.pos = pos
	return nil
}

// nested decodes the kinds that allocate: pointers, slices, maps and
// interface values.
func (d *rowDecoder) nested(c *typeCodec, p unsafe.Pointer) error {
	switch c.kind {
	case rowKindPtr:
		b, err := d.byte()
		if err != nil || b == 0 {
			return err
		}
		if b != 1 {
			return d.corrupt("bad pointer")
		}
		q := reflect.New(c.elem.typ).UnsafePointer()
		if err := d.value(c.elem, q); err != nil {
			return err
		}
		*(*unsafe.Pointer)(p) = q
	case rowKindBytes:
		n, err := d.claim(1)
		if err != nil || n < 0 {
			return err
		}
		d.release(n)
		b := make([]byte, n)
		copy(b, d.buf[d.pos:d.pos+n])
		d.pos += n
		*(*[]byte)(p) = b
	case rowKindSlice:
		m := c.elem.minSize
		n, err := d.claim(m)
		if err != nil || n < 0 {
			return err
		}
		var data unsafe.Pointer
		if n > 0 && n <= len(c.arrays) {
			data = reflect.New(c.arrays[n-1]).UnsafePointer()
		} else {
			data = reflect.MakeSlice(c.typ, n, n).UnsafePointer()
		}
		for i := range n {
			d.release(m)
			if err := d.value(c.elem, unsafe.Add(data, uintptr(i)*c.elem.size)); err != nil {
				return err
			}
		}
		*(*sliceHeader)(p) = sliceHeader{data: data, len: n, cap: n}
	case rowKindMapStringAny:
		m, err := d.mapStringAny()
		*(*map[string]any)(p) = m
		return err
	case rowKindMap:
		return d.reflectMap(c, p)
	case rowKindAny:
		v, err := d.anyValue()
		*(*any)(p) = v
		return err
	default:
		return fmt.Errorf("row codec: no decoder for %v", c.typ)
	}
	return nil
}

// reflectMap decodes a map other than map[string]any, through reflect.
func (d *rowDecoder) reflectMap(c *typeCodec, p unsafe.Pointer) error {
	entry := 1 + c.elem.minSize // a key and a value
	n, err := d.claim(entry)
	if err != nil || n < 0 {
		return err
	}
	m := reflect.MakeMapWithSize(c.typ, n)
	key := reflect.New(c.typ.Key()).Elem()
	prev := ""
	for i := range n {
		d.release(entry)
		k, err := d.str()
		if err != nil {
			return err
		}
		if i > 0 && k <= prev {
			return d.corrupt("map keys out of order")
		}
		prev = k
		val := reflect.New(c.typ.Elem())
		if err := d.value(c.elem, val.UnsafePointer()); err != nil {
			return err
		}
		key.SetString(k)
		m.SetMapIndex(key, val.Elem())
	}
	reflect.NewAt(c.typ, p).Elem().Set(m)
	return nil
}
