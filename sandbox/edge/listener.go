package edge

// The binary's listener. It caps the connections open at once, so that
// one client cannot take every file descriptor and goroutine of the
// process (Accept waits for a connection to close; the kernel queues the
// new ones meanwhile), and it rewrites the few answers net/http writes on
// its own, before any handler runs (a head over the server's
// MaxHeaderBytes, a malformed request line or header, an unsupported
// transfer coding or protocol version), from plain text into the official
// error envelope. Those answers are written to the connection in one
// piece, in a fixed shape that no handler's answer has (net/http sorts a
// handler's headers and adds Date); TestListenerEnvelopesNetHTTPErrors
// pins that shape, so a Go release that changed it would fail the tests
// instead of silently answering plain text again.

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// Listener wraps ln: at most maxConns connections are open at once (0
// means no cap), and net/http's own error answers come in the official
// envelope.
func Listener(ln net.Listener, maxConns int) net.Listener {
	l := &listener{Listener: ln, done: make(chan struct{})}
	if maxConns > 0 {
		l.slots = make(chan struct{}, maxConns)
	}
	return l
}

type listener struct {
	net.Listener
	slots     chan struct{} // one element per open connection; nil: no cap
	done      chan struct{}
	closeOnce sync.Once
}

func (l *listener) Accept() (net.Conn, error) {
	if l.slots != nil {
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		l.release()
		return nil, err
	}
	return &conn{Conn: c, release: l.release}, nil
}

func (l *listener) release() {
	if l.slots != nil {
		<-l.slots
	}
}

func (l *listener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// conn frees its slot once when closed and rewrites net/http's own error
// answers. It keeps CloseWrite, which net/http uses to let a client read a
// 431 before the connection goes.
type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Write(p []byte) (int, error) {
	if b, ok := rewriteCanned(p); ok {
		if _, err := c.Conn.Write(b); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// cannedHeaders are the headers of every answer net/http writes itself.
const cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// maxCanned bounds the size of such an answer.
const maxCanned = 512

// rewriteCanned turns one of net/http's own plain-text answers into the
// envelope; ok is false for anything else.
func rewriteCanned(p []byte) (out []byte, ok bool) {
	const proto = "HTTP/1.1 "
	if len(p) > maxCanned || !bytes.HasPrefix(p, []byte(proto)) {
		return nil, false
	}
	status, body, found := bytes.Cut(p[len(proto):], []byte(cannedHeaders))
	if !found || bytes.ContainsAny(status, "\r\n") || bytes.ContainsAny(body, "\r\n") || len(status) < 4 || status[3] != ' ' {
		return nil, false
	}
	code, err := strconv.Atoi(string(status[:3]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	e := cannedError(code, string(body))
	env := envelope(e)
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		e.Status(), http.StatusText(e.Status()), len(env), env), true
}

// cannedError is the envelope error for net/http's answer of code with
// the given text. Its 5xx answers (an unsupported transfer coding or
// protocol version) are about the client's request, so they become 400s:
// no input makes the sandbox answer a 5xx.
func cannedError(code int, text string) *apierr.Error {
	// text is "400 Bad Request: detail", "431 Request Header Fields Too
	// Large" or a bare detail ("Unsupported transfer encoding").
	detail := text
	if _, after, found := strings.Cut(text, ": "); found && strings.HasPrefix(text, strconv.Itoa(code)+" ") {
		detail = after
	} else if strings.HasPrefix(text, strconv.Itoa(code)+" ") {
		detail = ""
	}
	switch {
	case code == http.StatusRequestHeaderFieldsTooLarge:
		return headerTooLarge()
	case code >= 500:
		return apierr.Badf("", "The request cannot be read: %s.", strings.ToLower(detail))
	case detail == "":
		e := apierr.Badf("", "The request is malformed: it is not a valid HTTP/1.1 request.")
		e.StatusOverride = code
		return e
	default:
		e := apierr.Badf("", "The request is malformed: %s.", detail)
		e.StatusOverride = code
		return e
	}
}
