package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
)

// TestCatalogShowsWhatTheAPIShows: the catalog lists and shows every kind
// a console needs, and an object shown through it is the object the
// official GET answers (the catalog adds no rendering of its own).
func TestCatalogShowsWhatTheAPIShows(t *testing.T) {
	s := optSandbox(t, WithOfflineFiles())
	key := s.DefaultAPIKey()
	assert.Equal(t, []string{"account", "api_app", "bulk_send_job", "fax", "fax_line", "signature_request", "team", "template", "unclaimed_draft"},
		s.host.Reg().Catalog.Kinds())

	rec := optDo(t, s, key, http.MethodPost, "/v3/signature_request/send",
		`{"title":"NDA","test_mode":true,"file_urls":["https://example.com/nda.pdf"],"signers":[{"name":"Jack","email_address":"jack@example.com"}]}`)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var sent struct {
		SignatureRequest map[string]any `json:"signature_request"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &sent))
	id := sent.SignatureRequest["signature_request_id"].(string)

	rec = optDo(t, s, key, http.MethodGet, "/v3/signature_request/"+id, "")
	require.Equal(t, http.StatusOK, rec.Code)
	var got struct {
		SignatureRequest json.RawMessage `json:"signature_request"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &got))

	tx := s.host.DefaultWorld().Store.Read()
	v, err := s.host.Reg().Catalog.Get(tx, "signature_request", id)
	require.NoError(t, err)
	shown, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(got.SignatureRequest), string(shown))

	rec = optDo(t, s, key, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusOK, rec.Code)
	var acct struct {
		Account json.RawMessage `json:"account"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &acct))
	v, err = s.host.Reg().Catalog.Get(tx, "account", s.host.FirstAccountID())
	require.NoError(t, err)
	shown, err = json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(acct.Account), string(shown))

	// Every kind lists (the seeded world holds accounts, a team and an app;
	// the request above), and the caller's filter keeps what they see.
	for _, kind := range s.host.Reg().Catalog.Kinds() {
		p, err := s.host.Reg().Catalog.List(tx, kind, catalog.Filter{}, "")
		require.NoError(t, err, kind)
		for _, item := range p.Items {
			_, err := json.Marshal(item)
			require.NoError(t, err, kind)
		}
	}
	p, err := s.host.Reg().Catalog.List(tx, "signature_request", catalog.Filter{AccountID: s.host.FirstAccountID()}, "")
	require.NoError(t, err)
	require.Len(t, p.Items, 1)
	p, err = s.host.Reg().Catalog.List(tx, "account", catalog.Filter{}, "")
	require.NoError(t, err)
	assert.Len(t, p.Items, len(s.host.Fixtures().Accounts))
	p, err = s.host.Reg().Catalog.List(tx, "team", catalog.Filter{AccountID: s.host.FirstAccountID()}, "")
	require.NoError(t, err)
	assert.Len(t, p.Items, 1)
}
