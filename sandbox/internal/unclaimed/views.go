package unclaimed

import (
	"encoding/json"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// unclaimedDraftCreateResponse is UnclaimedDraftCreateResponse.
type unclaimedDraftCreateResponse struct {
	UnclaimedDraft unclaimedDraftResponse `json:"unclaimed_draft"`
}

// unclaimedDraftResponse is UnclaimedDraftResponse. requesting_redirect_url
// is "only returned if it is applicable to the request" (the official
// description): the embedded variants, which take that parameter, always
// show it (null when not set); create, which does not, never does.
type unclaimedDraftResponse struct {
	SignatureRequestID    string
	ClaimURL              string
	SigningRedirectURL    *string
	RequestingRedirectURL *string
	ShowRequesting        bool
	ExpiresAt             int64
	TestMode              bool
}

// MarshalJSON writes the official field order and leaves out
// requesting_redirect_url where it does not apply.
func (r unclaimedDraftResponse) MarshalJSON() ([]byte, error) {
	type withRequesting struct {
		SignatureRequestID    string  `json:"signature_request_id"`
		ClaimURL              string  `json:"claim_url"`
		SigningRedirectURL    *string `json:"signing_redirect_url"`
		RequestingRedirectURL *string `json:"requesting_redirect_url"`
		ExpiresAt             int64   `json:"expires_at"`
		TestMode              bool    `json:"test_mode"`
	}
	type plain struct {
		SignatureRequestID string  `json:"signature_request_id"`
		ClaimURL           string  `json:"claim_url"`
		SigningRedirectURL *string `json:"signing_redirect_url"`
		ExpiresAt          int64   `json:"expires_at"`
		TestMode           bool    `json:"test_mode"`
	}
	if r.ShowRequesting {
		return json.Marshal(withRequesting{r.SignatureRequestID, r.ClaimURL, r.SigningRedirectURL, r.RequestingRedirectURL, r.ExpiresAt, r.TestMode})
	}
	return json.Marshal(plain{r.SignatureRequestID, r.ClaimURL, r.SigningRedirectURL, r.ExpiresAt, r.TestMode})
}

// viewDraft renders a draft; claimURL is its public address.
func viewDraft(d *model.UnclaimedDraft, claimURL string) unclaimedDraftCreateResponse {
	return unclaimedDraftCreateResponse{UnclaimedDraft: unclaimedDraftResponse{
		SignatureRequestID:    d.ID,
		ClaimURL:              claimURL,
		SigningRedirectURL:    api.NullString(d.SigningRedirectURL),
		RequestingRedirectURL: api.NullString(d.RequestingRedirectURL),
		ShowRequesting:        d.Embedded,
		ExpiresAt:             d.ExpiresAt,
		TestMode:              d.TestMode,
	}}
}

// claimPath is the path of a draft's claim URL below the world's pages.
func claimPath(token string) string { return "claim/" + token }

// RegisterViews adds unclaimed drafts to the catalog, as their
// creation answered them, with the claim page's path relative to the
// world's pages (the catalog knows no base URL).
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of("unclaimed_draft", state.TableUnclaimedDrafts,
		func(d *model.UnclaimedDraft) string { return d.ID },
		func(_ *state.Txn, d *model.UnclaimedDraft) (any, error) {
			return viewDraft(d, claimPath(d.Token)).UnclaimedDraft, nil
		},
		func(_ *state.Txn, d *model.UnclaimedDraft, accountID string) bool { return d.AccountID == accountID }))
}
