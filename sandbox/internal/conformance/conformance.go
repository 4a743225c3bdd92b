// Package conformance checks HTTP responses against the official OpenAPI
// description of the Dropbox Sign API (../shared/reference/dropbox-sign/
// openapi.yaml beside the repository). Test servers pass every response to
// Spec.Validate; when the file is absent, Load skips the test with a message
// that says so (LoadIfPresent lets a test go on without the checks).
//
// Beyond what kin-openapi validates (status, content type, types, required
// fields, enums), Validate refuses properties the schema does not name: the
// official SDKs deserialize by schema names, so an invented or misspelled
// field is a fidelity bug even though JSON Schema would allow it.
package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// EnvSpec overrides the location of openapi.yaml.
const EnvSpec = "SIGNSANDBOX_OPENAPI"

// Spec is the loaded official description.
type Spec struct {
	Doc *openapi3.T
	// ops maps operationId to its path and operation.
	ops map[string]opInfo
}

type opInfo struct {
	path   string
	method string
	item   *openapi3.PathItem
	op     *openapi3.Operation
}

var (
	loadOnce sync.Once
	loaded   *Spec
	loadErr  error
	specPath string
)

// Path returns where the official description is expected.
func Path() string {
	if p := os.Getenv(EnvSpec); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "reference", "dropbox-sign", "openapi.yaml")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load returns the official description, or skips the test when the file is
// not beside the repository.
func Load(t testing.TB) *Spec {
	t.Helper()
	s, err := load()
	if err != nil {
		t.Skipf("conformance: official OpenAPI description not available (%v); put ../shared/reference beside the repository or set %s", err, EnvSpec)
	}
	return s
}

// LoadIfPresent returns the description or nil when it is absent.
func LoadIfPresent() *Spec {
	s, err := load()
	if err != nil {
		return nil
	}
	return s
}

func load() (*Spec, error) {
	loadOnce.Do(func() {
		specPath = Path()
		if specPath == "" {
			loadErr = fmt.Errorf("cannot locate the repository root")
			return
		}
		if _, err := os.Stat(specPath); err != nil {
			loadErr = err
			return
		}
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = true
		doc, err := loader.LoadFromFile(specPath)
		if err != nil {
			loadErr = fmt.Errorf("load %s: %w", specPath, err)
			return
		}
		openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
		openapi3filter.RegisterBodyDecoder("application/zip", openapi3filter.FileBodyDecoder)
		s := &Spec{Doc: doc, ops: map[string]opInfo{}}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				s.ops[op.OperationID] = opInfo{path: path, method: method, item: item, op: op}
			}
		}
		loaded = s
	})
	return loaded, loadErr
}

// Operations lists every operationId with its method and path, sorted.
func (s *Spec) Operations() [][3]string {
	var out [][3]string
	for id, o := range s.ops {
		out = append(out, [3]string{id, o.method, o.path})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Validate checks one response of operation opID. body is the raw body.
func (s *Spec) Validate(opID string, req *http.Request, status int, header http.Header, body []byte) error {
	info, ok := s.ops[opID]
	if !ok {
		return fmt.Errorf("operation %q is not in the official description", opID)
	}
	route := &routers.Route{Spec: s.Doc, Path: info.path, PathItem: info.item, Method: info.method, Operation: info.op}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %d: %w", opID, status, err)
	}
	ct := header.Get("Content-Type")
	if status/100 == 2 && status != http.StatusNoContent && len(body) > 0 && strings.HasPrefix(ct, "application/json") {
		ref := info.op.Responses.Status(status)
		if ref != nil && ref.Value != nil {
			if mt := ref.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
				var v any
				if err := json.Unmarshal(body, &v); err != nil {
					return fmt.Errorf("%s %d: body is not JSON: %v", opID, status, err)
				}
				if errs := unknownFields(v, mt.Schema, ""); len(errs) > 0 {
					return fmt.Errorf("%s %d: properties the official schema does not name:\n  %s", opID, status, strings.Join(errs, "\n  "))
				}
			}
		}
	}
	if status >= 400 {
		var e struct {
			Error map[string]any `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error == nil {
			return fmt.Errorf("%s %d: error body is not the official envelope: %s", opID, status, body)
		}
		for k := range e.Error {
			if k != "error_msg" && k != "error_name" && k != "error_path" {
				return fmt.Errorf("%s %d: unknown error field %q", opID, status, k)
			}
		}
	}
	return nil
}

// unknownFields walks a JSON value along its schema and reports object keys
// the schema (with its allOf parts and discriminator subtypes) does not name.
func unknownFields(v any, ref *openapi3.SchemaRef, path string) []string {
	if ref == nil || ref.Value == nil {
		return nil
	}
	sc := ref.Value
	switch t := v.(type) {
	case []any:
		if sc.Items == nil {
			return nil
		}
		var errs []string
		for i, item := range t {
			errs = append(errs, unknownFields(item, sc.Items, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	case map[string]any:
		if len(sc.OneOf) > 0 || len(sc.AnyOf) > 0 {
			alts := append(append([]*openapi3.SchemaRef{}, sc.OneOf...), sc.AnyOf...)
			var first []string
			for i, alt := range alts {
				errs := unknownFields(v, alt, path)
				if len(errs) == 0 {
					return nil
				}
				if i == 0 {
					first = errs
				}
			}
			return first
		}
		props, additional := collectProps(sc, t, map[*openapi3.Schema]bool{})
		var errs []string
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			child := joinPath(path, k)
			if p, ok := props[k]; ok {
				errs = append(errs, unknownFields(t[k], p, child)...)
				continue
			}
			if additional != nil {
				errs = append(errs, unknownFields(t[k], additional, child)...)
				continue
			}
			if len(props) > 0 || hasNoAdditional(sc) {
				errs = append(errs, child)
			}
		}
		return errs
	}
	return nil
}

func hasNoAdditional(sc *openapi3.Schema) bool {
	return sc.AdditionalProperties.Has != nil && !*sc.AdditionalProperties.Has
}

// collectProps gathers the properties a value may have: the schema's own,
// its allOf parts', and those of the discriminator subtype the value names.
// additional is the schema of free-form maps (metadata), when allowed.
func collectProps(sc *openapi3.Schema, v map[string]any, seen map[*openapi3.Schema]bool) (map[string]*openapi3.SchemaRef, *openapi3.SchemaRef) {
	props := map[string]*openapi3.SchemaRef{}
	var additional *openapi3.SchemaRef
	if seen[sc] {
		return props, nil
	}
	seen[sc] = true
	for k, p := range sc.Properties {
		props[k] = p
	}
	if sc.AdditionalProperties.Schema != nil {
		additional = sc.AdditionalProperties.Schema
	} else if sc.AdditionalProperties.Has != nil && *sc.AdditionalProperties.Has {
		additional = &openapi3.SchemaRef{Value: &openapi3.Schema{}}
	}
	for _, part := range sc.AllOf {
		if part.Value == nil {
			continue
		}
		sub, add := collectProps(part.Value, v, seen)
		for k, p := range sub {
			if _, ok := props[k]; !ok {
				props[k] = p
			}
		}
		if add != nil {
			additional = add
		}
	}
	if d := sc.Discriminator; d != nil {
		if tag, ok := v[d.PropertyName].(string); ok {
			if target, ok := d.Mapping[tag]; ok {
				name := target.Ref
				if i := strings.LastIndex(name, "/"); i >= 0 {
					name = name[i+1:]
				}
				if loaded != nil {
					if sub := loaded.Doc.Components.Schemas[name]; sub != nil && sub.Value != nil {
						more, add := collectProps(sub.Value, v, seen)
						for k, p := range more {
							props[k] = p
						}
						if add != nil {
							additional = add
						}
					}
				}
			}
		}
	}
	return props, additional
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// ValidateSchema checks a JSON document against one of the description's
// component schemas (for example "EventCallbackRequest", which no operation
// answers with: the sandbox sends it to callback URLs). Like Validate it
// also refuses properties the schema does not name.
func (s *Spec) ValidateSchema(name string, doc []byte) error {
	ref := s.Doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("schema %q is not in the official description", name)
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return fmt.Errorf("%s: not JSON: %v", name, err)
	}
	if err := ref.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if errs := unknownFields(v, ref, ""); len(errs) > 0 {
		return fmt.Errorf("%s: properties the official schema does not name:\n  %s", name, strings.Join(errs, "\n  "))
	}
	return nil
}
