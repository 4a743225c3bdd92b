package sandbox_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestImportedWorldServesTheURLsItHandedOut: the URLs a world hands out
// name it (/_sandbox/w/{world}/...) and are stored with its objects. A
// world exported from one sandbox's w1 and imported into another
// sandbox's default world keeps them byte for byte, and every page they
// lead to still answers from the imported world: sign and details pages,
// file URLs, claim and editor pages, report and invitation links.
func TestImportedWorldServesTheURLsItHandedOut(t *testing.T) {
	a := grandServer(t)
	var wi sandbox.WorldInfo
	a.Control(http.MethodPost, "/worlds", map[string]any{}, &wi)
	require.Equal(t, "w1", wi.WorldID)
	key := wi.APIKey
	as := func(method, path string, body any) map[string]any {
		t.Helper()
		r := a.DoAs(key, method, path, body)
		require.Equal(t, http.StatusOK, r.Status, "%s %s: %s", method, path, r.Body)
		return r.Map()
	}
	created := func(r *sandboxtest.Response) map[string]any {
		t.Helper()
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return r.Map()
	}

	sent := created(apitest.CreateRequest(t, a, key, "send", apitest.TwoSigners()))["signature_request"].(map[string]any)
	emb := apitest.TwoSigners()
	emb["client_id"] = wi.ClientID
	embedded := created(apitest.CreateRequest(t, a, key, "create_embedded", emb))["signature_request"].(map[string]any)
	claimURL := created(apitest.CreateDraft(t, a, key, "create", apitest.DraftBody()))["unclaimed_draft"].(map[string]any)["claim_url"].(string)
	draft := map[string]any{"client_id": wi.ClientID, "title": "Draft", "test_mode": true}
	editURL := created(apitest.SendPDFs(t, a, key, http.MethodPost, "/v3/template/create_embedded_draft", draft, apitest.PDFFile{Name: "d.pdf", Data: apitest.PDF(1)}))["template"].(map[string]any)["edit_url"].(string)
	as(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "invitee@example.com"})
	as(http.MethodPost, "/v3/report/create", map[string]any{"start_date": "01/01/2025", "end_date": "01/02/2025", "report_type": []string{"user_activity"}})
	as(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"duration": "2m"})

	id := sent["signature_request_id"].(string)
	urls := map[string]string{
		"signing_url": as(http.MethodGet, "/v3/signature_request/"+id, nil)["signature_request"].(map[string]any)["signing_url"].(string),
		"sign_url":    as(http.MethodGet, "/v3/embedded/sign_url/"+apitest.SignatureID(embedded, 0), nil)["embedded"].(map[string]any)["sign_url"].(string),
		"file_url":    as(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)["file_url"].(string),
		"claim_url":   claimURL,
		"edit_url":    editURL,
	}
	var mails struct {
		Emails []struct {
			Kind string `json:"kind"`
			Link string `json:"link"`
		} `json:"emails"`
	}
	r := a.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/emails", nil)
	require.NoError(t, r.JSON(&mails))
	for _, m := range mails.Emails {
		if m.Link != "" && strings.Contains(m.Link, "/_sandbox/w/") {
			urls["e-mail "+m.Kind] = m.Link
		}
	}
	for _, kind := range []string{"e-mail signature_request", "e-mail team_invite", "e-mail report"} {
		require.Contains(t, urls, kind)
	}
	export := a.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, export.Status)

	b := grandServer(t)
	r = b.Do(http.MethodPut, sandbox.ControlPrefix+"/state", export.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	again := b.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, again.Status, "%s", again.Body)
	requireSameJSON(t, export.Body, again.Body, "w1 imported as another sandbox's default world")
	for name, u := range urls {
		require.True(t, strings.HasPrefix(u, grandBase+"/_sandbox/w/w1/"), "%s: %s", name, u)
		page := b.DoAs("", http.MethodGet, strings.TrimPrefix(u, grandBase), nil)
		assert.Equal(t, http.StatusOK, page.Status, "%s: %s\n%.300s", name, u, page.Body)
	}
	// A URL of a world that holds nothing of the kind still answers 404.
	page := b.DoAs("", http.MethodGet, "/_sandbox/w/w1/sign/"+strings.Repeat("0", 64), nil)
	assert.Equal(t, http.StatusNotFound, page.Status)
}
