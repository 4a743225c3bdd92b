package edge

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// envelope is the body of an error in the official shape.
func envelope(e *apierr.Error) []byte {
	b, _ := json.Marshal(e.Body())
	return b
}

// writeError answers e in the official envelope. The connection is kept:
// every refusal of the guard comes after the whole header was read.
func writeError(w http.ResponseWriter, e *apierr.Error) {
	body := envelope(e)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.Status())
	_, _ = w.Write(body)
}
