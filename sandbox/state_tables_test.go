package sandbox_test

// Every table a world stores must round-trip through JSON exactly: that is
// what export and import of a world rest on. The rows of the grand world
// (grand_world_test.go), which hold every table, are each encoded, decoded
// into the table's registered type and encoded again.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func TestEveryTableRoundTripsThroughJSON(t *testing.T) {
	srv := grandServer(t)
	grandWorld(t, srv)
	stored, err := sandbox.StoredRows(srv.Sandbox)
	require.NoError(t, err)
	for _, name := range state.TableNames() {
		t.Run(name, func(t *testing.T) {
			rows := stored[name]
			require.NotEmpty(t, rows, "the grand world has rows in %s", name)
			checkStorableType(t, reflect.TypeOf(rows[0]), name)
			for i, row := range rows {
				raw, err := json.Marshal(row)
				require.NoError(t, err)
				back, err := state.DecodeRow(name, raw)
				require.NoError(t, err, "row %d: %s", i, raw)
				again, err := json.Marshal(back)
				require.NoError(t, err)
				require.Equal(t, string(raw), string(again), "row %d: decode then encode changes it", i)
				if p := firstDifference(reflect.ValueOf(row), reflect.ValueOf(back), name); p != "" {
					t.Errorf("row %d: the decoded row differs from the stored one at %s\n%s", i, p, raw)
				}
			}
		})
	}
}

// checkStorableType refuses what JSON cannot carry: unexported fields,
// functions, channels, complex numbers, interfaces other than any, and
// maps whose keys are not strings.
func checkStorableType(t *testing.T, typ reflect.Type, at string) {
	t.Helper()
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type, at string)
	walk = func(typ reflect.Type, at string) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		if typ.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Marshaler]()) {
			if !typ.Implements(reflect.TypeFor[json.Unmarshaler]()) && !reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()) {
				t.Errorf("%s: %s marshals itself but does not unmarshal", at, typ)
			}
			return
		}
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(typ.Elem(), at+"[]")
		case reflect.Map:
			if typ.Key().Kind() != reflect.String {
				t.Errorf("%s: map keys of %s are not strings", at, typ)
			}
			walk(typ.Elem(), at+"{}")
		case reflect.Struct:
			for i := 0; i < typ.NumField(); i++ {
				f := typ.Field(i)
				if !f.IsExported() {
					t.Errorf("%s.%s: unexported field (not exported with the world)", at, f.Name)
					continue
				}
				if f.Tag.Get("json") == "-" {
					t.Errorf("%s.%s: field left out of JSON (not exported with the world)", at, f.Name)
				}
				walk(f.Type, at+"."+f.Name)
			}
		case reflect.Func, reflect.Chan, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer, reflect.Uintptr:
			t.Errorf("%s: %s cannot be stored as JSON", at, typ)
		case reflect.Interface:
			if typ.NumMethod() != 0 {
				t.Errorf("%s: interface %s does not decode", at, typ)
			}
		}
	}
	walk(typ, at)
}

// firstDifference is the path of the first difference between a stored
// row and its decoded copy ("" when equal). Numbers inside any-typed values
// compare by their text (a stored 3 and a decoded json.Number "3" are the
// same value).
func firstDifference(a, b reflect.Value, at string) string {
	if a.IsValid() != b.IsValid() {
		return at
	}
	if !a.IsValid() {
		return ""
	}
	if a.Kind() == reflect.Interface && b.Kind() == reflect.Interface {
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at
			}
			return ""
		}
		return firstDifference(a.Elem(), b.Elem(), at)
	}
	if a.Type() != b.Type() {
		if isNumber(a) && isNumber(b) && fmt.Sprint(a.Interface()) == fmt.Sprint(b.Interface()) {
			return ""
		}
		return fmt.Sprintf("%s (%s vs %s)", at, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at
			}
			return ""
		}
		return firstDifference(a.Elem(), b.Elem(), at)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p := firstDifference(a.Field(i), b.Field(i), at+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
		return ""
	case reflect.Slice, reflect.Map:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s (nil vs empty)", at)
		}
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return at
		}
		for i := 0; i < a.Len(); i++ {
			if p := firstDifference(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", at, i)); p != "" {
				return p
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return at
		}
		for _, k := range a.MapKeys() {
			if p := firstDifference(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", at, k)); p != "" {
				return p
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return at
	}
	return ""
}

func isNumber(v reflect.Value) bool {
	if v.Type() == reflect.TypeFor[json.Number]() {
		return true
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
