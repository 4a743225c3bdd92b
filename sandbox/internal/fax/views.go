package fax

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/team"
)

// faxLineView is FaxLineResponseFaxLine.
type faxLineView struct {
	Number    string             `json:"number"`
	CreatedAt int64              `json:"created_at"`
	UpdatedAt int64              `json:"updated_at"`
	Accounts  []team.AccountView `json:"accounts"`
}

// faxLineResponse is FaxLineResponse. Its warnings member is a single
// object in the official schema, so fax line answers never carry warnings.
type faxLineResponse struct {
	FaxLine faxLineView `json:"fax_line"`
}

// faxLineListResponse is FaxLineListResponse.
type faxLineListResponse struct {
	ListInfo api.ListInfoResponse `json:"list_info"`
	FaxLines []faxLineView        `json:"fax_lines"`
}

// faxLineAreaCodeGetResponse is FaxLineAreaCodeGetResponse.
type faxLineAreaCodeGetResponse struct {
	AreaCodes []int `json:"area_codes"`
}

// viewFaxLine renders a line with the accounts that have access to it, as
// the official examples show them (no quotas, no role).
func viewFaxLine(tx *state.Txn, l *model.FaxLine) faxLineView {
	v := faxLineView{Number: l.Number, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, Accounts: []team.AccountView{}}
	for _, id := range l.AccountIDs {
		if a, err := state.Get[model.Account](tx, state.TableAccounts, id); err == nil {
			v.Accounts = append(v.Accounts, team.ViewAccount(a, false, false))
		}
	}
	return v
}

// faxView is FaxResponse.
type faxView struct {
	FaxID         string                 `json:"fax_id"`
	Title         string                 `json:"title"`
	OriginalTitle string                 `json:"original_title"`
	Subject       *string                `json:"subject"`
	Message       *string                `json:"message"`
	Metadata      map[string]any         `json:"metadata"`
	CreatedAt     int64                  `json:"created_at"`
	Sender        string                 `json:"sender"`
	FilesURL      string                 `json:"files_url"`
	FinalCopyURI  *string                `json:"final_copy_uri"`
	Transmissions []faxTransmissionsView `json:"transmissions"`
}

// faxTransmissionsView is FaxResponseTransmission; sent_at is absent while
// the fax is being transmitted.
type faxTransmissionsView struct {
	Recipient  string `json:"recipient"`
	StatusCode string `json:"status_code"`
	SentAt     *int64 `json:"sent_at,omitempty"`
}

// faxGetResponse is FaxGetResponse.
type faxGetResponse struct {
	Fax faxView `json:"fax"`
}

// faxListResponse is FaxListResponse.
type faxListResponse struct {
	Faxes    []faxView            `json:"faxes"`
	ListInfo api.ListInfoResponse `json:"list_info"`
}

// viewFax renders a fax. The cover page message is the fax's message; a fax
// has no subject. final_copy_uri appears once the fax was sent.
func viewFax(f *model.Fax) faxView {
	v := faxView{
		FaxID: f.ID, Title: f.Title, OriginalTitle: f.OriginalTitle, Message: api.NullString(f.CoverPageMessage),
		Metadata: map[string]any{}, CreatedAt: f.CreatedAt, Sender: f.Sender, FilesURL: f.FilesURL,
		Transmissions: []faxTransmissionsView{{Recipient: f.Recipient, StatusCode: f.Status}},
	}
	if f.SentAt != 0 {
		sent := f.SentAt
		v.Transmissions[0].SentAt = &sent
	}
	if f.Status == model.FaxSuccess {
		v.FinalCopyURI = api.NullString("/v3/fax/files/" + f.ID)
	}
	return v
}

// RegisterViews adds faxes and fax lines to the catalog, as GET /fax
// and GET /fax_line show them.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of("fax", state.TableFaxes,
		func(f *model.Fax) string { return f.ID },
		func(_ *state.Txn, f *model.Fax) (any, error) { return viewFax(f), nil },
		func(_ *state.Txn, f *model.Fax, accountID string) bool { return f.AccountID == accountID }))
	r.Catalog.Add(catalog.Of("fax_line", state.TableFaxLines,
		func(l *model.FaxLine) string { return l.Number },
		func(tx *state.Txn, l *model.FaxLine) (any, error) { return viewFaxLine(tx, l), nil },
		func(_ *state.Txn, l *model.FaxLine, accountID string) bool { return l.HasAccount(accountID) }))
}
