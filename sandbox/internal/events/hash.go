// Package events holds the wire contract of Dropbox Sign event callbacks:
// the event_hash, the EventCallbackRequest payload and its multipart
// envelope, and the retry schedule of deliveries. It knows nothing about
// worlds or HTTP clients, so that each piece can be checked against the
// official test vectors and schema on its own.
//
// It is the middle of the callbacks pipeline: notify records events and
// their deliveries with this package's payload and hash, callbacks makes
// the attempts on this package's schedule (docs/architecture.md, "Words").
package events

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Hash is the event_hash of an event: the lowercase hex HMAC-SHA256 of
// event_time immediately followed by event_type, keyed with the API key as
// text (not hex-decoded). This is what the official SDKs'
// EventCallbackHelper.isValid recomputes.
func Hash(apiKey, eventTime, eventType string) string {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte(eventTime))
	m.Write([]byte(eventType))
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether hash is the event_hash of the event under apiKey,
// comparing in constant time as a receiver should.
func Verify(apiKey, eventTime, eventType, hash string) bool {
	return hmac.Equal([]byte(Hash(apiKey, eventTime, eventType)), []byte(hash))
}
