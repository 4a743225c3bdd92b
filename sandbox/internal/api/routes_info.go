package api

import (
	"net/http"
)

// Operation describes one operation of the route table.
type Operation struct {
	ID string `json:"operation_id"`
	// Tag is the operation's first tag in the official description.
	Tag    string `json:"tag"`
	Method string `json:"method"`
	// Path is the official path relative to the /v3 base.
	Path string `json:"path"`
	// Implemented is false for operations that answer "not implemented".
	Implemented bool `json:"implemented"`
	// SDKOnly: only openapi-sdk.yaml describes it (Route).
	SDKOnly bool `json:"sdk_only"`
}

// Operations lists the route table and which operations r implements.
func (r *Registry) Operations() []Operation {
	out := make([]Operation, 0, len(OperationTable))
	for _, rt := range OperationTable {
		_, ok := r.Handlers[rt.OperationID]
		out = append(out, Operation{ID: rt.OperationID, Tag: rt.Tag, Method: rt.Method, Path: rt.Path, Implemented: ok, SDKOnly: rt.SDKOnly})
	}
	return out
}

func RegisterRoutesInfo(r *Registry) {
	r.ControlPublic(http.MethodGet, "/operations", controlOperations)
}

// operationsResponse is the answer of GET /_sandbox/operations.
type operationsResponse struct {
	Operations []Operation `json:"operations"`
}

// controlOperations lists the route table, for tools that need the official
// operations without the official description at hand (the e2e coverage
// report in a checkout without the reference files).
func controlOperations(c *Call) (any, error) {
	return operationsResponse{Operations: c.Host.reg.Operations()}, nil
}
