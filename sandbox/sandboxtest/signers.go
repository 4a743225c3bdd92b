package sandboxtest

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/signsandbox/signsandbox/sandbox"
)

// Signer actions: the control plane acting as a signer of a signature
// request, with the rules a real signer meets (state, order, allow_decline,
// allow_reassign, 410 after cancelation). Each helper fails the test unless
// the action succeeds and returns the request as GET would show it; use
// SignerAction for actions that are expected to fail.

// View opens the request as the signer (signature_request_viewed).
func (s *Server) View(signatureID string) map[string]any {
	s.t.Helper()
	return s.signer(signatureID, "view", nil)
}

// Sign signs as the signer. values gives field values by api_id (strings
// for text and dropdown fields, booleans for checkboxes and radios); fields
// left out get what a click-through signer leaves (defaults, plausible
// values for required fields).
func (s *Server) Sign(signatureID string, values map[string]any) map[string]any {
	s.t.Helper()
	return s.signer(signatureID, "sign", map[string]any{"values": values})
}

// Decline declines as the signer (the request needs allow_decline).
func (s *Server) Decline(signatureID, reason string) map[string]any {
	s.t.Helper()
	return s.signer(signatureID, "decline", map[string]any{"reason": reason})
}

// Reassign hands the signature to someone else (the request needs
// allow_reassign); the new signer gets a new signature_id.
func (s *Server) Reassign(signatureID, name, emailAddress, reason string) map[string]any {
	s.t.Helper()
	return s.signer(signatureID, "reassign", map[string]any{"name": name, "email_address": emailAddress, "reason": reason})
}

// Bounce makes the last e-mail to the signer bounce
// (signature_request_email_bounce).
func (s *Server) Bounce(signatureID string) map[string]any {
	s.t.Helper()
	return s.signer(signatureID, "bounce", nil)
}

// SignerAction runs a signer action ("view", "sign", "decline",
// "reassign", "bounce", "eid_incomplete") and returns the raw answer,
// whatever its status.
func (s *Server) SignerAction(signatureID, action string, body any) *Response {
	s.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return s.Do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+url.PathEscape(signatureID)+"/"+action, body)
}

func (s *Server) signer(signatureID, action string, body any) map[string]any {
	s.t.Helper()
	r := s.SignerAction(signatureID, action, body)
	if r.Status/100 != 2 {
		s.t.Fatalf("sandboxtest: %s %s: %d %s", action, signatureID, r.Status, r.Body)
	}
	var out struct {
		SignatureRequest map[string]any `json:"signature_request"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		s.t.Fatalf("sandboxtest: decode %s answer: %v", action, err)
	}
	return out.SignatureRequest
}

// Email is one e-mail of the world's outbox (EmailMessage gives it as
// the message its recipient receives).
type Email struct {
	ID                 string `json:"id"`
	Kind               string `json:"kind"`
	To                 string `json:"to"`
	Name               string `json:"name"`
	Subject            string `json:"subject"`
	Message            string `json:"message"`
	SignatureRequestID string `json:"signature_request_id"`
	SignatureID        string `json:"signature_id"`
	TemplateID         string `json:"template_id"`
	Link               string `json:"link"`
	SentAt             int64  `json:"sent_at"`
	Bounced            bool   `json:"bounced"`
	// From and MessageID are the message's headers (From as a person
	// reads it); Read is the outbox's unread mark, turned off.
	From      string `json:"from"`
	MessageID string `json:"message_id"`
	Read      bool   `json:"read"`
	// Delivery is how the e-mail stands at the SMTP relay (nil without
	// sandbox.WithSMTPRelay).
	Delivery *EmailDelivery `json:"delivery"`
}

// EmailDelivery is an e-mail's state at the SMTP relay: State is pending,
// delivered or failed; times are world-clock Unix seconds.
type EmailDelivery struct {
	State         string `json:"state"`
	Attempts      int    `json:"attempts"`
	Error         string `json:"error"`
	LastAttemptAt int64  `json:"last_attempt_at"`
	NextAttemptAt int64  `json:"next_attempt_at"`
	DeliveredAt   int64  `json:"delivered_at"`
}

// Emails lists the outbox in order, walking every page. filters are query
// pairs: "to", "kind", "signature_request_id", "q" (a search).
func (s *Server) Emails(filters ...string) []Email {
	s.t.Helper()
	return walk[Email](s, "/emails", emailQuery(filters), "emails")
}

// EmailMessage is an e-mail of the outbox as the message its recipient
// receives (message/rfc822: headers, a text and an HTML part).
func (s *Server) EmailMessage(id string) []byte {
	s.t.Helper()
	r := s.Do(http.MethodGet, sandbox.ControlPrefix+"/emails/"+url.PathEscape(id), nil)
	if r.Status != http.StatusOK {
		s.t.Fatalf("sandboxtest: e-mail %s: %d %s", id, r.Status, r.Body)
	}
	return r.Body
}

// ClearEmails empties the outbox and answers how many e-mails it held.
func (s *Server) ClearEmails() int {
	s.t.Helper()
	var out struct {
		Deleted int `json:"deleted"`
	}
	s.Control(http.MethodDelete, "/emails", nil, &out)
	return out.Deleted
}
