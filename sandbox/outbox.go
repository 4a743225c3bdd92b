package sandbox

import (
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerOutbox(r *registry) {
	r.control(http.MethodGet, "/emails", controlListEmails)
}

// controlListEmails lists the outbox in order; filters: to, kind,
// signature_request_id.
func controlListEmails(c *call) (any, error) {
	q := c.r.URL.Query()
	to, kind, requestID := q.Get("to"), q.Get("kind"), q.Get("signature_request_id")
	rows, err := state.All[state.Email](c.read(), state.TableEmails, state.IndexSeq)
	if err != nil {
		return nil, err
	}
	out := []*state.Email{}
	for _, e := range rows {
		if (to == "" || strings.EqualFold(to, e.To)) && (kind == "" || kind == e.Kind) &&
			(requestID == "" || requestID == e.SignatureRequestID) {
			out = append(out, e)
		}
	}
	return map[string]any{"emails": out}, nil
}
