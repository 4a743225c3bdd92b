package edge

// Header size. net/http reads at most the server's MaxHeaderBytes of a
// request head and answers more with a plain-text 431 of its own; the
// binary sets that limit to ServerMaxHeaderBytes, above MaxHeaderBytes, so
// that heads between the two reach this check and get the official
// envelope (and Listener rewrites net/http's own answer for larger ones).
// In-process servers (httptest, a program's own http.Server) get the
// envelope up to their own server's limit.

import (
	"fmt"
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// MaxHeaderBytes is the documented limit of a request's head: the request
// line and every header field, counted as sent (name, ": ", value, CRLF).
const MaxHeaderBytes = 64 << 10

// ServerMaxHeaderBytes is what the binary's http.Server reads of a head
// before net/http gives up on it: twice MaxHeaderBytes, so that one
// request's head costs a bounded amount of memory.
const ServerMaxHeaderBytes = 2 * MaxHeaderBytes

// headerTooLarge is the 431 answer in the official envelope.
func headerTooLarge() *apierr.Error {
	return &apierr.Error{
		Name:           apierr.BadRequest,
		Msg:            fmt.Sprintf("Request header fields too large: the request line and headers may hold at most %d bytes.", MaxHeaderBytes),
		StatusOverride: http.StatusRequestHeaderFieldsTooLarge,
	}
}

// checkHeaderSize refuses a head larger than MaxHeaderBytes.
func checkHeaderSize(r *http.Request) *apierr.Error {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + 2
	n += len("Host: ") + len(r.Host) + 2
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
		if n > MaxHeaderBytes {
			return headerTooLarge()
		}
	}
	return nil
}
