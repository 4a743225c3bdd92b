package edge_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// bigWorld is a sandbox whose state export is a few megabytes: a request
// sent with a 3 MB document.
func bigWorld(t *testing.T) *sandboxtest.Server {
	t.Helper()
	srv := newServer(t, sandbox.WithOfflineFiles())
	var body bytes.Buffer
	fmt.Fprintf(&body, "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nBig\r\n")
	fmt.Fprintf(&body, "--b\r\nContent-Disposition: form-data; name=\"test_mode\"\r\n\r\n1\r\n")
	fmt.Fprintf(&body, "--b\r\nContent-Disposition: form-data; name=\"signers[0][name]\"\r\n\r\nA\r\n")
	fmt.Fprintf(&body, "--b\r\nContent-Disposition: form-data; name=\"signers[0][email_address]\"\r\n\r\na@example.com\r\n")
	fmt.Fprintf(&body, "--b\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n")
	for body.Len() < 3<<20 {
		body.WriteString("All work and no play makes a big document. ")
	}
	body.WriteString("\r\n--b--\r\n")
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/v3/signature_request/send", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	r := srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%.300s", r.Body)
	return srv
}

// rawExchange sends one request over a fresh TCP connection, exactly as
// written, and reads everything the server sends until it closes the
// connection: the answer must come whole, never cut by a reset.
func rawExchange(t *testing.T, base, head string, body []byte) (status int, answer []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = conn.Write(append([]byte(head), body...))
	require.NoError(t, err)
	all, err := io.ReadAll(conn)
	require.NoError(t, err, "the connection was reset after %d bytes of the answer", len(all))
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(all)), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	answer, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	if cl := resp.Header.Get("Content-Length"); cl != "" {
		assert.Equal(t, cl, strconv.Itoa(len(answer)), "the whole answer")
	}
	return resp.StatusCode, answer
}

// A GET whose 100 KB body the operation does not read, on a connection
// the client asks to close, answered with megabytes: the client gets the
// whole answer (RFC 9112 section 9.6), not a reset caused by the unread
// bytes, whether the body came with a length or chunked, and whatever
// the answer.
func TestUnreadBodyOnAClosingConnectionDoesNotCutTheAnswer(t *testing.T) {
	srv := bigWorld(t)
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(srv.APIKey+":"))
	unread := bytes.Repeat([]byte("x"), 100<<10)
	host := strings.TrimPrefix(srv.URL, "http://")
	for round := 0; round < 3; round++ {
		head := "GET /_sandbox/state HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth +
			"\r\nContent-Type: application/octet-stream\r\nContent-Length: " + strconv.Itoa(len(unread)) + "\r\nConnection: close\r\n\r\n"
		status, answer := rawExchange(t, srv.URL, head, unread)
		require.Equal(t, http.StatusOK, status)
		require.Greater(t, len(answer), 3<<20)
		require.True(t, json.Valid(answer), "a whole JSON document")

		var chunked bytes.Buffer
		fmt.Fprintf(&chunked, "%x\r\n%s\r\n0\r\n\r\n", len(unread), unread)
		head = "GET /_sandbox/state HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth +
			"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
		status, answer = rawExchange(t, srv.URL, head, chunked.Bytes())
		require.Equal(t, http.StatusOK, status)
		require.True(t, json.Valid(answer), "a whole JSON document")

		// An error answered before the body is looked at (no credentials).
		head = "GET /v3/signature_request/list HTTP/1.1\r\nHost: " + host +
			"\r\nContent-Length: " + strconv.Itoa(len(unread)) + "\r\nConnection: close\r\n\r\n"
		status, _ = rawExchange(t, srv.URL, head, unread)
		require.Equal(t, http.StatusUnauthorized, status)
		// One the edge refuses before any handler (a foreign page).
		head = "POST /_sandbox/clock/advance HTTP/1.1\r\nHost: " + host + "\r\nOrigin: http://evil.example" +
			"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + strconv.Itoa(len(unread)) + "\r\nConnection: close\r\n\r\n"
		status, _ = rawExchange(t, srv.URL, head, unread)
		require.Equal(t, http.StatusForbidden, status)
	}
}
