package rowcodec

// The encoder of the row codec (codec.go): one branch per kind,
// reading values through unsafe pointers at the offsets compiled.

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// encodeRowValue appends the encoding of the value of c's type at p.
// depth counts the pointers, slices, maps and interfaces around it; strs
// holds the strings the row's encoding wrote so far.
func encodeRowValue(dst []byte, c *typeCodec, p unsafe.Pointer, depth int, strs *rowStrings) ([]byte, error) {
	switch c.kind {
	case rowKindBool:
		if *(*bool)(p) {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case rowKindInt8:
		return appendZigzag(dst, int64(*(*int8)(p))), nil
	case rowKindInt16:
		return appendZigzag(dst, int64(*(*int16)(p))), nil
	case rowKindInt32:
		return appendZigzag(dst, int64(*(*int32)(p))), nil
	case rowKindInt64:
		return appendZigzag(dst, *(*int64)(p)), nil
	case rowKindUint8:
		return binary.AppendUvarint(dst, uint64(*(*uint8)(p))), nil
	case rowKindUint16:
		return binary.AppendUvarint(dst, uint64(*(*uint16)(p))), nil
	case rowKindUint32:
		return binary.AppendUvarint(dst, uint64(*(*uint32)(p))), nil
	case rowKindUint64:
		return binary.AppendUvarint(dst, *(*uint64)(p)), nil
	case rowKindFloat32:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(*(*float32)(p))), nil
	case rowKindFloat64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(*(*float64)(p))), nil
	case rowKindString:
		return strs.appendString(dst, *(*string)(p)), nil
	case rowKindStruct:
		return encodeRowStruct(dst, c.ops, p, depth, strs)
	case rowKindArray:
		var err error
		for i := range c.n {
			if dst, err = encodeRowValue(dst, c.elem, unsafe.Add(p, uintptr(i)*c.elem.size), depth, strs); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	if depth++; depth > rowCodecMaxDepth {
		return dst, fmt.Errorf("row codec: %v nested deeper than %d", c.typ, rowCodecMaxDepth)
	}
	switch c.kind {
	case rowKindPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(dst, 0), nil
		}
		return encodeRowValue(append(dst, 1), c.elem, q, depth, strs)
	case rowKindBytes:
		h := (*sliceHeader)(p)
		if h.data == nil {
			return append(dst, 0), nil
		}
		dst = binary.AppendUvarint(dst, uint64(h.len)+1)
		return append(dst, unsafe.Slice((*byte)(h.data), h.len)...), nil
	case rowKindSlice:
		h := (*sliceHeader)(p)
		if h.data == nil {
			return append(dst, 0), nil
		}
		dst = binary.AppendUvarint(dst, uint64(h.len)+1)
		var err error
		for i := range h.len {
			if dst, err = encodeRowValue(dst, c.elem, unsafe.Add(h.data, uintptr(i)*c.elem.size), depth, strs); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case rowKindMapStringAny:
		return encodeRowMapStringAny(dst, *(*map[string]any)(p), depth, strs)
	case rowKindMap:
		return encodeRowMap(dst, c, p, depth, strs)
	case rowKindAny:
		return encodeRowAny(dst, *(*any)(p), depth, strs)
	}
	return dst, fmt.Errorf("row codec: no encoder for %v", c.typ)
}

// encodeRowStruct appends a struct's fields (ops, nested structs
// flattened), the common kinds inline.
func encodeRowStruct(dst []byte, ops []fieldCodec, p unsafe.Pointer, depth int, strs *rowStrings) ([]byte, error) {
	var err error
	for i := range ops {
		f := &ops[i]
		fp := unsafe.Add(p, f.off)
		switch f.kind {
		case rowKindString:
			dst = strs.appendString(dst, *(*string)(fp))
		case rowKindBool:
			if *(*bool)(fp) {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		case rowKindInt64:
			dst = appendZigzag(dst, *(*int64)(fp))
		case rowKindUint64:
			dst = binary.AppendUvarint(dst, *(*uint64)(fp))
		case rowKindPtr, rowKindSlice, rowKindBytes, rowKindMap, rowKindMapStringAny:
			// Nil, as most are, is one byte.
			if *(*unsafe.Pointer)(fp) == nil {
				dst = append(dst, 0)
				continue
			}
			fallthrough
		default:
			if dst, err = encodeRowValue(dst, f.codec, fp, depth, strs); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// encodeRowMap appends a map other than map[string]any: rare, so it goes
// through reflect.
func encodeRowMap(dst []byte, c *typeCodec, p unsafe.Pointer, depth int, strs *rowStrings) ([]byte, error) {
	m := reflect.NewAt(c.typ, p).Elem()
	if m.IsNil() {
		return append(dst, 0), nil
	}
	dst = binary.AppendUvarint(dst, uint64(m.Len())+1)
	keys := m.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	val := reflect.New(c.typ.Elem())
	var err error
	for _, k := range keys {
		dst = strs.appendString(dst, k.String())
		val.Elem().Set(m.MapIndex(k))
		if dst, err = encodeRowValue(dst, c.elem, val.UnsafePointer(), depth, strs); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// appendZigzag appends a signed integer as the uvarint of its zigzag
// form, so that small negative numbers stay short.
func appendZigzag(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}
