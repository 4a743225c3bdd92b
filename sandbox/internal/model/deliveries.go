package model

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	// EventNoTarget is an event's state when no callback URL was set for
	// its targets when it was emitted: there is nothing to deliver.
	EventNoTarget = "none"
)

// Delivery is one event on its way to one callback URL. Everything the
// receiver sees (URL, payload, event_hash) is fixed when the event is
// emitted, so that later changes (a new primary key, a new callback URL)
// affect only later events, as they do in the real service.
//
// Deliveries to one queue (one target and URL) are made one at a time in
// queue order: only the oldest unfinished delivery of a queue has a Due time;
// the others wait until it is delivered or given up.
type Delivery struct {
	ID string `json:"id"`
	// Seq is the queue order (a redelivery takes a new, later one).
	Seq       uint64 `json:"seq"`
	EventID   string `json:"event_id"`
	EventSeq  uint64 `json:"event_seq"`
	EventType string `json:"event_type"`
	// Index is the target's position among the event's targets.
	Index int `json:"index"`
	// Kind is "account" or "app".
	Kind string `json:"kind"`
	// AccountID is reported_for_account_id; ClientID reported_for_app_id.
	AccountID string `json:"account_id,omitempty"`
	ClientID  string `json:"client_id,omitempty"`
	URL       string `json:"url"`
	// Queue names the ordered stream this delivery belongs to.
	Queue string `json:"queue"`
	// Payload is the JSON text of the EventCallbackRequest (the multipart
	// field "json"), kept as a string so that it round-trips byte for byte.
	Payload   string `json:"payload"`
	EventHash string `json:"event_hash"`
	State     string `json:"state"`
	// CreatedAt is the world time (Unix nanoseconds) of the event.
	CreatedAt int64 `json:"created_at"`
	// Round counts (re)deliveries: 0 for the first, +1 per redeliver.
	Round int `json:"round"`
	// Base is when the current round's retry schedule started (Unix
	// nanoseconds; 0 while waiting behind an earlier delivery).
	Base int64 `json:"base"`
	// Due is when the next attempt is due (Unix nanoseconds), 0 when none is.
	Due int64 `json:"due"`
	// RoundAttempts counts the attempts of the current round.
	RoundAttempts int `json:"round_attempts"`
	// Attempts is the log of every attempt, oldest first.
	Attempts []DeliveryAttempt `json:"attempts,omitempty"`
}

// DeliveryAttempt is one POST to the callback URL.
type DeliveryAttempt struct {
	// At is the world time (Unix seconds) the attempt was due at; the
	// sandbox makes it as soon as the world clock reaches that time.
	At    int64 `json:"at"`
	Round int   `json:"round"`
	// Status is the HTTP status of the answer (0 when none came).
	Status int `json:"status,omitempty"`
	// Body is the start of the answer's body.
	Body string `json:"body,omitempty"`
	// Error says why the attempt did not count (timeout, refused, wrong
	// answer, a scenario rule).
	Error     string `json:"error,omitempty"`
	Delivered bool   `json:"delivered"`
	// DurationMS is how long the attempt took, in milliseconds, measured
	// on the world's clock when it is real; 0 on a fake clock, which moves
	// only when a caller advances it, so tests stay deterministic.
	DurationMS int64 `json:"duration_ms"`
}

// CheckImported refuses a payload that is not JSON: the callback log writes
// stored payloads through without validating them again on every page.
func (d *Delivery) CheckImported() error {
	if d.Payload != "" && !json.Valid([]byte(d.Payload)) {
		return errors.New("payload is not valid JSON")
	}
	return nil
}

// Open reports whether the delivery is still pending.
func (d *Delivery) Open() bool { return d.State == DeliveryPending }

// OpenKey is the key of the open index: the queue, a NUL, and the
// zero-padded Seq, so that a prefix scan on QueuePrefix(queue) walks one
// queue's unfinished deliveries in order. Finished deliveries have no key
// and are not in the index.
func (d *Delivery) OpenKey() string {
	if !d.Open() {
		return ""
	}
	return QueuePrefix(d.Queue) + fmt.Sprintf("%020d", d.Seq)
}

// QueuePrefix is the open-index prefix of a queue (queue names never contain
// NUL: they are made of ids and parsed URLs).
func QueuePrefix(queue string) string { return queue + "\x00" }
