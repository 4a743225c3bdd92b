package sandboxtest

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/signsandbox/signsandbox/sandbox"
)

// ClaimDraft claims and sends an unclaimed draft in one step, as its user
// would in the editor (POST /_sandbox/unclaimed_drafts/{id}/claim with the
// server's key, whose account claims a non-embedded draft). body gives what
// the user fills in: {"signers": [...], "ccs": [...], "cc_email_addresses":
// [...]}, or nil for nothing. It fails the test unless the draft is sent,
// and returns the new signature request (whose id is signatureRequestID) as
// GET /signature_request shows it to its requester. Use Do on the same path
// for claims that are expected to fail.
func (s *Server) ClaimDraft(signatureRequestID string, body any) map[string]any {
	s.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	path := sandbox.ControlPrefix + "/unclaimed_drafts/" + url.PathEscape(signatureRequestID) + "/claim"
	r := s.Do(http.MethodPost, path, body)
	if r.Status/100 != 2 {
		s.t.Fatalf("sandboxtest: claim draft %s: %d %s", signatureRequestID, r.Status, r.Body)
	}
	var out struct {
		SignatureRequest map[string]any `json:"signature_request"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		s.t.Fatalf("sandboxtest: decode claim answer: %v", err)
	}
	return out.SignatureRequest
}
