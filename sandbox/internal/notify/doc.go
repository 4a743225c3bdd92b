// Package notify is what the sandbox tells the outside world, recorded
// inside the transaction that changes an object: the event vocabulary of
// the official callbacks, event rows with their object rendered by the
// view of its type, and one delivery row per callback URL the event goes
// to (Route), with the payload and event_hash fixed at that moment, and the
// e-mails the real service would send (Email, into the world's outbox). The
// workers that deliver after commit live above it; notify knows no
// resource, only the views each one registers.
//
// Callbacks are one pipeline in three packages, one step each: notify
// records (inside the transaction), events is the wire contract both sides
// share (hash, payload, retry schedule), callbacks delivers (after commit).
// An event is the row and its payload, a delivery is one event for one
// callback URL, an attempt is one POST of a delivery (docs/architecture.md,
// "Words").
package notify
