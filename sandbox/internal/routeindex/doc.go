// Package routeindex is the fast path in front of gorilla/mux: it knows,
// from each route's path template, which routes cannot match a path and
// asks mux only about the others, so that a call does not pay for trying
// every route's regular expression in turn. It answers exactly as mux's
// Router.Match would (the facade's TestRouteIndexAnswersAsMux holds the
// two together) and depends on nothing of the request pipeline.
package routeindex
