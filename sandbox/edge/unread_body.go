package edge

// Request bodies a handler leaves unread. Before it writes an answer,
// net/http discards up to 256 KiB of what a handler left unread of the
// request body, so that a client that sends its whole request before it
// reads the answer does not block, and the connection can serve the next
// request. It skips that when the client asked to close the connection
// (Connection: close), and then closes with the unread bytes still in the
// kernel's receive buffer: a TCP stack answers that with a reset, which
// can destroy the end of the answer before the client has read it (RFC
// 9112 section 9.6). So the edge discards what is left of a request body
// itself, before the first byte of the answer, up to MaxDrainBytes: a
// request whose body the sandbox does not read (a GET with a body, a call
// refused before its body is looked at) gets its whole answer. A body
// declared larger than that is left alone: the server's connection
// closes it (the binary's closes in stages).

import (
	"io"
	"net/http"
	"strings"
)

// MaxDrainBytes bounds what the edge reads of a body a handler left
// unread.
const MaxDrainBytes = 4 << 20

// drainUnread wraps a request with a body so that its unread rest is
// discarded before the answer starts (see above); it answers the writer
// and request to serve, and a function to call when the handler returned.
func drainUnread(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return w, r, func() {}
	}
	body := &trackedBody{ReadCloser: r.Body}
	r.Body = body
	dw := &drainingWriter{ResponseWriter: w, body: body, declared: r.ContentLength,
		expects: strings.EqualFold(r.Header.Get("Expect"), "100-continue")}
	return dw, r, dw.drain
}

// trackedBody notes how much of a body was read and whether it ended.
type trackedBody struct {
	io.ReadCloser
	read  int64
	ended bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err != nil {
		b.ended = true
	}
	return n, err
}

// drainingWriter discards the unread body once, before the answer's first
// byte.
type drainingWriter struct {
	http.ResponseWriter
	body     *trackedBody
	declared int64 // the body's Content-Length, -1 when chunked
	expects  bool  // the client waits for 100 Continue before it sends
	drained  bool
}

func (w *drainingWriter) drain() {
	if w.drained {
		return
	}
	w.drained = true
	b := w.body
	switch {
	case b.ended:
	case w.expects && b.read == 0:
		// The client sends the body only once asked to (reading it would
		// ask): answered first, it need not send it at all.
	case w.declared > 0 && w.declared-b.read > MaxDrainBytes:
	default:
		_, _ = io.CopyN(io.Discard, b, MaxDrainBytes)
	}
}

func (w *drainingWriter) WriteHeader(code int) {
	w.drain()
	w.ResponseWriter.WriteHeader(code)
}

func (w *drainingWriter) Write(p []byte) (int, error) {
	w.drain()
	return w.ResponseWriter.Write(p)
}

// Flush flushes the answer written so far, after the drain.
func (w *drainingWriter) Flush() {
	w.drain()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *drainingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
