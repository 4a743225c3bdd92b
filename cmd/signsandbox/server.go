package main

// The binary's HTTP server: the limits against slow and odd clients, and
// the listener that caps connections and answers net/http's own errors in
// the official envelope. Tests serve through the same functions, so that
// what they check is what the binary runs. It lives here, not in the
// sandbox package, because deadlines need the wall clock.

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/edge"
)

// newHTTPServer is the http.Server the binary serves h with. Heads are
// read up to edge.ServerMaxHeaderBytes; larger ones are answered 431 in the
// envelope (by the sandbox, or by net/http through serverListener).
// There is no write timeout: a control call may wait for callbacks for
// minutes, by design.
func newHTTPServer(h http.Handler, lim serverLimits, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           bodyDeadline(lim.ReadTimeout, h),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    edge.ServerMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// serverListener wraps the binary's listener (see edge.Listener).
func serverListener(ln net.Listener, lim serverLimits) net.Listener {
	return edge.Listener(ln, lim.MaxConns)
}

// bodyDeadline cuts off a request body that trickles in: a request with a
// body must deliver it within timeout of its handler starting. The
// connection's read deadline is lifted once the body has been read to its
// end, so that a handler that then works or waits for long (a callback
// wait) is not cut off, as http.Server's ReadTimeout would do (its expiry
// cancels the request's context). A body its handler leaves unread keeps
// the deadline, which bounds net/http's draining of it.
func bodyDeadline(timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if timeout <= 0 || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(timeout)); err != nil {
			next.ServeHTTP(w, r)
			return
		}
		r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline when its body ends.
type deadlineBody struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	return n, err
}
