package sandbox

// Operation describes one operation of the route table.
type Operation struct {
	ID     string `json:"operation_id"`
	Method string `json:"method"`
	// Path is the official path relative to the /v3 base.
	Path string `json:"path"`
	// Implemented is false for operations that answer "not implemented".
	Implemented bool `json:"implemented"`
}

// Operations lists the route table in its order: every operation of the
// official description and whether the sandbox implements it.
func Operations() []Operation {
	out := make([]Operation, 0, len(apiRoutes))
	for _, rt := range apiRoutes {
		_, ok := handlers[rt.operationID]
		out = append(out, Operation{ID: rt.operationID, Method: rt.method, Path: rt.path, Implemented: ok})
	}
	return out
}
