package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
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

// AppendPayload appends the EventCallbackRequest JSON to dst: the event,
// then the attached object under its type's key (objectType "" attaches
// nothing: callback_test). The object must already be compact JSON as
// json.Marshal writes it (an event's stored rendering); it is copied as it
// is. The sandbox writes one payload per callback delivery.
func AppendPayload(dst []byte, ev Event, objectType string, object json.RawMessage) ([]byte, error) {
	key, err := objectKey(ev, objectType, object)
	if err != nil {
		return dst, err
	}
	return appendPayload(dst, ev, key, object), nil
}

// objectKey is the payload key of an event's object ("" for none), or why
// the event cannot carry it.
func objectKey(ev Event, objectType string, object json.RawMessage) (string, error) {
	if objectType != "" && len(object) == 0 {
		return "", fmt.Errorf("events: %s event without its %s", ev.Type, objectType)
	}
	switch objectType {
	case "", ObjectAccount, ObjectSignatureRequest, ObjectTemplate:
		return objectType, nil
	}
	return "", fmt.Errorf("events: unknown object type %q", objectType)
}

// appendPayload writes EventCallbackRequest in the field order, and with
// the escaping, that encoding/json gave for the structs it replaces (an
// Encoder without HTML escaping): the metadata's ids null when empty,
// event_message only when there is one, then the object under key.
func appendPayload(dst []byte, ev Event, key string, object json.RawMessage) []byte {
	dst = append(dst, `{"event":{"event_time":"`...)
	dst = strconv.AppendInt(dst, ev.Time, 10)
	dst = append(dst, `","event_type":`...)
	dst = jsonenc.AppendStringKeepHTML(dst, ev.Type)
	dst = append(dst, `,"event_hash":`...)
	dst = jsonenc.AppendStringKeepHTML(dst, ev.Hash)
	dst = append(dst, `,"event_metadata":{"related_signature_id":`...)
	dst = appendNullable(dst, ev.Metadata.RelatedSignatureID)
	dst = append(dst, `,"reported_for_account_id":`...)
	dst = appendNullable(dst, ev.Metadata.ReportedForAccountID)
	dst = append(dst, `,"reported_for_app_id":`...)
	dst = appendNullable(dst, ev.Metadata.ReportedForAppID)
	if ev.Metadata.EventMessage != "" {
		dst = append(dst, `,"event_message":`...)
		dst = jsonenc.AppendStringKeepHTML(dst, ev.Metadata.EventMessage)
	}
	dst = append(dst, "}}"...)
	if key != "" {
		dst = append(dst, `,"`...)
		dst = append(dst, key...)
		dst = append(dst, `":`...)
		dst = append(dst, object...)
	}
	return append(dst, '}')
}

// appendNullable writes s, or null when it is empty.
func appendNullable(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "null"...)
	}
	return jsonenc.AppendStringKeepHTML(dst, s)
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
