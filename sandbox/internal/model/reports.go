package model

// Report is a requested report. It becomes ready when its scheduler job
// runs: the CSV of each report type is then generated from the world's data
// and stored, and one e-mail per type carries its download link.
type Report struct {
	ID        string `json:"id"`
	AccountID string `json:"account_id"`
	// TeamID is the team the report covers ("" for an account without a
	// team: the report covers the account alone).
	TeamID    string   `json:"team_id,omitempty"`
	Types     []string `json:"report_type"`
	StartDate string   `json:"start_date"` // MM/DD/YYYY as requested
	EndDate   string   `json:"end_date"`
	// LinkBase is the sandbox URL the CSV links start with (the address the
	// caller used, known only during the request).
	LinkBase  string `json:"link_base"`
	CreatedAt int64  `json:"created_at"`
	ReadyAt   int64  `json:"ready_at,omitempty"`
	// CSVBlobs maps a report type to the blob of its CSV once ready.
	CSVBlobs map[string]string `json:"csv_blobs,omitempty"`
	Seq      uint64            `json:"seq"`
}
