package api

// The router's fast path in front of gorilla/mux: from each route's path
// template it knows which routes cannot match a path and asks mux only
// about the others, answering exactly as mux's Router.Match would.

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
)

// routeIndex is the router's fast path. gorilla/mux stays the router of
// record: its routes, in its order, decide every answer. But mux tries
// every route's regular expression in turn, and on the hot paths (a GET by
// id is route 131) that was a third of a call's CPU. The index knows, from
// each route's path template, which paths the route cannot match, and asks
// mux only about the routes that can: for a path it looks up the routes
// with as many segments and the same first two, skips those whose other
// literal segments differ, and runs mux's Route.Match on the rest in mux's
// order, then mux's own fallbacks (405, then 404).
//
// Skipping a route changes nothing because a route whose path template
// does not match leaves a RouteMatch as it found it: every route here has
// its path as its first matcher (NewRouter registers them with Handle),
// and mux stops at the first matcher that fails. A method mismatch, which
// mux remembers across routes, is only recorded after the path matched.
// Routes the index cannot read (custom variable patterns, which may span
// segments; routes it did not see registered) are tried for every path.
// The router has no middleware and no subrouters, so Router.Match adds
// nothing else. TestRouteIndexAnswersAsMux holds the two together for
// every registered route and many near misses.
type routeIndex struct {
	router *mux.Router
	routes []indexedRoute
	// buckets holds, by segment count and first two segments, the
	// positions in routes of the routes that may match such a path (the
	// loose ones included, in order).
	buckets map[bucketKey][]int
	// loose are the routes tried for a path without a bucket.
	loose []int
}

// indexedRoute is one top-level route of the router and what its template
// says about the paths it can match.
type indexedRoute struct {
	route *mux.Route
	// loose routes are tried for every path.
	loose bool
	// static routes match only the path equal to template.
	static   bool
	template string
	// literals are the segments after the first two that must equal the
	// path's (templated routes).
	literals []literalSegment
	key      bucketKey
}

// literalSegment is a segment of a template without a variable.
type literalSegment struct {
	index int // 0 is the segment after the leading "/"
	text  string
}

// bucketKey is what the index groups paths by: the number of "/" in the
// path and its first two segments.
type bucketKey struct {
	slashes       int
	first, second string
}

// newRouteIndex indexes the routes of r; templates maps the routes
// NewRouter registered (path first) to their path templates.
func newRouteIndex(r *mux.Router, templates map[*mux.Route]string) *routeIndex {
	x := &routeIndex{router: r, buckets: map[bucketKey][]int{}}
	_ = r.Walk(func(rt *mux.Route, _ *mux.Router, ancestors []*mux.Route) error {
		if len(ancestors) == 0 {
			tpl, ok := templates[rt]
			x.routes = append(x.routes, readTemplate(rt, tpl, ok))
		}
		return nil
	})
	for i, ir := range x.routes {
		if ir.loose {
			x.loose = append(x.loose, i)
			continue
		}
		if _, ok := x.buckets[ir.key]; !ok {
			x.buckets[ir.key] = nil
		}
	}
	// Each bucket lists its own routes and the loose ones, in mux's order.
	for key := range x.buckets {
		var list []int
		for i, ir := range x.routes {
			if ir.loose || ir.key == key {
				list = append(list, i)
			}
		}
		x.buckets[key] = list
	}
	return x
}

// readTemplate reads what a route's path template tells of the paths it
// matches; a template it cannot read makes the route loose.
func readTemplate(rt *mux.Route, tpl string, known bool) indexedRoute {
	ir := indexedRoute{route: rt, template: tpl, loose: true}
	if !known || !strings.HasPrefix(tpl, "/") {
		return ir
	}
	if got, err := rt.GetPathTemplate(); err != nil || got != tpl {
		return ir
	}
	segs := strings.Split(tpl[1:], "/")
	for _, seg := range segs {
		// A variable with its own pattern ({id:.*}) may match "/" or
		// nothing; an unbalanced brace is no template mux accepted.
		open, close := strings.Count(seg, "{"), strings.Count(seg, "}")
		if open != close || strings.Contains(seg, ":") {
			return ir
		}
	}
	ir.key = bucketKey{slashes: len(segs), first: segs[0]}
	if len(segs) > 1 {
		ir.key.second = segs[1]
	}
	if strings.Contains(ir.key.first, "{") || strings.Contains(ir.key.second, "{") {
		return ir
	}
	ir.loose = false
	ir.static = !strings.Contains(tpl, "{")
	for i := 2; i < len(segs); i++ {
		if !strings.Contains(segs[i], "{") {
			ir.literals = append(ir.literals, literalSegment{index: i, text: segs[i]})
		}
	}
	return ir
}

// pathKey is the bucket of a request path; ok is false for a path that
// does not start with "/" (no indexed route matches it).
func pathKey(path string) (key bucketKey, ok bool) {
	if !strings.HasPrefix(path, "/") {
		return key, false
	}
	key.slashes = strings.Count(path, "/")
	rest := path[1:]
	key.first, rest, _ = strings.Cut(rest, "/")
	key.second, _, _ = strings.Cut(rest, "/")
	return key, true
}

// admits reports whether the route may match path, a path of its bucket.
func (ir *indexedRoute) admits(path string) bool {
	switch {
	case ir.loose:
		return true
	case ir.static:
		return path == ir.template
	}
	if len(ir.literals) == 0 {
		return true
	}
	// Walk the segments after the first two once, comparing the literal
	// ones.
	rest := path[1:]
	_, rest, _ = strings.Cut(rest, "/")
	_, rest, _ = strings.Cut(rest, "/")
	next := 0
	for i := 2; next < len(ir.literals); i++ {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		if ir.literals[next].index == i {
			if seg != ir.literals[next].text {
				return false
			}
			next++
		}
	}
	return true
}

// Match returns what mux's Router.Match would.
func (x *routeIndex) Match(req *http.Request, match *mux.RouteMatch) bool {
	path := req.URL.Path
	candidates := x.loose
	if key, ok := pathKey(path); ok {
		if list, found := x.buckets[key]; found {
			candidates = list
		}
	}
	for _, i := range candidates {
		ir := &x.routes[i]
		if ir.admits(path) && ir.route.Match(req, match) {
			return true
		}
	}
	// mux's fallbacks, as Router.Match ends.
	if match.MatchErr == mux.ErrMethodMismatch {
		if x.router.MethodNotAllowedHandler != nil {
			match.Handler = x.router.MethodNotAllowedHandler
			return true
		}
		return false
	}
	if x.router.NotFoundHandler != nil {
		match.Handler = x.router.NotFoundHandler
		match.MatchErr = mux.ErrNotFound
		return true
	}
	match.MatchErr = mux.ErrNotFound
	return false
}

// ServeHTTP serves a request with the handler Match found. The path
// variables reach the handler as mux.Vars reads them (mux.SetURLVars is
// the one public way to put them there); the matched route itself is not
// put in the request's context, as nothing reads mux.CurrentRoute. What
// Match does not settle is left to mux.
func (x *routeIndex) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var match mux.RouteMatch
	if !x.Match(req, &match) || match.Handler == nil {
		x.router.ServeHTTP(w, req)
		return
	}
	if len(match.Vars) > 0 {
		req = mux.SetURLVars(req, match.Vars)
	}
	match.Handler.ServeHTTP(w, req)
}
