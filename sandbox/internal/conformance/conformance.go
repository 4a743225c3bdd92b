// Package conformance checks HTTP responses against the official OpenAPI
// description of the Dropbox Sign API (../shared/reference/dropbox-sign/
// openapi.yaml beside the repository). Test servers pass every response to
// Spec.Validate; when the file is absent, Load skips the test with a message
// that says so (LoadIfPresent lets a test go on without the checks).
//
// The official SDKs are generated from a second file beside it,
// openapi-sdk.yaml: the same operations and schemas plus operations the
// public reference hides (templateUpdate). Answers of those operations are
// validated against that file, loaded the first time one is seen.
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

// EnvSpec overrides the location of openapi.yaml; openapi-sdk.yaml is
// looked for beside it.
const EnvSpec = "SIGNSANDBOX_OPENAPI"

// sdkFile is the name of the SDK description, beside openapi.yaml.
const sdkFile = "openapi-sdk.yaml"

// Spec is the loaded official description.
type Spec struct {
	Doc *openapi3.T
	// ops maps operationId to its path and operation.
	ops map[string]opInfo

	// sdk is the description the SDKs are generated from, loaded once when
	// first needed; sdkOps are its operations that Doc does not have.
	sdkOnce sync.Once
	sdk     *openapi3.T
	sdkOps  map[string]opInfo
	sdkErr  error
}

type opInfo struct {
	doc    *openapi3.T
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
		s := &Spec{Doc: doc, ops: operationsOf(doc)}
		loaded = s
	})
	return loaded, loadErr
}

// operationsOf maps every operationId of doc to its path and operation.
func operationsOf(doc *openapi3.T) map[string]opInfo {
	out := map[string]opInfo{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[op.OperationID] = opInfo{doc: doc, path: path, method: method, item: item, op: op}
		}
	}
	return out
}

// loadSDK loads openapi-sdk.yaml (beside openapi.yaml) once and keeps the
// operations openapi.yaml does not have.
func (s *Spec) loadSDK() error {
	s.sdkOnce.Do(func() {
		p := filepath.Join(filepath.Dir(specPath), sdkFile)
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = true
		doc, err := loader.LoadFromFile(p)
		if err != nil {
			s.sdkErr = fmt.Errorf("load %s: %w", p, err)
			return
		}
		s.sdk, s.sdkOps = doc, map[string]opInfo{}
		for id, o := range operationsOf(doc) {
			if _, public := s.ops[id]; !public {
				s.sdkOps[id] = o
			}
		}
	})
	return s.sdkErr
}

// Operations lists every operationId of openapi.yaml with its method and
// path, sorted.
func (s *Spec) Operations() [][3]string { return sortedOps(s.ops) }

// SDKOperations lists, in the same form, the operations only
// openapi-sdk.yaml describes (hidden from the public reference, shipped in
// the SDKs); an error when that file cannot be loaded.
func (s *Spec) SDKOperations() ([][3]string, error) {
	if err := s.loadSDK(); err != nil {
		return nil, err
	}
	return sortedOps(s.sdkOps), nil
}

// SDKTag is the first tag of an operation only openapi-sdk.yaml describes.
func (s *Spec) SDKTag(opID string) string {
	if s.loadSDK() != nil || s.sdkOps[opID].op == nil || len(s.sdkOps[opID].op.Tags) == 0 {
		return ""
	}
	return s.sdkOps[opID].op.Tags[0]
}

func sortedOps(ops map[string]opInfo) [][3]string {
	var out [][3]string
	for id, o := range ops {
		out = append(out, [3]string{id, o.method, o.path})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// operation finds opID in openapi.yaml, else in openapi-sdk.yaml.
func (s *Spec) operation(opID string) (opInfo, error) {
	if info, ok := s.ops[opID]; ok {
		return info, nil
	}
	if err := s.loadSDK(); err != nil {
		return opInfo{}, fmt.Errorf("operation %q is not in the official description, and %s could not be read: %v", opID, sdkFile, err)
	}
	if info, ok := s.sdkOps[opID]; ok {
		return info, nil
	}
	return opInfo{}, fmt.Errorf("operation %q is not in the official description nor in %s", opID, sdkFile)
}

// Validate checks one response of operation opID. body is the raw body.
func (s *Spec) Validate(opID string, req *http.Request, status int, header http.Header, body []byte) error {
	info, err := s.operation(opID)
	if err != nil {
		return err
	}
	route := &routers.Route{Spec: info.doc, Path: info.path, PathItem: info.item, Method: info.method, Operation: info.op}
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
				if errs := unknownFields(info.doc, v, mt.Schema, ""); len(errs) > 0 {
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
func unknownFields(doc *openapi3.T, v any, ref *openapi3.SchemaRef, path string) []string {
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
			errs = append(errs, unknownFields(doc, item, sc.Items, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	case map[string]any:
		if len(sc.OneOf) > 0 || len(sc.AnyOf) > 0 {
			alts := append(append([]*openapi3.SchemaRef{}, sc.OneOf...), sc.AnyOf...)
			var first []string
			for i, alt := range alts {
				errs := unknownFields(doc, v, alt, path)
				if len(errs) == 0 {
					return nil
				}
				if i == 0 {
					first = errs
				}
			}
			return first
		}
		props, additional := collectProps(doc, sc, t, map[*openapi3.Schema]bool{})
		var errs []string
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			child := joinPath(path, k)
			if p, ok := props[k]; ok {
				errs = append(errs, unknownFields(doc, t[k], p, child)...)
				continue
			}
			if additional != nil {
				errs = append(errs, unknownFields(doc, t[k], additional, child)...)
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
func collectProps(doc *openapi3.T, sc *openapi3.Schema, v map[string]any, seen map[*openapi3.Schema]bool) (map[string]*openapi3.SchemaRef, *openapi3.SchemaRef) {
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
		sub, add := collectProps(doc, part.Value, v, seen)
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
				if sub := doc.Components.Schemas[name]; sub != nil && sub.Value != nil {
					more, add := collectProps(doc, sub.Value, v, seen)
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
	if errs := unknownFields(s.Doc, v, ref, ""); len(errs) > 0 {
		return fmt.Errorf("%s: properties the official schema does not name:\n  %s", name, strings.Join(errs, "\n  "))
	}
	return nil
}
