package api

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
)

// APIPrefix is the path of the API's base address (https://api.hellosign.com/v3).
const APIPrefix = "/v3"

// ControlPrefix is the path under which the control plane lives.
const ControlPrefix = "/_sandbox"

// NewRouter builds the one router (then Router returns it): every official operation under /v3 (the
// OAuth token endpoints also at /oauth/token, where the official SDK's OAuth
// class sends them), and the control plane under /_sandbox.
func (s *Host) NewRouter() *mux.Router {
	// Paths are matched as given: cleaning "/a/../b" into "/b" (with a
	// 301) would let an id select another resource; package edge answers
	// such paths 404 before they get here.
	r := mux.NewRouter().SkipClean(true)
	s.routeOps = map[*mux.Route]string{}
	templates := map[*mux.Route]string{}
	handle := func(path string, h http.Handler) *mux.Route {
		m := r.Handle(path, h)
		templates[m] = path
		return m
	}
	notFound := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeAPIError(w, apierr.NotFoundf("No route for %s %s. See the operations of the official API description under %s/.", req.Method, req.URL.Path, APIPrefix))
	})
	notAllowed := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeAPIError(w, &apierr.Error{Name: apierr.MethodNotSupported, Msg: fmt.Sprintf("The HTTP method %s is not supported for %s.", req.Method, req.URL.Path)})
	})
	r.NotFoundHandler, r.MethodNotAllowedHandler = notFound, notAllowed

	// Control routes are registered on the main router with their full path:
	// in a gorilla/mux subrouter every route inherits the prefix matcher,
	// whose success clears a method mismatch, so a wrong method under
	// /_sandbox would answer 404 instead of 405.
	for _, cr := range s.reg.ControlRoutes {
		handle(ControlPrefix+cr.Path, s.controlHandler(cr)).Methods(cr.Method)
	}

	// Literal paths must be tried before parametrized ones (/fax/list before
	// /fax/{fax_id}), so routes are registered with fewer parameters first;
	// a route with a query marker (/oauth/token?refresh) goes before the same
	// path without one, which would otherwise match it too.
	routes := make([]*Route, len(OperationTable))
	for i := range OperationTable {
		routes[i] = &OperationTable[i]
	}
	sort.SliceStable(routes, func(i, j int) bool {
		pi, pj := strings.Count(routes[i].Path, "{"), strings.Count(routes[j].Path, "{")
		if pi != pj {
			return pi < pj
		}
		return strings.Contains(routes[i].Path, "?") && !strings.Contains(routes[j].Path, "?")
	})
	for _, rt := range routes {
		h := s.reg.Handlers[rt.OperationID]
		if h == nil {
			h = errNotImplemented
		}
		path, query, _ := strings.Cut(rt.Path, "?")
		for _, prefix := range routePrefixes(path) {
			m := handle(prefix+path, s.apiHandler(rt, h)).Methods(rt.Method)
			s.routeOps[m] = rt.OperationID
			if query != "" {
				key := query
				m.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool { return req.URL.Query().Has(key) })
			}
		}
	}
	// Older clients' methods and paths for the same operations, registered
	// after every official route so that none of them shadows one.
	for _, a := range legacy.Aliases {
		rt := &OperationTable[slices.IndexFunc(OperationTable, func(x Route) bool { return x.OperationID == a.OperationID })]
		m := handle(APIPrefix+a.Path, a.Handler(rt.Method, s.apiHandler(rt, s.reg.Handlers[rt.OperationID]))).Methods(a.Method)
		s.routeOps[m] = rt.OperationID
	}
	s.routes = newRouteIndex(r, templates)
	s.router = r
	return r
}

// Routes is the handler that serves what the router routes, through its
// index (routeIndex): the same answers as the router, for less work.
func (s *Host) Routes() http.Handler { return s.routes }

// MatchRoute returns what s.Router().Match would, found through the router's index.
func (s *Host) MatchRoute(r *http.Request, m *mux.RouteMatch) bool { return s.routes.Match(r, m) }

// routePrefixes: the OAuth endpoints live on app.hellosign.com without /v3;
// an SDK whose base path was set once to the sandbox's /v3 sends them there
// too, so both are served.
func routePrefixes(path string) []string {
	if strings.HasPrefix(path, "/oauth/") {
		return []string{"", APIPrefix}
	}
	return []string{APIPrefix}
}

// OperationID is the official operationId a request is routed to, or "".
func (s *Host) OperationID(r *http.Request) string {
	var m mux.RouteMatch
	if !s.routes.Match(r, &m) || m.Route == nil {
		return ""
	}
	return s.routeOps[m.Route]
}

// RouteOperation is the operationId of an API route of the router ("" for
// a control route or page).
func (s *Host) RouteOperation(rt *mux.Route) string { return s.routeOps[rt] }

// Recoverer turns a panic into a logged 400 in the official error shape. A
// panic is a bug; the client still gets a well-formed answer and the world's
// state is unaffected because the failed transaction never committed.
func (s *Host) Recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeAPIError(w, apierr.New(apierr.BadRequest, "The request could not be processed."))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
