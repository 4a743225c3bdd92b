package mailrelay

// The states of an e-mail at the relay.
const (
	StatePending   = "pending"
	StateDelivered = "delivered"
	StateFailed    = "failed"
)

// Status is how an e-mail stands at the relay, as the outbox shows it
// (the "delivery" of GET /_sandbox/emails). Times are world-clock Unix
// seconds.
type Status struct {
	State    string `json:"state"`
	Attempts int    `json:"attempts"`
	// Error is the last attempt's failure (the relay's reply or the
	// connection's error).
	Error         string `json:"error,omitempty"`
	LastAttemptAt int64  `json:"last_attempt_at,omitempty"`
	NextAttemptAt int64  `json:"next_attempt_at,omitempty"`
	DeliveredAt   int64  `json:"delivered_at,omitempty"`
}
