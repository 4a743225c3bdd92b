// Package callbacks delivers a world's events to the callback URLs of its
// accounts and API apps: one delivery worker per world that makes the due
// attempts off the request path, the HTTP sender with its timeout and
// acknowledgement rule, the per-target queues and their retry schedule,
// callback_test when a callback URL is set, and the control calls
// /_sandbox/callbacks (log, redeliver, wait). Events are recorded and routed
// to the deliveries table inside the transaction by notify; this package
// makes the attempts after commit. The fault point it consults before every
// attempt is the registry's (api.Registry.CallbackFault).
//
// It is the last step of the callbacks pipeline: notify records, events is
// the wire contract, callbacks delivers (docs/architecture.md, "Words").
package callbacks
