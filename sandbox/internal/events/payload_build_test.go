package events

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Build is AppendPayload for an object in any JSON spelling, compacted
// first, into a slice of its own: the reference the payload tests hold
// AppendPayload to (the sandbox's objects are compact already, so it
// writes payloads with AppendPayload alone).
func Build(ev Event, objectType string, object json.RawMessage) ([]byte, error) {
	key, err := objectKey(ev, objectType, object)
	if err != nil {
		return nil, err
	}
	if key != "" {
		var compact bytes.Buffer
		compact.Grow(len(object))
		if err := json.Compact(&compact, object); err != nil {
			// The error encoding/json gives for a RawMessage it cannot write.
			return nil, &json.MarshalerError{Type: reflect.TypeFor[json.RawMessage](), Err: err}
		}
		object = compact.Bytes()
	}
	return appendPayload(make([]byte, 0, payloadSize(ev, object)), ev, key, object), nil
}

// payloadSize is about the size of a payload: its object and the event's
// fields in their keys.
func payloadSize(ev Event, object []byte) int {
	m := ev.Metadata
	return 256 + len(object) + len(ev.Type) + len(ev.Hash) + len(m.RelatedSignatureID) + len(m.ReportedForAccountID) +
		len(m.ReportedForAppID) + len(m.EventMessage)
}
