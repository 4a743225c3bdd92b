package state

import (
	"math"

	memdb "github.com/hashicorp/go-memdb"
)

// TableEmails is the world's e-mail outbox.
const TableEmails = "emails"

// IndexEmailRequest orders the e-mails about one signature request by Seq
// (the outbox's signature_request_id filter; a signer's newest e-mail,
// LastEmailAbout).
const IndexEmailRequest = "request_seq"

// Email is one e-mail the real service would have sent.
type Email struct {
	ID  string `json:"id"`
	Seq uint64 `json:"seq"`
	// Kind says what the e-mail is (signature_request, reminder, completed,
	// declined, canceled, ...).
	Kind    string `json:"kind"`
	To      string `json:"to"`
	Name    string `json:"name,omitempty"`
	Subject string `json:"subject"`
	Message string `json:"message,omitempty"`
	// SignatureRequestID and SignatureID name what the e-mail is about.
	SignatureRequestID string `json:"signature_request_id,omitempty"`
	SignatureID        string `json:"signature_id,omitempty"`
	TemplateID         string `json:"template_id,omitempty"`
	// Link is the URL the e-mail carries (signing page, download), if any.
	Link   string `json:"link,omitempty"`
	SentAt int64  `json:"sent_at"`
	// Bounced is set when a scenario or the control plane bounced it.
	Bounced bool `json:"bounced,omitempty"`
}

// registerEmails adds the outbox, bucketed, with its compact indexes.
func registerEmails() {
	Register[Email](&memdb.TableSchema{
		Name: TableEmails,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(e *Email) string { return e.ID })},
		},
	})
	// The e-mails are bucketed (bucket_rows.go) and frozen when no write
	// touches them (bucket_rows_frozen.go): a world keeps up to its log
	// limit of them, and each was a memdb entry of about 450 bytes and a
	// row of a dozen pointers for the collector to walk.
	registerBucketed(freezable[Email](fieldBuckets(TableEmails, "email", func(e *Email) string { return e.ID })))
	registerCompact(logSeqIndex(TableEmails, "email.seq/", func(row any) uint64 { return row.(*Email).Seq }))
	// The lookup of the e-mails about a request is a compact index (a
	// memdb entry an e-mail cost 450 bytes); e-mails about none (team
	// invitations, reports, ...) are left out. 256 buckets
	// (logBucketBits). The e-mails about a signature are found among
	// those of its request (LastEmailAbout).
	registerCompact(&compactIndex{table: TableEmails, name: IndexEmailRequest, tag: "email.request/",
		bits: logBucketBits, churns: true, unique: true, keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*Email); e.SignatureRequestID != "" {
				dst = append(dst, compactKey{e.SignatureRequestID, e.Seq})
			}
			return dst
		}})
}

// LastEmailAbout answers the newest e-mail about a signature of a request
// that match accepts (nil when there is none). It reads the request's
// e-mails, newest first: a signature's e-mails are its request's, and
// only reminders and bounces look for them, while an index of their own
// cost every e-mail sent and every one the full outbox dropped a change
// of one more bucket.
func LastEmailAbout(tx *Txn, requestID, signatureID string, match func(*Email) bool) (*Email, error) {
	if requestID == "" || signatureID == "" {
		return nil, nil
	}
	ix := compactIndexNamed(TableEmails, IndexEmailRequest)
	var found *Email
	err := tx.compactRows(ix, requestID, math.MaxUint64, true, func(raw any) bool {
		if e := raw.(*Email); e.SignatureID == signatureID && match(e) {
			found = e
			return false
		}
		return true
	})
	return found, err
}
