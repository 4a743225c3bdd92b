package wire

import (
	"reflect"
	"strings"
	"sync"
)

// structField is what decodeStruct needs of one field of a struct type.
type structField struct {
	index int
	// name is the parameter name (the json tag's, else the field's).
	name string
	// embedded marks an embedded struct without a name of its own: its
	// exported fields are promoted parameters, walked into as encoding/json
	// does, even when its type is unexported.
	embedded bool
	// file and files mark File and []File fields (uploads).
	file, files bool
}

// structFields caches fieldsOf per struct type: a request struct has dozens
// of fields, and reading their tags (reflect allocates each field's index
// path) on every request cost as much as decoding the few that are given.
// The request types are a fixed set, so the cache stays small.
var structFields sync.Map // reflect.Type -> []structField

// fieldsOf lists the fields of struct type t that take parameters, in
// declaration order, worked out once per type.
func fieldsOf(t reflect.Type) []structField {
	if v, ok := structFields.Load(t); ok {
		return v.([]structField)
	}
	var out []structField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		embedded := f.Anonymous && f.Type.Kind() == reflect.Struct
		if !f.IsExported() && !embedded {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if embedded && name == "" {
			out = append(out, structField{index: i, embedded: true})
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, structField{index: i, name: name, file: f.Type == fileType, files: f.Type == fileSliceType})
	}
	v, _ := structFields.LoadOrStore(t, out)
	return v.([]structField)
}
