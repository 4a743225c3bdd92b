package state

// Index keys for numbers: one 4-bit digit per byte.
//
// memdb's UintFieldIndex and IntFieldIndex key a number by its 8 big-endian
// bytes. Numbers that grow one by one (sequence numbers, ordinals, due
// times) then share all but their last byte, so the radix node above them
// gathers up to 256 children, and go-immutable-radix copies that node, all
// 256 edges of it (4 KB), on every insert and every delete below it. A
// send, its processing and its jobs meet such a node in half a dozen
// indexes, and the copies were most of the garbage a write made. Spelled
// one 4-bit digit per byte, a node has at most 16 children and a copy
// costs a sixteenth; the keys sort exactly as the numbers do, so every
// ordered walk, bound and cursor is unchanged.

import (
	"fmt"
	"reflect"
)

// numberKeyLen is the length of a number's key: 16 digits of 4 bits.
const numberKeyLen = 16

// appendDigits appends v as 16 bytes, each holding 4 bits, most
// significant first, so that the bytes sort as v does.
func appendDigits(dst []byte, v uint64) []byte {
	for shift := 60; shift >= 0; shift -= 4 {
		dst = append(dst, byte(v>>uint(shift))&0xf)
	}
	return dst
}

// signedDigits is v with its sign bit flipped, so that negative numbers
// sort before positive ones (as memdb's IntFieldIndex does).
func signedDigits(v int64) uint64 { return uint64(v) ^ (1 << 63) }

// UintKey indexes an unsigned integer field (any size) in digit keys.
type UintKey struct {
	Field string
}

// FromObject is the key of the field of obj.
func (u *UintKey) FromObject(obj any) (bool, []byte, error) {
	v := reflect.Indirect(reflect.ValueOf(obj)).FieldByName(u.Field)
	if !v.IsValid() || !v.CanUint() {
		return false, nil, fmt.Errorf("state: field %q of %T is not an unsigned integer", u.Field, obj)
	}
	return true, appendDigits(make([]byte, 0, numberKeyLen), v.Uint()), nil
}

// FromArgs is the key of a lookup by one unsigned integer of any size.
func (u *UintKey) FromArgs(args ...any) ([]byte, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("state: %s index: want one number, got %d arguments", u.Field, len(args))
	}
	v := reflect.ValueOf(args[0])
	if !v.IsValid() || !v.CanUint() {
		return nil, fmt.Errorf("state: %s index: want an unsigned integer, got %T", u.Field, args[0])
	}
	return appendDigits(make([]byte, 0, numberKeyLen), v.Uint()), nil
}

// IntKey indexes a signed integer field (any size) in digit keys.
type IntKey struct {
	Field string
}

// FromObject is the key of the field of obj.
func (i *IntKey) FromObject(obj any) (bool, []byte, error) {
	v := reflect.Indirect(reflect.ValueOf(obj)).FieldByName(i.Field)
	if !v.IsValid() || !v.CanInt() {
		return false, nil, fmt.Errorf("state: field %q of %T is not an integer", i.Field, obj)
	}
	return true, appendDigits(make([]byte, 0, numberKeyLen), signedDigits(v.Int())), nil
}

// FromArgs is the key of a lookup by one signed integer of any size.
func (i *IntKey) FromArgs(args ...any) ([]byte, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("state: %s index: want one number, got %d arguments", i.Field, len(args))
	}
	v := reflect.ValueOf(args[0])
	if !v.IsValid() || !v.CanInt() {
		return nil, fmt.Errorf("state: %s index: want an integer, got %T", i.Field, args[0])
	}
	return appendDigits(make([]byte, 0, numberKeyLen), signedDigits(v.Int())), nil
}
