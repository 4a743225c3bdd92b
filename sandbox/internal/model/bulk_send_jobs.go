package model

import "encoding/json"

// BulkSendJob is one bulk send: a job that creates up to 250 signature
// requests from templates, one per signer list entry, asynchronously (a
// scheduler job), each carrying the job's id.
type BulkSendJob struct {
	ID  string `json:"bulk_send_job_id"`
	Seq uint64 `json:"seq"`
	// AccountID is the sender; team members see the job too.
	AccountID string `json:"account_id"`
	ClientID  string `json:"client_id,omitempty"`
	// Embedded jobs (bulk_create_embedded_with_template) create embedded
	// requests.
	Embedded bool `json:"embedded"`
	TestMode bool `json:"test_mode"`
	// Total is the number of requests queued.
	Total     int   `json:"total"`
	CreatedAt int64 `json:"created_at"`
	// Spec is what every request of the job shares (the sandbox's request
	// specification as JSON); Items what differs. Both are dropped once
	// the requests exist.
	Spec  json.RawMessage `json:"spec,omitempty"`
	Items []BulkSendItem  `json:"items,omitempty"`
	// RequestIDs are the created requests, in signer list order.
	RequestIDs []string `json:"signature_request_ids,omitempty"`
	// Failures are the entries whose request could not be created (the
	// quota ran out after the job was accepted).
	Failures []BulkSendFailure `json:"failures,omitempty"`
	// SentAt is when the job created its requests (0 while queued).
	SentAt int64 `json:"sent_at,omitempty"`
}

// BulkSendItem is one signer list entry, bound to the templates.
type BulkSendItem struct {
	Signers      []Signature   `json:"signers"`
	CustomFields []CustomField `json:"custom_fields,omitempty"`
}

// BulkSendFailure is an entry that did not become a request.
type BulkSendFailure struct {
	Index int    `json:"index"`
	Error string `json:"error"`
}
