package rowcodec

import (
	"reflect"
	"testing"
)

// The benchmarks of the row codec measure a typical processed request
// (typicalRequest): what a read of a frozen row costs (decode) and what
// freezing it costs (encode). They report the encoding's size and the
// bytes the row's own allocations hold on the heap ("heap-B"), which the
// encoding replaces.

func BenchmarkRowCodecDecode(b *testing.B) {
	c := requestCodec(b)
	enc, err := c.Encode(nil, typicalRequest(1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(enc)), "enc-B")
	b.ReportMetric(float64(rowHeapBytes(reflect.ValueOf(typicalRequest(1)))), "heap-B")
}

func BenchmarkRowCodecEncode(b *testing.B) {
	c := requestCodec(b)
	row := typicalRequest(1)
	buf, err := c.Encode(nil, row)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = c.Encode(buf[:0], row); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRowCodecEncodeFresh encodes into a new buffer each time: what
// freezing would cost without encodeWith's pooled buffer.
func BenchmarkRowCodecEncodeFresh(b *testing.B) {
	c := requestCodec(b)
	row := typicalRequest(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Encode(nil, row); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRowCodecEncodeExact encodes as freezing a row does
// (encodeWith): into a pooled scratch buffer, then one exact copy.
func BenchmarkRowCodecEncodeExact(b *testing.B) {
	c := requestCodec(b)
	row := typicalRequest(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.EncodeExact(row); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRowCodecDecodeZero decodes a zero request: the row's
// allocation and one byte per field, the codec's floor.
func BenchmarkRowCodecDecodeZero(b *testing.B) {
	c := requestCodec(b)
	enc, err := c.Encode(nil, &SignatureRequest{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRowCodecBuildTypical builds a typical request with ordinary
// Go code, for comparison with decoding one.
func BenchmarkRowCodecBuildTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = typicalRequest(1)
	}
}

// rowHeapBytes estimates the heap bytes a row's own allocations take:
// the pointed-to values, slices' arrays, maps' entries and strings'
// bytes, each rounded up to the allocator's size class (sizes below
// 1 KiB rounded to 16 bytes, which most classes there are multiples of).
func rowHeapBytes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return rowAllocSize(int(v.Type().Elem().Size())) + rowInnerBytes(v.Elem())
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return 0
		}
		n := rowAllocSize(v.Cap() * int(v.Type().Elem().Size()))
		for i := range v.Len() {
			n += rowInnerBytes(v.Index(i))
		}
		return n
	case reflect.String:
		if v.Len() == 0 {
			return 0
		}
		return rowAllocSize(v.Len())
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		n := 48 + rowAllocSize(v.Len()*int(v.Type().Key().Size()+v.Type().Elem().Size()+1))
		for it := v.MapRange(); it.Next(); {
			n += rowHeapBytes(it.Key()) + rowHeapBytes(it.Value())
		}
		return n
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return rowAllocSize(int(v.Elem().Type().Size())) + rowInnerBytes(v.Elem())
	}
	return 0
}

// rowInnerBytes is the heap bytes of what a value held in place refers to.
func rowInnerBytes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += rowInnerBytes(v.Field(i))
		}
		return n
	case reflect.Array:
		n := 0
		for i := range v.Len() {
			n += rowInnerBytes(v.Index(i))
		}
		return n
	}
	return rowHeapBytes(v)
}

func rowAllocSize(n int) int {
	if n <= 8 {
		return 8
	}
	return (n + 15) &^ 15
}
