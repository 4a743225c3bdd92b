package rowcodec

// Interface values in the row codec (codec.go): metadata and
// response values hold what JSON decoding gives (numbers as json.Number)
// and what handlers put there. Each dynamic type of a closed set has a
// tag; any other is refused when encoded, so the row stays unencoded
// rather than coming back different.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Tags of the dynamic types of interface values.
const (
	rowAnyNil byte = iota
	rowAnyFalse
	rowAnyTrue
	rowAnyString
	rowAnyNumber // json.Number
	rowAnyFloat64
	rowAnyInt
	rowAnyInt64
	rowAnySlice // []any: uvarint length+1 (0 for nil), elements
	rowAnyMap   // map[string]any: uvarint length+1 (0 for nil), entries by key
)

// encodeRowAny appends an interface value: its tag and its value.
func encodeRowAny(dst []byte, v any, depth int, strs *rowStrings) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, rowAnyNil), nil
	case bool:
		if x {
			return append(dst, rowAnyTrue), nil
		}
		return append(dst, rowAnyFalse), nil
	case string:
		return strs.appendString(append(dst, rowAnyString), x), nil
	case json.Number:
		return strs.appendString(append(dst, rowAnyNumber), string(x)), nil
	case float64:
		return binary.LittleEndian.AppendUint64(append(dst, rowAnyFloat64), math.Float64bits(x)), nil
	case int:
		return appendZigzag(append(dst, rowAnyInt), int64(x)), nil
	case int64:
		return appendZigzag(append(dst, rowAnyInt64), x), nil
	case []any:
		if depth++; depth > rowCodecMaxDepth {
			return dst, fmt.Errorf("row codec: interface values nested deeper than %d", rowCodecMaxDepth)
		}
		dst = append(dst, rowAnySlice)
		if x == nil {
			return append(dst, 0), nil
		}
		dst = binary.AppendUvarint(dst, uint64(len(x))+1)
		var err error
		for _, e := range x {
			if dst, err = encodeRowAny(dst, e, depth, strs); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case map[string]any:
		if depth++; depth > rowCodecMaxDepth {
			return dst, fmt.Errorf("row codec: interface values nested deeper than %d", rowCodecMaxDepth)
		}
		return encodeRowMapStringAny(append(dst, rowAnyMap), x, depth, strs)
	}
	return dst, fmt.Errorf("row codec: interface value of type %T cannot be encoded", v)
}

// encodeRowMapStringAny appends a map[string]any: uvarint length+1 (0 for
// nil), then its entries in increasing key order, so that equal maps
// encode to equal bytes.
func encodeRowMapStringAny(dst []byte, m map[string]any, depth int, strs *rowStrings) ([]byte, error) {
	if m == nil {
		return append(dst, 0), nil
	}
	dst = binary.AppendUvarint(dst, uint64(len(m))+1)
	var small [16]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var err error
	for _, k := range keys {
		dst = strs.appendString(dst, k)
		if dst, err = encodeRowAny(dst, m[k], depth, strs); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// anyValue decodes an interface value.
func (d *rowDecoder) anyValue() (any, error) {
	tag, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case rowAnyNil:
		return nil, nil
	case rowAnyFalse:
		return false, nil
	case rowAnyTrue:
		return true, nil
	case rowAnyString:
		return d.str()
	case rowAnyNumber:
		s, err := d.str()
		return json.Number(s), err
	case rowAnyFloat64:
		b, err := d.fixed(8)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	case rowAnyInt:
		v, err := d.zigzag(strconv.IntSize)
		return int(v), err
	case rowAnyInt64:
		return d.zigzag(64)
	case rowAnySlice:
		if err := d.enter(); err != nil {
			return nil, err
		}
		defer func() { d.depth-- }()
		n, err := d.claim(1) // a tag
		if err != nil || n < 0 {
			return []any(nil), err
		}
		s := make([]any, n)
		for i := range s {
			d.release(1)
			if s[i], err = d.anyValue(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case rowAnyMap:
		if err := d.enter(); err != nil {
			return nil, err
		}
		defer func() { d.depth-- }()
		return d.mapStringAny()
	}
	return nil, d.corrupt("bad interface tag")
}

// mapStringAny decodes a map[string]any; its keys must be in increasing
// order, as encode writes them, so no key comes twice.
func (d *rowDecoder) mapStringAny() (map[string]any, error) {
	n, err := d.claim(2) // a key and a tag
	if err != nil || n < 0 {
		return nil, err
	}
	m := make(map[string]any, n)
	prev := ""
	for i := range n {
		d.release(2)
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		if i > 0 && k <= prev {
			return nil, d.corrupt("map keys out of order")
		}
		prev = k
		if m[k], err = d.anyValue(); err != nil {
			return nil, err
		}
	}
	return m, nil
}
