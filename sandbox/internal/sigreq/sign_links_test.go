package sigreq_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestSigningLinksNeedNoRowAndOldLinksStillWork: a signing e-mail's link
// names its signature and adds no sign_urls row; it survives an export and
// import; and a world exported while every link was a row of its own
// (the link's token in sign_urls, nothing on the signature) still imports
// and its link still opens the signing page.
func TestSigningLinksNeedNoRowAndOldLinksStillWork(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id, jack := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	srv.Advance(time.Minute)
	link := signingLink(srv, id, jack)
	require.NotEmpty(t, link, "Jack is asked to sign")
	i := strings.LastIndex(link, "/sign/")
	base, token := link[:i+len("/sign/")], link[i+len("/sign/"):]
	require.Regexp(t, regexp.MustCompile(`^[0-9a-f]{64}`+jack+`$`), token, "a secret, then the signature id")
	status, page := apitest.FetchPage(t, http.MethodGet, link, nil)
	require.Equal(t, http.StatusOK, status, page)

	export := func() map[string]any {
		r := srv.DoAs("", http.MethodGet, "/_sandbox/state", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var st map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &st))
		return st
	}
	load := func(st map[string]any) {
		r := srv.DoAs("", http.MethodPut, "/_sandbox/state", st)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	st := export()
	tables := st["tables"].(map[string]any)
	assert.Empty(t, tables["sign_urls"], "an e-mail link is no row of its own")
	load(st)
	status, page = apitest.FetchPage(t, http.MethodGet, link, nil)
	require.Equal(t, http.StatusOK, status, "the link survives export and import: %s", page)

	// The shape of older worlds: the secret alone is the token, in a row.
	secret := strings.TrimSuffix(token, jack)
	st = export()
	tables = st["tables"].(map[string]any)
	for _, row := range tables["signature_requests"].([]any) {
		delete(row.(map[string]any), "link_secrets")
	}
	tables["sign_urls"] = []any{map[string]any{"token": secret, "signature_id": jack, "signature_request_id": id, "embedded": false, "expires_at": 0}}
	load(st)
	status, page = apitest.FetchPage(t, http.MethodGet, base+secret, nil)
	require.Equal(t, http.StatusOK, status, "an older world's link still works: %s", page)
	assert.Contains(t, page, "Jack")
	status, _ = apitest.FetchPage(t, http.MethodGet, link, nil)
	assert.Equal(t, http.StatusNotFound, status, "the signature no longer holds the secret")
}

// TestSigningLinkOfAnEditedRequestStillOpensItsPage: an edit and resend
// gives the signers new signature ids; a link e-mailed before still opens
// the request's page, which says the signature is gone, as when every
// link was a row, while a made-up secret for the old signature does not.
func TestSigningLinkOfAnEditedRequestStillOpensItsPage(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	sr := apitest.SendRequest(t, srv, body)
	id, jack := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	srv.Advance(time.Minute)
	link := signingLink(srv, id, jack)
	require.NotEmpty(t, link)
	body["title"] = "Edited"
	body["signers"] = []map[string]any{{"name": "Joan", "email_address": "joan@example.com"}}
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, body, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(2)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)

	status, page := apitest.FetchPage(t, http.MethodGet, link, nil)
	assert.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "No signature "+jack+" in this world.")
	assert.Contains(t, page, "Edited")
	forged := strings.Repeat("0", 64) + jack
	status, _ = apitest.FetchPage(t, http.MethodGet, link[:len(link)-len(forged)]+forged, nil)
	assert.Equal(t, http.StatusNotFound, status)
	for _, m := range srv.Emails("signature_request_id", id) {
		if m.To == "joan@example.com" && m.Kind == "signature_request" {
			status, page = apitest.FetchPage(t, http.MethodGet, m.Link, nil)
			assert.Equal(t, http.StatusOK, status, page)
		}
	}
}

// signingLink is the link of the last signing e-mail of a request to the
// signer of signatureID ("" when there is none).
func signingLink(srv *sandboxtest.Server, requestID, signatureID string) string {
	var link string
	for _, m := range srv.Emails("signature_request_id", requestID) {
		if m.SignatureID == signatureID && m.Kind == "signature_request" {
			link = m.Link
		}
	}
	return link
}
