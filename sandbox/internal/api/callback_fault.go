package api

// The fault point of callback deliveries: the callbacks package consults it
// before every attempt, scenario rules fill it.

import (
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// CallbackFault is what a scenario rule makes of an attempt (see
// Registry.CallbackFault).
type CallbackFault int

const (
	// FaultNone leaves the attempt alone.
	FaultNone CallbackFault = iota
	// FaultUnreachable makes the attempt fail without contacting the
	// receiver, as if it were down.
	FaultUnreachable
	// FaultRejectAnswer sends the request but counts the receiver's answer
	// as a failure whatever it is.
	FaultRejectAnswer
)

// CallbackAttempt describes an attempt about to be made, for Registry.CallbackFault.
type CallbackAttempt struct {
	DeliveryID string
	EventID    string
	EventType  string
	// Kind is "account" or "app"; AccountID and ClientID name the target.
	Kind      string
	AccountID string
	ClientID  string
	URL       string
	// Attempt is the attempt's number within its round (0 for the first).
	Attempt int
	// DueAt is the world time the attempt is due at.
	DueAt time.Time
}

// CallbackFaultHook, when set (Registry.CallbackFault), is consulted
// before every delivery attempt. The scenario engine installs it to make a
// receiver's answers count as failures ("the receiver is down for a day"):
// it looks up the rules of w (kept in its own world.Ext value) and answers
// FaultNone when none applies. reason is written to the attempt's log
// entry. It must be fast and safe for concurrent use; it runs outside any
// transaction.
type CallbackFaultHook func(s *Host, w *world.World, a CallbackAttempt) (fault CallbackFault, reason string)
