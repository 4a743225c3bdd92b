package edge_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// serveListener serves a sandbox as the binary does (edge.Listener, heads
// read up to edge.ServerMaxHeaderBytes) on a loopback port.
func serveListener(t *testing.T, maxConns int) (addr, key string) {
	t.Helper()
	sb, err := sandbox.New()
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: sb, MaxHeaderBytes: edge.ServerMaxHeaderBytes}
	go func() { _ = srv.Serve(edge.Listener(ln, maxConns)) }()
	t.Cleanup(func() { srv.Close(); sb.Close() })
	return ln.Addr().String(), sb.DefaultAPIKey()
}

// rawWhileWriting sends head on a new connection from another goroutine
// (a server may answer before it has read everything) and reads one answer.
func rawWhileWriting(t *testing.T, addr, head string) rawResponse {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	go func() { _, _ = io.WriteString(c, head) }()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return rawResponse{resp.StatusCode, resp.Header, body}
}

// Every answer net/http writes itself comes in the official envelope
// through edge.Listener: heads too large for the server (a 2 MB
// Authorization header), heads between the documented limit and the
// server's (answered by the guard), malformed heads, unsupported transfer
// codings and protocol versions (400s, not 5xx).
func TestListenerEnvelopesNetHTTPErrors(t *testing.T) {
	addr, key := serveListener(t, 0)
	get := "GET /v3/account HTTP/1.1\r\nHost: " + addr + "\r\n"
	for _, tc := range []struct {
		name   string
		head   string
		status int
		msg    string
	}{
		{"2 MB Authorization", get + "Authorization: Basic " + strings.Repeat("A", 2<<20) + "\r\n\r\n", 431, "too large"},
		{"66 KB header (the guard)", get + "X-Pad: " + strings.Repeat("a", 66<<10) + "\r\nConnection: close\r\n\r\n", 431, "too large"},
		{"100 KB header (net/http)", get + "X-Pad: " + strings.Repeat("a", 100<<10) + "\r\nConnection: close\r\n\r\n", 431, "too large"},
		{"no Host", "GET /v3/account HTTP/1.1\r\n\r\n", 400, "missing required Host header"},
		{"bad header name", get + "Bad Name: x\r\n\r\n", 400, "malformed"},
		{"bad header value", get + "X-A: a\x01b\r\n\r\n", 400, "malformed"},
		{"garbage", "HELLO\r\n\r\n", 400, "malformed"},
		{"bad escape", "GET /v3/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformed"},
		{"unsupported transfer coding", "POST /v3/account HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "transfer encoding"},
		{"unsupported version", "GET /v3/account HTTP/3.0\r\nHost: x\r\n\r\n", 400, "protocol version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rawWhileWriting(t, addr, tc.head)
			assert.Equal(t, tc.status, r.status, "%s", r.body)
			requireEnvelope(t, r, apierr.BadRequest, "accountGet", "/v3/account")
			assert.Contains(t, strings.ToLower(string(r.body)), strings.ToLower(tc.msg))
		})
	}
	// Ordinary answers pass unchanged.
	r := raw(t, addr, get+"Authorization: Basic "+basic(key)+"\r\nConnection: close\r\n\r\n")
	assert.Equal(t, http.StatusOK, r.status)
}

// At most maxConns connections are served at once: the next waits until
// one closes.
func TestListenerCapsConnections(t *testing.T) {
	addr, key := serveListener(t, 1)
	req := "GET /v3/account HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Basic " + basic(key) + "\r\n\r\n"

	first, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	_, err = io.WriteString(first, req)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(first), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	// first is now an idle keep-alive connection holding the only slot.

	second, err := net.Dial("tcp", addr)
	require.NoError(t, err, "the kernel queues the connection")
	defer second.Close()
	_, err = io.WriteString(second, req)
	require.NoError(t, err)
	br := bufio.NewReader(second)
	require.NoError(t, second.SetReadDeadline(time.Now().Add(300*time.Millisecond)))
	_, err = br.Peek(1)
	var ne net.Error
	require.ErrorAs(t, err, &ne, "no answer while the slot is taken")
	assert.True(t, ne.Timeout())

	first.Close()
	require.NoError(t, second.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err = http.ReadResponse(br, nil)
	require.NoError(t, err, "answered once the first connection closed")
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
