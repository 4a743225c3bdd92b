package unclaimed_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

var contract = apitest.File{Field: "files[0]", Name: "contract.pdf", ContentType: "application/pdf",
	Data: pdftest.MakePDF(pdftest.Letter("contract"))}

type draftBody struct {
	Draft struct {
		ID        string `json:"signature_request_id"`
		ClaimURL  string `json:"claim_url"`
		ExpiresAt int64  `json:"expires_at"`
	} `json:"unclaimed_draft"`
}

func createDraft(t *testing.T, srv *sandboxtest.Server, fields map[string]string) draftBody {
	t.Helper()
	r := apitest.Multipart(t, srv, http.MethodPost, "/v3/unclaimed_draft/create", fields, contract)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var d draftBody
	require.NoError(t, r.JSON(&d))
	return d
}

// TestCreateClaimSend: a draft has a claim URL that the page serves; a
// claim sends it as a signature request with the draft's signer; a second
// claim conflicts.
func TestCreateClaimSend(t *testing.T) {
	srv := apitest.NewServer(t)
	d := createDraft(t, srv, map[string]string{
		"type": "request_signature", "subject": "Lease", "test_mode": "1",
		"signers": js([]map[string]any{{"name": "Jack", "email_address": "jack@example.com", "order": 0}}),
	})
	require.NotEmpty(t, d.Draft.ClaimURL)
	assert.Equal(t, srv.Now().Add(time.Hour).Unix(), d.Draft.ExpiresAt, "a claim URL lives as long as the world's claim_url_ttl")

	page := srv.DoAs("", http.MethodGet, strings.TrimPrefix(d.Draft.ClaimURL, srv.URL), nil)
	require.Equal(t, http.StatusOK, page.Status, "%s", page.Body)
	assert.Contains(t, page.Header.Get("Content-Type"), "text/html")

	sr := srv.ClaimDraft(d.Draft.ID, nil)
	assert.Equal(t, d.Draft.ID, sr["signature_request_id"], "the request keeps the draft's id")
	assert.Equal(t, "Lease", sr["subject"])
	sigs := sr["signatures"].([]any)
	require.Len(t, sigs, 1)
	assert.Equal(t, "jack@example.com", sigs[0].(map[string]any)["signer_email_address"])

	r := srv.Do(http.MethodPost, "/_sandbox/unclaimed_drafts/"+d.Draft.ID+"/claim", map[string]any{})
	assert.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
}

// TestExpiredDraft: past its expiry a draft can no longer be claimed.
func TestExpiredDraft(t *testing.T) {
	srv := apitest.NewServer(t)
	d := createDraft(t, srv, map[string]string{"type": "send_document", "test_mode": "1"})
	srv.Advance(time.Hour)
	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/unclaimed_drafts/"+d.Draft.ID+"/claim", map[string]any{}))
	assert.Equal(t, "deleted", e.Name, e.Msg)
}

// TestCreateErrors name the parameter at fault.
func TestCreateErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct {
		fields map[string]string
		files  []apitest.File
		path   string
	}{
		{map[string]string{"test_mode": "1"}, []apitest.File{contract}, "type"},
		{map[string]string{"type": "sign_now", "test_mode": "1"}, []apitest.File{contract}, "type"},
		{map[string]string{"type": "send_document", "test_mode": "1"}, nil, "files"},
		{map[string]string{"type": "request_signature", "test_mode": "1",
			"signers": js([]map[string]any{{"name": "Jack", "email_address": "not-an-address"}})}, []apitest.File{contract}, "signers[0][email_address]"},
	} {
		e := apitest.ErrorOf(t, apitest.Multipart(t, srv, http.MethodPost, "/v3/unclaimed_draft/create", tc.fields, tc.files...))
		assert.Equal(t, tc.path, e.Path, "%v: %s %s", tc.fields, e.Name, e.Msg)
	}
}
