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

// serverListener wraps the binary's listener (see edge.Listener); its
// connections close in stages (lingerListener).
func serverListener(ln net.Listener, lim serverLimits) net.Listener {
	return lingerListener{edge.Listener(ln, lim.MaxConns)}
}

// Bounds of a connection's staged close.
const (
	// lingerTime is how long a closing connection waits for the client's
	// side to close.
	lingerTime = 2 * time.Second
	// lingerBytes is the most it reads (and discards) meanwhile.
	lingerBytes = 64 << 20
)

// lingerListener's connections close in stages (RFC 9112 section 9.6):
// the server's side first, so that the client reads the answer to its end;
// then what the client still sends (the rest of a body nobody read) is
// read and discarded, until the client closes its side, lingerBytes were
// read or lingerTime passed; only then the connection closes. A close with
// unread bytes in the receive buffer makes the TCP stack answer with a
// reset, which can destroy the end of the answer before the client has
// read it; net/http closes in stages only after a body over a limit. The
// last stage runs in the background, and the connection's slot of the cap
// (edge.Listener) is freed when it ends.
type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lingerConn{Conn: c}, nil
}

type lingerConn struct {
	net.Conn
	once sync.Once
}

type closeWriter interface{ CloseWrite() error }

func (c *lingerConn) Close() error {
	cw, ok := c.Conn.(closeWriter)
	if !ok {
		return c.Conn.Close()
	}
	c.once.Do(func() {
		if cw.CloseWrite() != nil || c.Conn.SetReadDeadline(time.Now().Add(lingerTime)) != nil {
			_ = c.Conn.Close()
			return
		}
		go func() {
			_, _ = io.Copy(io.Discard, io.LimitReader(c.Conn, lingerBytes))
			_ = c.Conn.Close()
		}()
	})
	return nil
}

// CloseWrite keeps the connection's own (net/http uses it to let a client
// read a 431 before the connection goes).
func (c *lingerConn) CloseWrite() error {
	if cw, ok := c.Conn.(closeWriter); ok {
		return cw.CloseWrite()
	}
	return nil
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
