package model

import "encoding/json"

// Event is one event a committed change caused, with the object as a GET
// showed it at that moment (to the first involved account). Its deliveries
// to callback URLs, one per target with the exact payload sent, are rows of
// the deliveries table (deliveries.go).
type Event struct {
	ID   string `json:"id"`
	Seq  uint64 `json:"seq"`
	Type string `json:"event_type"`
	// Time is the world time in Unix seconds (event_time on the wire is its
	// decimal string).
	Time int64 `json:"event_time"`
	// ObjectType is signature_request, template, account or "" (callback_test).
	ObjectType string `json:"object_type,omitempty"`
	ObjectID   string `json:"object_id,omitempty"`
	// AccountIDs are the accounts involved (their account callbacks get it).
	AccountIDs []string `json:"account_ids,omitempty"`
	// ClientID is the API app the object was made with (its app callback
	// gets it).
	ClientID           string `json:"client_id,omitempty"`
	RelatedSignatureID string `json:"related_signature_id,omitempty"`
	EventMessage       string `json:"event_message,omitempty"`
	// Object is the attached object's JSON as GET showed it when the event
	// was emitted.
	Object json.RawMessage `json:"object,omitempty"`
}
