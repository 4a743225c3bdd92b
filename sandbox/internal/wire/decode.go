package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// Unmarshaler lets a type decode itself from a tree value (for example an
// int-or-string field). path is the field's bracket path for error messages.
type Unmarshaler interface {
	UnmarshalWire(v any, path string) error
}

var (
	fileSliceType = reflect.TypeOf([]File(nil))
	fileType      = reflect.TypeOf(File{})
	rawType       = reflect.TypeOf(json.RawMessage(nil))
	numberType    = reflect.TypeOf(json.Number(""))
	unmarshalerT  = reflect.TypeOf((*Unmarshaler)(nil)).Elem()
)

// Decode fills dst (a pointer to a struct) from the body: parameters by their
// json tag names, file parameters ([]File or File fields) from the uploads.
// Unknown parameters are ignored, as the real API ignores them.
func Decode(b *Body, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic("wire.Decode: dst must be a pointer to a struct")
	}
	return decodeStruct(b.Tree, v.Elem(), "", b)
}

// DecodeTree fills dst from a bare tree (query strings, nested values).
func DecodeTree(tree map[string]any, dst any) error {
	return Decode(&Body{Tree: tree}, dst)
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "[" + name + "]"
}

func decodeStruct(m map[string]any, v reflect.Value, path string, b *Body) error {
	for _, f := range fieldsOf(v.Type()) {
		if f.embedded {
			if err := decodeStruct(m, v.Field(f.index), path, b); err != nil {
				return err
			}
			continue
		}
		if path == "" && b != nil && (f.file || f.files) {
			files := b.Files[f.name]
			if f.file {
				if len(files) > 1 {
					return apierr.Badf(f.name, "Only one file may be given for %s", f.name)
				}
				if len(files) == 1 {
					v.Field(f.index).Set(reflect.ValueOf(files[0]))
				}
			} else if files != nil {
				v.Field(f.index).Set(reflect.ValueOf(files))
			}
			continue
		}
		raw, ok := m[f.name]
		if !ok {
			continue
		}
		// The field's path is built only for a parameter that is there.
		if err := decodeValue(raw, v.Field(f.index), joinPath(path, f.name)); err != nil {
			return err
		}
	}
	return nil
}

// decodeValue stores tree value raw into v, coercing as the real API does.
func decodeValue(raw any, v reflect.Value, path string) error {
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerT) {
		return v.Addr().Interface().(Unmarshaler).UnmarshalWire(raw, path)
	}
	switch v.Type() {
	case rawType:
		b, err := json.Marshal(raw)
		if err != nil {
			return apierr.Badf(path, "Invalid value for %s", path)
		}
		v.SetBytes(b)
		return nil
	case numberType:
		n, err := toNumber(raw, path)
		if err != nil {
			return err
		}
		v.SetString(string(n))
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if raw == nil {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := decodeValue(raw, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Interface:
		if raw != nil {
			v.Set(reflect.ValueOf(raw))
		}
		return nil
	case reflect.String:
		s, err := toString(raw, path)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		bv, err := toBool(raw, path)
		if err != nil {
			return err
		}
		v.SetBool(bv)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		if v.OverflowInt(n) {
			return apierr.Badf(path, "%s is out of range", path)
		}
		v.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		if n < 0 || v.OverflowUint(uint64(n)) {
			return apierr.Badf(path, "%s is out of range", path)
		}
		v.SetUint(uint64(n))
		return nil
	case reflect.Float32, reflect.Float64:
		f, err := toFloat(raw, path)
		if err != nil {
			return err
		}
		v.SetFloat(f)
		return nil
	case reflect.Slice:
		list, err := toList(raw, path)
		if err != nil {
			return err
		}
		if list == nil {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		out := reflect.MakeSlice(v.Type(), len(list), len(list))
		for i, item := range list {
			if err := decodeValue(item, out.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		v.Set(out)
		return nil
	case reflect.Map:
		m, err := toMap(raw, path)
		if err != nil {
			return err
		}
		if m == nil {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		if v.Type().Key().Kind() != reflect.String {
			panic("wire: map keys must be strings")
		}
		out := reflect.MakeMapWithSize(v.Type(), len(m))
		keys := sortedKeys(m)
		for _, k := range keys {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := decodeValue(m[k], ev, joinPath(path, k)); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
		}
		v.Set(out)
		return nil
	case reflect.Struct:
		m, err := toMap(raw, path)
		if err != nil {
			return err
		}
		return decodeStruct(m, v, path, nil)
	}
	return apierr.Badf(path, "Unsupported value for %s", path)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func describe(raw any) string {
	switch raw.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", raw)
}

func toString(raw any, path string) (string, error) {
	switch t := raw.(type) {
	case string:
		return t, nil
	case json.Number:
		return string(t), nil
	case bool:
		return strconv.FormatBool(t), nil
	case nil:
		return "", nil
	}
	return "", apierr.Badf(path, "%s must be a string, not %s", path, describe(raw))
}

func toBool(raw any, path string) (bool, error) {
	switch t := raw.(type) {
	case bool:
		return t, nil
	case json.Number:
		switch t {
		case "1":
			return true, nil
		case "0":
			return false, nil
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "1":
			return true, nil
		case "false", "0", "":
			return false, nil
		}
	case nil:
		return false, nil
	}
	return false, apierr.Badf(path, "%s must be a boolean (true, false, 1 or 0)", path)
}

func toNumber(raw any, path string) (json.Number, error) {
	switch t := raw.(type) {
	case json.Number:
		return t, nil
	case string:
		s := strings.TrimSpace(t)
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s), nil
		}
	}
	return "", apierr.Badf(path, "%s must be a number", path)
}

func toInt(raw any, path string) (int64, error) {
	var s string
	switch t := raw.(type) {
	case json.Number:
		s = string(t)
	case string:
		s = strings.TrimSpace(t)
	case bool:
		return 0, apierr.Badf(path, "%s must be an integer, not a boolean", path)
	default:
		return 0, apierr.Badf(path, "%s must be an integer, not %s", path, describe(raw))
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	// 12.0 is an integer written as a float.
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f), nil
	}
	return 0, apierr.Badf(path, "%s must be an integer", path)
}

func toFloat(raw any, path string) (float64, error) {
	n, err := toNumber(raw, path)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, apierr.Badf(path, "%s must be a number", path)
	}
	return f, nil
}

// toList accepts an array, a string holding a JSON array (a multipart part
// from an official SDK), or a single scalar (one form value); and, as PHP
// reads them (php_arrays.go), an object whose keys are all list indexes, or
// a string holding one, as its entries in index order. Entries are named
// by position; Body.KeyedError names them by key in the answer.
func toList(raw any, path string) ([]any, error) {
	switch t := raw.(type) {
	case nil:
		return nil, nil
	case []any:
		return t, nil
	case map[string]any:
		if list, _, ok := IndexedList(t); ok {
			return list, nil
		}
	case string:
		s := strings.TrimSpace(t)
		if strings.HasPrefix(s, "[") {
			v, err := parseJSONText(s, path)
			if err != nil {
				return nil, err
			}
			if l, ok := v.([]any); ok {
				return l, nil
			}
		}
		// A text object with index keys is a list; any other text (an
		// object, {} included, or text that is not JSON) is one entry.
		if m, ok := jsonObjectText(s); ok {
			if list, _, ok := IndexedList(m); ok && len(list) > 0 {
				return list, nil
			}
		}
		return []any{t}, nil
	case json.Number, bool:
		return []any{t}, nil
	}
	return nil, apierr.Badf(path, "%s must be an array, not %s", path, describe(raw))
}

// toMap accepts an object or a string holding a JSON object; and, as PHP
// reads it (php_arrays.go), an empty array, or the text [], as an empty
// object (nil).
func toMap(raw any, path string) (map[string]any, error) {
	switch t := raw.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return t, nil
	case []any:
		if len(t) == 0 {
			return nil, nil
		}
	case string:
		s := strings.TrimSpace(t)
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
			v, err := parseJSONText(s, path)
			if err != nil {
				return nil, err
			}
			switch parsed := v.(type) {
			case map[string]any:
				return parsed, nil
			case []any:
				if len(parsed) == 0 {
					return nil, nil
				}
				return nil, apierr.Badf(path, "%s must be an object, not an array", path)
			}
		}
		if s == "" {
			return nil, nil
		}
	}
	return nil, apierr.Badf(path, "%s must be an object, not %s", path, describe(raw))
}

func parseJSONText(s, path string) (any, error) {
	raw := []byte(s)
	if err := ScanJSON(raw, DefaultLimits.MaxDepth, DefaultLimits.maxValues()); err != nil {
		return nil, apierr.Badf(path, "%s is nested too deeply or too large: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || trailingData(raw, dec.InputOffset()) {
		if err == nil {
			err = fmt.Errorf("unexpected data after the value")
		}
		return nil, apierr.Badf(path, "%s is not valid JSON: %v", path, jsonErrText(err))
	}
	return v, nil
}

// CheckKnown refuses top-level parameters that dst (a pointer to a struct)
// does not name. The API ignores unknown parameters as the real one does;
// the control plane uses this so that a typo ("clok") is an error rather
// than a silent default.
func CheckKnown(b *Body, dst any) error {
	t := reflect.TypeOf(dst)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic("wire.CheckKnown: dst must be a pointer to a struct")
	}
	known := map[string]bool{}
	fieldNames(t.Elem(), known)
	var unknown []string
	for k := range b.Tree {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	for k := range b.Files {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	if len(known) == 0 {
		return apierr.Badf(unknown[0], "Unknown parameter %q (this call takes no parameters)", unknown[0])
	}
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	return apierr.Badf(unknown[0], "Unknown parameter %q (known parameters: %s)", unknown[0], strings.Join(names, ", "))
}

// fieldNames collects the parameter names of a struct type.
func fieldNames(t reflect.Type, into map[string]bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			fieldNames(f.Type, into)
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = true
	}
}
