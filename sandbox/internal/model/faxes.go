package model

import "slices"

// FaxLine is a purchased fax number. Its id is the number itself (digits
// only, with the country code), the key every fax line operation takes.
type FaxLine struct {
	Number         string `json:"number"`
	Country        string `json:"country"`
	AreaCode       int    `json:"area_code"`
	City           string `json:"city,omitempty"`
	OwnerAccountID string `json:"owner_account_id"`
	// AccountIDs are the accounts with access to the line, the owner first,
	// then in the order they were added.
	AccountIDs []string `json:"account_ids"`
	CreatedAt  int64    `json:"created_at"`
	UpdatedAt  int64    `json:"updated_at"`
	Seq        uint64   `json:"seq"`
}

// HasAccount reports whether id has access to the line.
func (l *FaxLine) HasAccount(id string) bool { return slices.Contains(l.AccountIDs, id) }

// Fax transmission statuses (FaxResponseTransmission.status_code).
const (
	FaxTransmitting        = "transmitting"
	FaxSuccess             = "success"
	FaxErrorCouldNotFax    = "error_could_not_fax"
	FaxErrorUnknown        = "error_unknown"
	FaxErrorBusy           = "error_busy"
	FaxErrorNoAnswer       = "error_no_answer"
	FaxErrorDisconnected   = "error_disconnected"
	FaxErrorBadDestination = "error_bad_destination"
)

// Fax is a fax sent through the API.
type Fax struct {
	ID        string `json:"fax_id"`
	AccountID string `json:"account_id"`
	Title     string `json:"title"`
	// OriginalTitle is the title as given when the fax was sent.
	OriginalTitle string `json:"original_title"`
	// Sender is what the answer shows as sender: the sender number given,
	// else the sending account's e-mail address.
	Sender           string     `json:"sender"`
	Recipient        string     `json:"recipient"`
	CoverPageTo      string     `json:"cover_page_to,omitempty"`
	CoverPageFrom    string     `json:"cover_page_from,omitempty"`
	CoverPageMessage string     `json:"cover_page_message,omitempty"`
	TestMode         bool       `json:"test_mode"`
	Documents        []Document `json:"documents"`
	// Pages is what the fax costs: the documents' pages plus the cover page.
	Pages int `json:"pages"`
	// Status is the transmission's status_code; SentAt is set when the
	// transmission ended.
	Status string `json:"status"`
	SentAt int64  `json:"sent_at,omitempty"`
	// FilesURL is files_url as the sender saw it (the sandbox's address).
	FilesURL  string `json:"files_url"`
	CreatedAt int64  `json:"created_at"`
	// Deleted faxes answer 404 (get) and 410 (files).
	Deleted bool   `json:"deleted,omitempty"`
	Seq     uint64 `json:"seq"`
}
