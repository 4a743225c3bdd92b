package edge

import (
	"net/http"
	"slices"
	"strings"
)

// The sandbox's URL layout as the edge needs it (sandbox.ControlPrefix is
// the same prefix; TestEdgeKnowsTheControlPrefix holds them together).
const (
	controlPrefix = "/_sandbox"
	// pagePrefix holds the pages behind the URLs the sandbox hands out
	// (sign, file, claim, editor pages): their tokens are their credentials.
	pagePrefix = controlPrefix + "/w/"
	healthPath = controlPrefix + "/health"
	// readyPath is the readiness probe, read by routers and orchestrators.
	readyPath = controlPrefix + "/ready"
	// operationsPath is the route table, the same for every world.
	operationsPath = controlPrefix + "/operations"
)

// isControl reports whether a path is on the control plane (pages included).
func isControl(path string) bool {
	return path == controlPrefix || strings.HasPrefix(path, controlPrefix+"/")
}

// isHealth reports whether a request is the liveness or the readiness
// probe, which orchestrators and routers send with whatever Host they
// reach the container by (an IP address, a service name) and with no
// credentials (a probe cannot read a secret); they tell nothing but the
// version, the number of worlds and whether the server can serve them.
func isHealth(r *http.Request) bool { return r.URL.Path == healthPath || r.URL.Path == readyPath }

// isWorldFree reports whether a control call tells nothing about any
// world (the health probe, the route table), so that no token guards it.
func isWorldFree(r *http.Request) bool {
	return isHealth(r) || r.URL.Path == operationsPath
}

// adminCalls are the control calls of administration: creating a world,
// listing the worlds (with their keys), deleting one, replacing one's
// state; each path with its methods.
var adminCalls = map[string][]string{
	controlPrefix + "/worlds": {http.MethodPost, http.MethodGet},
	controlPrefix + "/world":  {http.MethodDelete},
	controlPrefix + "/state":  {http.MethodPut},
}

// isAdminCall reports whether a request is one of adminCalls.
func isAdminCall(r *http.Request) bool {
	return slices.Contains(adminCalls[r.URL.Path], r.Method)
}

// isSafeMethod reports whether a method only reads.
func isSafeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}
