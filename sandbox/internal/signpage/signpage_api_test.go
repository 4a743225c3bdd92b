package signpage_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

var (
	pageViewRE   = regexp.MustCompile(`data-view="([^"]*)"`)
	pageScriptRE = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
)

// pageView decodes the JSON a page hands its document view.
func pageView(t *testing.T, page string) map[string]any {
	t.Helper()
	m := pageViewRE.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has a document view:\n%s", page)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &v))
	return v
}

// checkPagePolicy: the page's policy runs its one inline script (the
// hellosign-embedded protocol) by hash and nothing else inline.
func checkPagePolicy(t *testing.T, a apitest.PageAnswer) {
	t.Helper()
	csp := a.Header.Get("Content-Security-Policy")
	require.NotEmpty(t, csp)
	assert.Contains(t, csp, "default-src 'self'")
	assert.NotContains(t, csp, "unsafe-inline")
	assert.NotContains(t, csp, "unsafe-eval")
	assert.Equal(t, "nosniff", a.Header.Get("X-Content-Type-Options"))
	// Not no-referrer: under it a browser posts the page's own forms with
	// "Origin: null", which the edge refuses as another site's post.
	assert.Equal(t, "same-origin", a.Header.Get("Referrer-Policy"))
	scripts := pageScriptRE.FindAllStringSubmatch(a.Body, -1)
	require.Len(t, scripts, 1, "one inline script: the protocol's")
	sum := sha256.Sum256([]byte(scripts[0][1]))
	assert.Contains(t, csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "the policy allows the protocol script by its hash")
}

// fieldsRequest is an embedded request with fields of every kind a signer
// fills, for one signer.
func fieldsRequest(t *testing.T, srv *sandboxtest.Server, extra map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{
		"title": "Lease with fields", "client_id": apitest.ClientID, "test_mode": true,
		"signers": []map[string]any{{"name": "Fay Fields", "email_address": "fay@example.com"}},
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "company", "name": "Company", "type": "text", "x": 100, "y": 120, "width": 200, "height": 24, "required": true, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "zip", "name": "ZIP", "type": "text", "validation_type": "numbers_only", "x": 100, "y": 170, "width": 120, "height": 24, "required": false, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "agree", "name": "Agree", "type": "checkbox", "x": 100, "y": 220, "width": 16, "height": 16, "required": false, "is_checked": false, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "when", "name": "Date", "type": "date_signed", "x": 300, "y": 300, "width": 120, "height": 24, "required": true, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "sig", "name": "Signature", "type": "signature", "x": 100, "y": 300, "width": 180, "height": 40, "required": true, "signer": 0, "page": 1},
		},
	}
	for k, v := range extra {
		body[k] = v
	}
	r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	return r.Map()["signature_request"].(map[string]any)
}

func signURLOf(t *testing.T, srv *sandboxtest.Server, sigID string) string {
	t.Helper()
	r := apitest.SignURL(t, srv, sigID)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["embedded"].(map[string]any)["sign_url"].(string)
}

// TestSignPageShowsTheDocumentAndSignsWithValues: the signing page hands
// its document view the request's documents and the signer's fields; the
// document loads through the page's link; signing with the values the view
// collected puts them in response_data and, once the final copy is
// prepared, in the merged PDF's text.
func TestSignPageShowsTheDocumentAndSignsWithValues(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := fieldsRequest(t, srv, nil)
	id, sig := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	signURL := signURLOf(t, srv, sig)

	page := apitest.PageDo(t, http.MethodGet, pageURL(signURL), nil, nil)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	checkPagePolicy(t, page)
	assert.Empty(t, page.Header.Get("X-Frame-Options"), "an integrator's page frames the signing page")
	assert.Contains(t, page.Body, `src="/_sandbox/pages/sign.mjs"`)
	assert.Contains(t, page.Body, "Sign as Fay Fields")
	assert.NotContains(t, page.Body, `name="reason"`, "no decline form: the request does not allow declining")
	view := pageView(t, page.Body)
	assert.Equal(t, "Fay Fields", view["signer_name"])
	assert.Regexp(t, `^\d\d/\d\d/\d{4}$`, view["date_text"])
	docs := view["documents"].([]any)
	require.Len(t, docs, 1)
	var ids []string
	for _, f := range view["fields"].([]any) {
		ids = append(ids, f.(map[string]any)["api_id"].(string))
	}
	assert.Equal(t, []string{"company", "zip", "agree", "when", "sig"}, ids)

	docURL := docs[0].(map[string]any)["url"].(string)
	u, err := url.Parse(signURL)
	require.NoError(t, err)
	doc := apitest.PageDo(t, http.MethodGet, u.Scheme+"://"+u.Host+docURL, nil, nil)
	require.Equal(t, http.StatusOK, doc.Status, doc.Body)
	assert.Equal(t, "application/pdf", doc.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(doc.Body, "%PDF-"))
	missing := apitest.PageDo(t, http.MethodGet, u.Scheme+"://"+u.Host+strings.TrimSuffix(docURL, "0")+"7", nil, nil)
	assert.Equal(t, http.StatusNotFound, missing.Status)

	// A value the field's validation type refuses signs nothing.
	bad := apitest.PageDo(t, http.MethodPost, pageURL(signURL), url.Values{"action": {"sign"}, "values": {`{"company":"Acme","zip":"abc","sig":"Fay Fields"}`}},
		map[string]string{"Origin": u.Scheme + "://" + u.Host, "Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, http.StatusBadRequest, bad.Status, bad.Body)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))

	values := `{"company":"Acme Holdings","zip":"94105","agree":true,"sig":"Fay F. Fields"}`
	done := apitest.PageDo(t, http.MethodPost, pageURL(signURL), url.Values{"action": {"sign"}, "values": {values}},
		map[string]string{"Origin": u.Scheme + "://" + u.Host, "Sec-Fetch-Site": "same-origin"})
	require.Equal(t, http.StatusOK, done.Status, done.Body)
	msgs, _ := embeddedMessages(t, done.Body)
	assert.Equal(t, "hellosign:userSignRequest", msgs[0].Type)
	checkPagePolicy(t, done)

	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, got["is_complete"])
	byID := map[string]any{}
	for _, rd := range got["response_data"].([]any) {
		m := rd.(map[string]any)
		byID[m["api_id"].(string)] = m["value"]
	}
	assert.Equal(t, "Acme Holdings", byID["company"])
	assert.Equal(t, "94105", byID["zip"])
	assert.Equal(t, true, byID["agree"])
	assert.Equal(t, "Fay F. Fields", byID["sig"])

	srv.Advance(5 * time.Minute) // the final copy is prepared
	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=pdf", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	text := apitest.PDFText(t, r.Body)
	for _, want := range []string{"Acme Holdings", "94105", "Fay F. Fields", byID["when"].(string)} {
		assert.Contains(t, text, want, "the merged PDF shows the value the signer entered")
	}
}

// TestSignPageActionsWhereAllowed: decline and reassign appear only where
// the request allows them; reassigning from the page hands the signature
// on and tells hellosign-embedded; a post from another site changes
// nothing.
func TestSignPageActionsWhereAllowed(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := fieldsRequest(t, srv, map[string]any{"allow_decline": true, "allow_reassign": true})
	id, sig := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	signURL := signURLOf(t, srv, sig)
	page := apitest.PageDo(t, http.MethodGet, pageURL(signURL), nil, nil)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `value="decline"`)
	assert.Contains(t, page.Body, `value="reassign"`)

	for _, h := range []map[string]string{
		{"Origin": "https://evil.example"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site", "Origin": "https://sub.example"},
	} {
		a := apitest.PageDo(t, http.MethodPost, pageURL(signURL), url.Values{"action": {"sign"}}, h)
		assert.Equal(t, http.StatusForbidden, a.Status, "%v: %s", h, a.Body)
	}
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)), "the refused posts changed nothing")

	a := apitest.PageDo(t, http.MethodPost, pageURL(signURL), url.Values{"action": {"reassign"}, "name": {"Rita Reassigned"},
		"email_address": {"rita@example.com"}, "reason": {"on leave"}}, nil)
	require.Equal(t, http.StatusOK, a.Status, a.Body)
	msgs, _ := embeddedMessages(t, a.Body)
	assert.Equal(t, []embMessage{
		{Type: "hellosign:userReassignRequest", Payload: map[string]any{"signatureId": sig, "reason": "on leave"}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs)
	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, "rita@example.com", apitest.Signatures(got)[0]["signer_email_address"])
}

// TestPagesServeTheirAssets: the pages' scripts and styles are served with
// their types; nothing else is.
func TestPagesServeTheirAssets(t *testing.T) {
	srv := apitest.NewServer(t)
	for name, ct := range map[string]string{"sign.mjs": "text/javascript", "docview.mjs": "text/javascript",
		"fieldeditor.mjs": "text/javascript", "editor.mjs": "text/javascript", "claim.mjs": "text/javascript", "pages.css": "text/css"} {
		a := apitest.PageDo(t, http.MethodGet, srv.URL+"/_sandbox/pages/"+name, nil, nil)
		assert.Equal(t, http.StatusOK, a.Status, name)
		assert.Contains(t, a.Header.Get("Content-Type"), ct, name)
		assert.Equal(t, "nosniff", a.Header.Get("X-Content-Type-Options"), name)
	}
	for _, name := range []string{"nope.js", "..%2Fsignpage.go", "signpage.go", "assets"} {
		a := apitest.PageDo(t, http.MethodGet, srv.URL+"/_sandbox/pages/"+name, nil, nil)
		assert.Equal(t, http.StatusNotFound, a.Status, name)
	}
}

// TestSignPageShowsMergeFields: a request from a template shows the signer
// the merge fields the sender filled (custom_fields), with their values,
// beside the signer's own fields.
func TestSignPageShowsMergeFields(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	sr := apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(id))["signature_request"].(map[string]any)
	srv.Advance(time.Minute)
	var link string
	for _, m := range srv.Emails() {
		if m.SignatureRequestID == sr["signature_request_id"] && m.To == "carl@example.com" && strings.Contains(m.Link, "/sign/") {
			link = m.Link
		}
	}
	require.NotEmpty(t, link, "Carl's e-mail links to the signing page")
	page := apitest.PageDo(t, http.MethodGet, link, nil, nil)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	got := map[string]any{}
	for _, f := range pageView(t, page.Body)["fields"].([]any) {
		m := f.(map[string]any)
		got[m["api_id"].(string)] = m["value"]
	}
	assert.Contains(t, got, "sig_client", "the Client's own field")
	assert.NotContains(t, got, "wit_name", "not the Witness's")
	assert.Equal(t, "Jane Q. Public", got["merge_name"])
	assert.Contains(t, got, "merge_reg")
}
