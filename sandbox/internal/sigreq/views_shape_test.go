package sigreq

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestShapeRowsExerciseEveryField: the seeded rows the writer is checked on
// (viewRows) make every field of the declared shape set at least once, and
// every nullable field null at least once, so a field added to the shape
// and the writer is checked both ways or this test says which is never
// exercised. final_copy_uri is the one field the sandbox never fills.
func TestShapeRowsExerciseEveryField(t *testing.T) {
	set, null := map[string]bool{}, map[string]bool{}
	for _, req := range viewRows(1, 400) {
		walkShape(reflect.ValueOf(shapeOf(req)), "", set, null)
	}
	var fields []string
	listShapeFields(reflect.TypeOf(requestShape{}), "", &fields)
	for _, f := range fields {
		if f == "final_copy_uri" {
			if set[f] {
				t.Errorf("%s is set: the sandbox is meant to answer it null", f)
			}
			continue
		}
		if !set[f] {
			t.Errorf("no seeded row sets %s: extend viewRows", f)
		}
		if nullable(f) && !null[f] {
			t.Errorf("no seeded row leaves %s null: extend viewRows", f)
		}
	}
}

// nullableFields are the shape's fields that are pointers, by JSON path.
var nullableFields = func() map[string]bool {
	out := map[string]bool{}
	var walk func(reflect.Type, string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			name := prefix + jsonName(f)
			switch {
			case f.Type.Kind() == reflect.Pointer:
				out[name] = true
			case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
				walk(f.Type.Elem(), name+"[].")
			case f.Type.Kind() == reflect.Struct:
				walk(f.Type, name+".")
			}
		}
	}
	walk(reflect.TypeOf(requestShape{}), "")
	out["template_ids"] = true // null when the request used no template
	return out
}()

func nullable(field string) bool { return nullableFields[field] }

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// listShapeFields lists the JSON paths of every field of a shape type,
// with "[]." for the elements of a list of objects.
func listShapeFields(t reflect.Type, prefix string, out *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		name := prefix + jsonName(f)
		*out = append(*out, name)
		switch {
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			listShapeFields(f.Type.Elem(), name+"[].", out)
		case f.Type.Kind() == reflect.Struct:
			listShapeFields(f.Type, name+".", out)
		}
	}
}

// walkShape notes, by JSON path, the fields of v that are set (not their
// zero value) and those that are nil.
func walkShape(v reflect.Value, prefix string, set, null map[string]bool) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		name := prefix + jsonName(f)
		if fv.IsZero() {
			if fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Slice || fv.Kind() == reflect.Interface {
				null[name] = true
			}
		} else {
			set[name] = true
		}
		switch {
		case fv.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			for j := range fv.Len() {
				walkShape(fv.Index(j), name+"[].", set, null)
			}
		case fv.Kind() == reflect.Struct:
			walkShape(fv, name+".", set, null)
		}
	}
}

// TestViewHasNoFieldOutsideTheShape: what the writer writes decodes into
// the declared shape with no field left over, on every seeded row (the
// byte comparison of TestViewWritesReferenceBytes says the same more
// strictly; this one names the stray field).
func TestViewHasNoFieldOutsideTheShape(t *testing.T) {
	for _, req := range viewRows(4, 200) {
		b, err := View(req, "").AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var got requestShape
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("view of %q does not decode into its shape: %v\n%s", req.ID, err, b)
		}
	}
}

// TestShapeNamesTheOfficialFields: each declared shape names exactly the
// properties of the official description's schema (with its allOf parts
// and, for the one-of entries, every variant), so the shape is the
// description's as the sandbox serves it, no more and no less.
func TestShapeNamesTheOfficialFields(t *testing.T) {
	spec := conformance.Load(t)
	customFields := []string{"SignatureRequestResponseCustomFieldText", "SignatureRequestResponseCustomFieldCheckbox"}
	var responseValues []string
	for name := range spec.Doc.Components.Schemas {
		if strings.HasPrefix(name, "SignatureRequestResponseDataValue") {
			responseValues = append(responseValues, name)
		}
	}
	sort.Strings(responseValues)
	for _, c := range []struct {
		shape   any
		schemas []string
	}{
		{requestShape{}, []string{"SignatureRequestResponse"}},
		{signatureShape{}, []string{"SignatureRequestResponseSignatures"}},
		{attachmentShape{}, []string{"SignatureRequestResponseAttachment"}},
		{customFieldShape{}, customFields},
		{responseValueShape{}, responseValues},
		{signerExperienceShape{}, []string{"SignatureRequestSignerExperience"}},
	} {
		typ := reflect.TypeOf(c.shape)
		var declared []string
		for i := range typ.NumField() {
			declared = append(declared, jsonName(typ.Field(i)))
		}
		official := map[string]bool{}
		for _, name := range c.schemas {
			ref := spec.Doc.Components.Schemas[name]
			if ref == nil || ref.Value == nil {
				t.Fatalf("%s: schema %s is not in the official description", typ.Name(), name)
			}
			for k := range ref.Value.Properties {
				official[k] = true
			}
			for _, part := range ref.Value.AllOf {
				if part.Value == nil {
					continue
				}
				for k := range part.Value.Properties {
					official[k] = true
				}
			}
		}
		var want []string
		for k := range official {
			want = append(want, k)
		}
		sort.Strings(want)
		got := slices.Clone(declared)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s names %v; the official %v name %v", typ.Name(), got, c.schemas, want)
		}
	}
}

// BenchmarkViewAppendJSON is the writer of one request with its parts, on
// the seeded rows; BenchmarkViewShapeMarshal is what the same answers cost
// built from the declared shape through encoding/json, for comparison.
func BenchmarkViewAppendJSON(b *testing.B) {
	rows := viewRows(5, 64)
	buf := make([]byte, 0, 16<<10)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var err error
		if buf, err = View(rows[i%len(rows)], "").AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkViewShapeMarshal(b *testing.B) {
	rows := viewRows(5, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := json.Marshal(shapeOf(rows[i%len(rows)])); err != nil {
			b.Fatal(err)
		}
	}
}
