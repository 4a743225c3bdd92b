package edge

// Header size. net/http reads at most the server's MaxHeaderBytes (plus
// a 4 KiB margin) of a request head and answers more with a plain-text 431
// of its own. The binary's server reads ServerMaxHeaderBytes: heads within
// the margin reach this check, larger ones get net/http's 431, which
// Listener rewrites into the same envelope. In-process servers (httptest,
// a program's own http.Server) get this check up to their own server's
// limit (net/http's default is 1 MiB).

import (
	"fmt"
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// MaxHeaderBytes is the documented limit of a request's head: the request
// line and every header field, counted as sent (name, ": ", value, CRLF).
const MaxHeaderBytes = 64 << 10

// ServerMaxHeaderBytes is the MaxHeaderBytes of the binary's http.Server:
// the documented limit itself, because every byte net/http may read of a
// head is memory a connection holds (a head that stalls half-way holds it
// until the read-header timeout), and the connection cap multiplies it.
const ServerMaxHeaderBytes = MaxHeaderBytes

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
