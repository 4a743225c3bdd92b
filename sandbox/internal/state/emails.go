package state

import (
	memdb "github.com/hashicorp/go-memdb"
)

// TableEmails is the world's e-mail outbox.
const TableEmails = "emails"

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

func init() {
	Register[Email](&memdb.TableSchema{
		Name: TableEmails,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:  {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexSeq: {Name: IndexSeq, Unique: true, Indexer: &memdb.UintFieldIndex{Field: "Seq"}},
		},
	})
}
