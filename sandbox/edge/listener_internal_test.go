package edge

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Only net/http's own plain-text answers are rewritten: not a handler's
// answer, not a body that happens to look like one.
func TestRewriteCannedOnlyNetHTTPAnswers(t *testing.T) {
	canned := "HTTP/1.1 400 Bad Request: missing required Host header" + cannedHeaders + "400 Bad Request: missing required Host header"
	out, ok := rewriteCanned([]byte(canned))
	assert.True(t, ok)
	assert.Contains(t, string(out), "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n")
	assert.Contains(t, string(out), `"error_name":"bad_request"`)

	for _, p := range []string{
		"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nDate: x\r\n\r\nfoo",
		"HTTP/1.1 200 OK" + cannedHeaders + "ok",
		"HTTP/1.1 400 Bad Request" + cannedHeaders + "two\r\nlines",
		"hello",
		"HTTP/1.1 400 Bad Request" + cannedHeaders + string(make([]byte, 600)),
	} {
		_, ok := rewriteCanned([]byte(p))
		assert.False(t, ok, "%q", p)
	}
}

// A closed listener stops waiting for a free slot.
func TestListenerCloseWhileFull(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Listener(ln, 1)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	held, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	done := make(chan error, 1)
	go func() { _, err := l.Accept(); done <- err }()
	l.Close()
	assert.ErrorIs(t, <-done, net.ErrClosed)
}
