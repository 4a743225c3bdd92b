package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strconv"
)

// Object keys of EventCallbackRequest by the object type an event carries.
const (
	ObjectSignatureRequest = "signature_request"
	ObjectTemplate         = "template"
	ObjectAccount          = "account"
)

// Acknowledgement is the text a receiver's 200 body must contain for a
// delivery to count.
const Acknowledgement = "Hello API Event Received"

// FormField is the multipart field that carries the payload.
const FormField = "json"

// Metadata is EventCallbackRequestEventMetadata. The first three keys are
// always present (null when empty), as in the official examples;
// event_message only when there is a message.
type Metadata struct {
	RelatedSignatureID   string
	ReportedForAccountID string
	ReportedForAppID     string
	EventMessage         string
}

// Event is what a payload says about the event itself.
type Event struct {
	// Time is Unix seconds; on the wire it is a decimal string.
	Time     int64
	Type     string
	Hash     string
	Metadata Metadata
}

// TimeString is event_time as sent (and as hashed).
func (e Event) TimeString() string { return strconv.FormatInt(e.Time, 10) }

type wireMetadata struct {
	RelatedSignatureID   *string `json:"related_signature_id"`
	ReportedForAccountID *string `json:"reported_for_account_id"`
	ReportedForAppID     *string `json:"reported_for_app_id"`
	EventMessage         *string `json:"event_message,omitempty"`
}

type wireEvent struct {
	EventTime     string       `json:"event_time"`
	EventType     string       `json:"event_type"`
	EventHash     string       `json:"event_hash"`
	EventMetadata wireMetadata `json:"event_metadata"`
}

type wirePayload struct {
	Event            wireEvent       `json:"event"`
	Account          json.RawMessage `json:"account,omitempty"`
	SignatureRequest json.RawMessage `json:"signature_request,omitempty"`
	Template         json.RawMessage `json:"template,omitempty"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Build writes the EventCallbackRequest JSON: the event, then the attached
// object (JSON as GET shows it) under its type's key. objectType "" attaches
// nothing (callback_test).
func Build(ev Event, objectType string, object json.RawMessage) ([]byte, error) {
	p := wirePayload{Event: wireEvent{
		EventTime: ev.TimeString(),
		EventType: ev.Type,
		EventHash: ev.Hash,
		EventMetadata: wireMetadata{
			RelatedSignatureID:   nullable(ev.Metadata.RelatedSignatureID),
			ReportedForAccountID: nullable(ev.Metadata.ReportedForAccountID),
			ReportedForAppID:     nullable(ev.Metadata.ReportedForAppID),
			EventMessage:         nullable(ev.Metadata.EventMessage),
		},
	}}
	if objectType != "" && len(object) == 0 {
		return nil, fmt.Errorf("events: %s event without its %s", ev.Type, objectType)
	}
	switch objectType {
	case "":
	case ObjectAccount:
		p.Account = object
	case ObjectSignatureRequest:
		p.SignatureRequest = object
	case ObjectTemplate:
		p.Template = object
	default:
		return nil, fmt.Errorf("events: unknown object type %q", objectType)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Boundary derives the multipart boundary of a delivery from its id, so that
// the bytes a receiver gets are the same on every run.
func Boundary(deliveryID string) string {
	sum := sha256.Sum256([]byte("signsandbox/boundary/" + deliveryID))
	return "signsandbox-" + hex.EncodeToString(sum[:12])
}

// Multipart wraps a payload as the real service sends it: a
// multipart/form-data body with one field named "json".
func Multipart(payload []byte, boundary string) (contentType string, body []byte, err error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.SetBoundary(boundary); err != nil {
		return "", nil, err
	}
	if err := mw.WriteField(FormField, string(payload)); err != nil {
		return "", nil, err
	}
	if err := mw.Close(); err != nil {
		return "", nil, err
	}
	return mw.FormDataContentType(), buf.Bytes(), nil
}
