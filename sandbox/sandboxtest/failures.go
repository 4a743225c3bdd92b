package sandboxtest

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/signsandbox/signsandbox/sandbox"
)

// Failure paths an integrator cannot reach with ordinary calls: a request
// whose processing fails, and an eID signer who does not finish.

// EIDIncomplete plays the signer of an is_eid request who started the
// electronic identification step and left it unfinished
// (signature_request_incomplete_qes); reason, when not "", is the event's
// event_message. The signature stays awaiting_signature.
func (s *Server) EIDIncomplete(signatureID, reason string) map[string]any {
	s.t.Helper()
	body := map[string]any{}
	if reason != "" {
		body["reason"] = reason
	}
	return s.signer(signatureID, "eid_incomplete", body)
}

// FailRequest makes a signature request fail as the service's processing
// can: statusCode is error_file (file_error), error_unknown
// (unknown_error), error_invalid_email, error_component_position or
// error_text_tag (signature_request_invalid); message "" gives the
// status's default. The request must be processing, or sent with no
// signer having acted. It returns the request as GET shows it.
func (s *Server) FailRequest(requestID, statusCode, message string) map[string]any {
	s.t.Helper()
	body := map[string]any{"status_code": statusCode}
	if message != "" {
		body["message"] = message
	}
	r := s.FailRequestRaw(requestID, body)
	if r.Status/100 != 2 {
		s.t.Fatalf("sandboxtest: fail %s: %d %s", requestID, r.Status, r.Body)
	}
	var out struct {
		SignatureRequest map[string]any `json:"signature_request"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		s.t.Fatalf("sandboxtest: decode fail answer: %v", err)
	}
	return out.SignatureRequest
}

// FailRequestRaw sends the fail call with any body (status_code, message,
// signature_id) and returns the raw answer, whatever its status.
func (s *Server) FailRequestRaw(requestID string, body any) *Response {
	s.t.Helper()
	return s.Do(http.MethodPost, sandbox.ControlPrefix+"/signature_requests/"+url.PathEscape(requestID)+"/fail", body)
}
