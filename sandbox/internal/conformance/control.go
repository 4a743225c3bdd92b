package conformance

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// ControlSpec is the sandbox's own description of its /_sandbox/ calls (the
// document served at /_sandbox/openapi.yaml). Test servers pass control
// answers to Validate so that the description stays true to every answer
// the test suite sees, not only to the calls one test makes.
type ControlSpec struct {
	Doc *openapi3.T
	ops []controlOp
}

// controlOp is one described operation with a matcher for its path.
type controlOp struct {
	id     string
	method string
	path   string
	re     *regexp.Regexp
	item   *openapi3.PathItem
	op     *openapi3.Operation
}

// pathParam finds a path template's parameters once QuoteMeta escaped
// their braces.
var pathParam = regexp.MustCompile(`\\\{[^}]+\\\}`)

// LoadControl parses the control plane description and checks that it is a
// valid OpenAPI 3 document.
func LoadControl(data []byte) (*ControlSpec, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("control plane description: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("control plane description is not valid OpenAPI 3: %w", err)
	}
	s := &ControlSpec{Doc: doc}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			re := regexp.MustCompile("^" + pathParam.ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`) + "$")
			s.ops = append(s.ops, controlOp{id: op.OperationID, method: method, path: path, re: re, item: item, op: op})
		}
	}
	// Literal paths win over templated ones, as the router decides; ties
	// are ordered by path so that matching never depends on map order.
	sort.Slice(s.ops, func(i, j int) bool {
		ci, cj := strings.Count(s.ops[i].path, "{"), strings.Count(s.ops[j].path, "{")
		if ci != cj {
			return ci < cj
		}
		if s.ops[i].path != s.ops[j].path {
			return s.ops[i].path < s.ops[j].path
		}
		return s.ops[i].method < s.ops[j].method
	})
	return s, nil
}

// OperationIDs lists every described operation, sorted.
func (s *ControlSpec) OperationIDs() []string {
	ids := make([]string, 0, len(s.ops))
	for _, op := range s.ops {
		ids = append(ids, op.id)
	}
	sort.Strings(ids)
	return ids
}

func (s *ControlSpec) find(method, path string) *controlOp {
	for i := range s.ops {
		if s.ops[i].method == method && s.ops[i].re.MatchString(path) {
			return &s.ops[i]
		}
	}
	return nil
}

// Validate checks a control answer against the description. It returns the
// operationId the call matched, or "" for a call the description does not
// cover (pages, assets, the description itself), which is not checked.
func (s *ControlSpec) Validate(req *http.Request, status int, header http.Header, body []byte) (string, error) {
	if !strings.HasPrefix(req.URL.Path, "/_sandbox/") {
		return "", nil
	}
	op := s.find(req.Method, req.URL.Path)
	if op == nil {
		return "", nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req,
			Route: &routers.Route{Spec: s.Doc, Path: op.path, PathItem: op.item, Method: op.method, Operation: op.op}},
		Status:  status,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return op.id, fmt.Errorf("%s %s (%s) %d does not match /_sandbox/openapi.yaml: %w", req.Method, req.URL.Path, op.id, status, err)
	}
	return op.id, nil
}
