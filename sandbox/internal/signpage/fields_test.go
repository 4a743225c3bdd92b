package signpage_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// controlSign signs as a signer through the control plane and answers
// the status and body.
func controlSign(srv *sandboxtest.Server, sigID string, values map[string]any) *sandboxtest.Response {
	body := map[string]any{}
	if values != nil {
		body["values"] = values
	}
	return srv.Do(http.MethodPost, "/_sandbox/signatures/"+sigID+"/sign", body)
}

// samePagePost posts a page's form as the page itself does.
func samePagePost(t *testing.T, pageLink string, form url.Values) apitest.PageAnswer {
	t.Helper()
	u, err := url.Parse(pageLink)
	require.NoError(t, err)
	return apitest.PageDo(t, http.MethodPost, pageLink, form, map[string]string{"Origin": u.Scheme + "://" + u.Host, "Sec-Fetch-Site": "same-origin"})
}

// pageGet fetches a path of the host a page link is on.
func pageGet(t *testing.T, pageLink, path string) apitest.PageAnswer {
	t.Helper()
	u, err := url.Parse(pageLink)
	require.NoError(t, err)
	return apitest.PageDo(t, http.MethodGet, u.Scheme+"://"+u.Host+path, nil, nil)
}

// twoSignersNoFields is an embedded request for Jack and Jill sent without
// fields: it gets the appended signature page.
func twoSignersNoFields(t *testing.T, srv *sandboxtest.Server) map[string]any {
	t.Helper()
	r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", map[string]any{
		"title": "Field-less NDA", "client_id": apitest.ClientID, "test_mode": true,
		"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	return r.Map()["signature_request"].(map[string]any)
}

// TestAppendedSignaturePageIsSignedInEachSignersBox: a request without
// fields is signed on its appended signature page. The signing page shows
// that page after the documents with one box per signer and the signer's
// own box as their required signature field; a typed signature stays as
// typed in response_data (one signature entry per signer, api_id
// signature_page_N); the control plane's sign without values signs in the
// signer's name; the merged PDF's signature page shows each signature.
func TestAppendedSignaturePageIsSignedInEachSignersBox(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := twoSignersNoFields(t, srv)
	id, jack, jill := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0), apitest.SignatureID(sr, 1)
	signURL := signURLOf(t, srv, jack)

	page := apitest.PageDo(t, http.MethodGet, pageURL(signURL), nil, nil)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	checkPagePolicy(t, page)
	view := pageView(t, page.Body)
	docs := view["documents"].([]any)
	require.Len(t, docs, 2, "the document and the appended signature page")
	sp := docs[1].(map[string]any)
	assert.Equal(t, "Signature page", sp["name"])
	fieldsOnPage := view["fields"].([]any)
	require.Len(t, fieldsOnPage, 1, "Jack's box is his one field")
	box := fieldsOnPage[0].(map[string]any)
	assert.Equal(t, "signature_page_1", box["api_id"])
	assert.Equal(t, "signature", box["type"])
	assert.Equal(t, true, box["required"])
	assert.EqualValues(t, 1, box["document_index"])
	appended := view["signature_page"].(map[string]any)
	boxes := appended["boxes"].([]any)
	require.Len(t, boxes, 2, "one box per signer")
	assert.Equal(t, true, boxes[0].(map[string]any)["mine"])
	assert.Equal(t, false, boxes[1].(map[string]any)["mine"])
	assert.Equal(t, "Jill", boxes[1].(map[string]any)["name"])

	doc := pageGet(t, signURL, sp["url"].(string))
	require.Equal(t, http.StatusOK, doc.Status, doc.Body)
	assert.Equal(t, "application/pdf", doc.Header.Get("Content-Type"))
	text := apitest.PDFText(t, []byte(doc.Body))
	for _, want := range []string{"Signature page", "jack@example.com", "jill@example.com", "(not signed)"} {
		assert.Contains(t, text, want)
	}

	// Jill cannot sign in Jack's box.
	r := controlSign(srv, jill, map[string]any{"signature_page_1": "Jill"})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "values[signature_page_1]")

	done := samePagePost(t, pageURL(signURL), url.Values{"action": {"sign"}, "values": {`{"signature_page_1":"Jack Example"}`}})
	require.Equal(t, http.StatusOK, done.Status, done.Body)
	got := apitest.GetRequestOK(t, srv, id)
	rd := apitest.ResponseData(got)
	require.Contains(t, rd, "signature_page_1")
	assert.Equal(t, map[string]any{"api_id": "signature_page_1", "signature_id": jack, "name": "Signature", "type": "signature",
		"required": true, "value": "Jack Example", "is_signed": true}, rd["signature_page_1"], "the typed signature, as typed")
	assert.NotContains(t, rd, "signature_page_2", "Jill has not signed")

	// Jill's page shows Jack's box signed; the page itself shows his signature.
	jillPage := pageView(t, apitest.PageDo(t, http.MethodGet, pageURL(signURLOf(t, srv, jill)), nil, nil).Body)
	jillBoxes := jillPage["signature_page"].(map[string]any)["boxes"].([]any)
	assert.Equal(t, true, jillBoxes[0].(map[string]any)["signed"])
	assert.Equal(t, true, jillBoxes[1].(map[string]any)["mine"])
	assert.Equal(t, "signature_page_2", jillPage["fields"].([]any)[0].(map[string]any)["api_id"])

	// The control plane signs Jill's box with a sample signature: her name.
	r = controlSign(srv, jill, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got = apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, got["is_complete"])
	rd = apitest.ResponseData(got)
	assert.Equal(t, "Jill", rd["signature_page_2"]["value"])
	assert.Equal(t, jill, rd["signature_page_2"]["signature_id"])

	srv.Advance(5 * time.Minute)
	f := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=pdf", nil)
	require.Equal(t, http.StatusOK, f.Status, "%s", f.Body)
	merged := apitest.PDFText(t, f.Body)
	sigPage := merged[strings.Index(merged, "Signature page"):]
	assert.Equal(t, 1, strings.Count(sigPage, "Jack Example"), "Jack's typed signature, once, in his box:\n%s", sigPage)
	assert.Contains(t, sigPage, "Jill")
	assert.NotContains(t, sigPage, "(not signed)", "both boxes are signed")
	assert.Equal(t, 2, strings.Count(sigPage, "Status: signed"))
}

// linkedRequest is an embedded request for one signer with linked text
// fields (a and b share link_id addr; z shares it but is a ZIP code) and
// the second signer's field with the same link_id.
func linkedRequest(t *testing.T, srv *sandboxtest.Server, extra ...map[string]any) map[string]any {
	t.Helper()
	f := func(id string, signer int, required bool, more map[string]any) map[string]any {
		m := map[string]any{"document_index": 0, "api_id": id, "name": strings.ToUpper(id), "type": "text", "x": 100, "y": 100 + 40*len(id),
			"width": 200, "height": 24, "required": required, "signer": signer, "page": 1, "link_id": "addr"}
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	fields := []map[string]any{f("a", 0, true, nil), f("b", 0, false, nil), f("other", 1, false, nil),
		{"document_index": 0, "api_id": "sig", "type": "signature", "x": 100, "y": 400, "width": 200, "height": 40, "required": true, "signer": 0, "page": 1}}
	fields = append(fields, extra...)
	r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", map[string]any{
		"title": "Linked", "client_id": apitest.ClientID, "test_mode": true, "form_fields_per_document": fields,
		"signers": []map[string]any{{"name": "Jack Example", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	return r.Map()["signature_request"].(map[string]any)
}

// TestLinkedFieldsAreFilledTogether: a value given for one linked field
// fills every field of the link in response_data (the signer's own; the
// other signer's field with the same link_id is theirs to fill); two
// different values for one link, or a value one of them does not
// validate, are refused; without values the link shares one sample.
func TestLinkedFieldsAreFilledTogether(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := linkedRequest(t, srv)
	id, jack := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)

	r := controlSign(srv, jack, map[string]any{"a": "12 Main St", "b": "13 Main St"})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "values[b]")
	assert.Contains(t, string(r.Body), "linked")

	r = controlSign(srv, jack, map[string]any{"a": "12 Main St"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	rd := apitest.ResponseData(apitest.GetRequestOK(t, srv, id))
	assert.Equal(t, "12 Main St", rd["a"]["value"])
	assert.Equal(t, "12 Main St", rd["b"]["value"], "data typed in one fills the others")
	assert.NotContains(t, rd, "other", "the other signer's field is theirs")

	// Values given for both, equal, are accepted; the link's default without
	// values passes each field's validation.
	zip := map[string]any{"document_index": 0, "api_id": "z", "name": "ZIP", "type": "text", "x": 320, "y": 100, "width": 100, "height": 24,
		"required": false, "signer": 0, "page": 1, "link_id": "addr", "validation_type": "zip_code"}
	sr = linkedRequest(t, srv, zip)
	id, jack = sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	r = controlSign(srv, jack, map[string]any{"b": "12 Main St"})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "values[z]")
	r = controlSign(srv, jack, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	rd = apitest.ResponseData(apitest.GetRequestOK(t, srv, id))
	assert.Equal(t, "94105", rd["a"]["value"], "a sample every linked field accepts")
	assert.Equal(t, rd["a"]["value"], rd["b"]["value"])
	assert.Equal(t, rd["a"]["value"], rd["z"]["value"])
}

// TestAutoFillFieldsAreFilledWithTheSignersData: with
// populate_auto_fill_fields, auto-fill fields start with the signer's data
// on the signing page and keep it in response_data unless the signer
// changes it; company and title, which the sandbox does not know, stay
// empty unless required (then a simulated signer types a sample). Without
// the flag an optional auto-fill field stays empty.
func TestAutoFillFieldsAreFilledWithTheSignersData(t *testing.T) {
	srv := apitest.NewServer(t)
	auto := func(id, typ string, required bool, y int) map[string]any {
		return map[string]any{"document_index": 0, "api_id": id, "name": id, "type": "text", "auto_fill_type": typ, "x": 100, "y": y,
			"width": 200, "height": 24, "required": required, "signer": 0, "page": 1}
	}
	send := func(populate bool) map[string]any {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", map[string]any{
			"title": "Auto-fill", "client_id": apitest.ClientID, "test_mode": true, "populate_auto_fill_fields": populate,
			"signers": []map[string]any{{"name": "Jack Example", "email_address": "jack@example.com"}},
			"form_fields_per_document": []map[string]any{auto("full", "name", false, 100), auto("mail", "email", true, 140),
				auto("first", "firstName", false, 180), auto("last", "lastName", false, 220), auto("co", "company", false, 260),
				auto("job", "title", true, 300), auto("typed", "name", false, 340)},
		})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		srv.Advance(time.Minute)
		return r.Map()["signature_request"].(map[string]any)
	}

	sr := send(true)
	id, jack := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	view := pageView(t, apitest.PageDo(t, http.MethodGet, pageURL(signURLOf(t, srv, jack)), nil, nil).Body)
	shown := map[string]any{}
	for _, f := range view["fields"].([]any) {
		m := f.(map[string]any)
		shown[m["api_id"].(string)] = m["auto_fill_value"]
	}
	assert.Equal(t, map[string]any{"full": "Jack Example", "mail": "jack@example.com", "first": "Jack", "last": "Example", "co": nil, "job": nil, "typed": "Jack Example"}, shown)

	r := controlSign(srv, jack, map[string]any{"typed": "J. Example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := map[string]any{}
	for k, v := range apitest.ResponseData(apitest.GetRequestOK(t, srv, id)) {
		got[k] = v["value"]
	}
	assert.Equal(t, map[string]any{"full": "Jack Example", "mail": "jack@example.com", "first": "Jack", "last": "Example", "co": "",
		"job": "Signer", "typed": "J. Example"}, got)

	sr = send(false)
	id, jack = sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)
	view = pageView(t, apitest.PageDo(t, http.MethodGet, pageURL(signURLOf(t, srv, jack)), nil, nil).Body)
	for _, f := range view["fields"].([]any) {
		assert.Nil(t, f.(map[string]any)["auto_fill_value"], "nothing is filled without populate_auto_fill_fields")
	}
	require.Equal(t, http.StatusOK, controlSign(srv, jack, nil).Status)
	rd := apitest.ResponseData(apitest.GetRequestOK(t, srv, id))
	assert.Equal(t, "", rd["full"]["value"], "an optional auto-fill field stays empty without the flag")
	assert.Equal(t, "jack@example.com", rd["mail"]["value"], "a required one gets what a click-through signer types")
}

// TestAutoFillThroughTemplatesAndDrafts: populate_auto_fill_fields is read
// on the other operations that take it too: a request from a template
// (create_embedded_with_template) and an embedded unclaimed draft, once
// sent.
func TestAutoFillThroughTemplatesAndDrafts(t *testing.T) {
	srv := apitest.NewServer(t)
	nameField := map[string]any{"document_index": 0, "api_id": "who", "name": "Name", "type": "text", "auto_fill_type": "name",
		"x": 100, "y": 100, "width": 200, "height": 24, "required": false, "signer": 0, "page": 1}

	tplID := apitest.CreateTemplate(t, srv, srv.APIKey, map[string]any{"title": "Auto-fill template", "signer_roles": []map[string]any{{"name": "Client"}},
		"form_fields_per_document": []map[string]any{nameField}})
	srv.Advance(apitest.TemplatePrepDelay)
	r := srv.Do(http.MethodPost, "/v3/signature_request/create_embedded_with_template", map[string]any{
		"client_id": apitest.ClientID, "template_ids": []string{tplID}, "test_mode": true, "populate_auto_fill_fields": true,
		"signers": []map[string]any{{"role": "Client", "name": "Tia Template", "email_address": "tia@example.com"}},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr := r.Map()["signature_request"].(map[string]any)
	srv.Advance(time.Minute)
	require.Equal(t, http.StatusOK, controlSign(srv, apitest.SignatureID(sr, 0), nil).Status)
	assert.Equal(t, "Tia Template", apitest.ResponseData(apitest.GetRequestOK(t, srv, sr["signature_request_id"].(string)))["who"]["value"])

	d := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create_embedded", map[string]any{
		"client_id": apitest.ClientID, "test_mode": true, "requester_email_address": "owner@sandbox.example", "populate_auto_fill_fields": true,
		"signers":                  []map[string]any{{"name": "Dora Draft", "email_address": "dora@example.com"}},
		"form_fields_per_document": []map[string]any{nameField},
	}, apitest.PDFFile{Name: "d.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, d.Status, "%s", d.Body)
	draft := d.Map()["unclaimed_draft"].(map[string]any)
	claim := draft["claim_url"].(string)
	require.Equal(t, http.StatusOK, apitest.PageDo(t, http.MethodGet, claim, nil, nil).Status)
	sent := samePagePost(t, claim, url.Values{"signer_name": {"Dora Draft"}, "signer_email": {"dora@example.com"}})
	require.Equal(t, http.StatusOK, sent.Status, sent.Body)
	srv.Advance(time.Minute)
	id := draft["signature_request_id"].(string)
	req := apitest.GetRequestOK(t, srv, id)
	require.Equal(t, http.StatusOK, controlSign(srv, apitest.SignatureID(req, 0), nil).Status)
	assert.Equal(t, "Dora Draft", apitest.ResponseData(apitest.GetRequestOK(t, srv, id))["who"]["value"])
}
