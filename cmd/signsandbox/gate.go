package main

import (
	"net/http"
	"sync/atomic"
)

// gate answers for the sandbox while it starts: restoring a data directory
// can take a while, and meanwhile the server is alive (GET
// /_sandbox/health answers 200) but not ready (GET /_sandbox/ready and
// every other call answer 503), so that an orchestrator neither restarts
// it nor sends it traffic. Once open, it hands every request to the
// sandbox.
type gate struct {
	next atomic.Pointer[http.Handler]
}

// open starts passing requests to h.
func (g *gate) open(h http.Handler) { g.next.Store(&h) }

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := g.next.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/_sandbox/health":
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"status":"starting"}`))
	case "/_sandbox/ready":
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"status":"unavailable","reason":"restoring the data directory"}`))
	default:
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"error_msg":"The sandbox is starting (restoring its data directory); try again shortly.","error_name":"unavailable"}}`))
	}
}
