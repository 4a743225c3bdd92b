// Package edge guards the HTTP edge of a sandbox: what a request must look
// like before any handler sees it (a path, not a redirect target; headers of
// a bounded size). It never reads the wall clock, as nothing in the sandbox
// does.
package edge

import "net/http"

// Config is what Guard checks requests against.
type Config struct{}

// Guard wraps next with every check of the edge, cheapest first: the
// request target, the header size. A refused request never reaches next.
func Guard(next http.Handler, cfg Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := checkTarget(r); e != nil {
			writeError(w, e)
			return
		}
		if e := checkHeaderSize(r); e != nil {
			writeError(w, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}
