package state

import (
	"encoding/json"
	"sort"

	memdb "github.com/hashicorp/go-memdb"
)

// TableBulkSendJobs holds the jobs of the two bulk send operations.
const TableBulkSendJobs = "bulk_send_jobs"

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

// registerBulkSendJobs adds the bulk send jobs.
func registerBulkSendJobs() {
	Register[BulkSendJob](&memdb.TableSchema{
		Name: TableBulkSendJobs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:      {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexAccount: {Name: IndexAccount, Indexer: &memdb.StringFieldIndex{Field: "AccountID"}},
		},
	})
}

// BulkSendJobsOf lists the jobs of the given accounts, newest first.
func BulkSendJobsOf(tx *Txn, accountIDs []string) ([]*BulkSendJob, error) {
	var out []*BulkSendJob
	for _, id := range accountIDs {
		jobs, err := All[BulkSendJob](tx, TableBulkSendJobs, IndexAccount, id)
		if err != nil {
			return nil, err
		}
		out = append(out, jobs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
	return out, nil
}
