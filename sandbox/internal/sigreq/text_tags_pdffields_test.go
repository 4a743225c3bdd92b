package sigreq_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// ttFormPDF is a PDF with one field of every kind the sandbox reads, and a
// read-only field and a push button it leaves out.
func ttFormPDF() []byte {
	return pdftest.MakeFormPDF(1,
		pdftest.FormField{Name: "full_name", Type: "Tx", Flags: 2, Page: 1, Rect: [4]float64{100, 600, 300, 620}},
		pdftest.FormField{Name: "agree", Type: "Btn", Page: 1, Rect: [4]float64{100, 560, 112, 572}, On: true},
		pdftest.FormField{Group: "plan", Type: "Btn", Flags: 2, Page: 1, Rect: [4]float64{100, 500, 112, 512}},
		pdftest.FormField{Group: "plan", Type: "Btn", Flags: 2, Page: 1, Rect: [4]float64{150, 500, 162, 512}, On: true},
		pdftest.FormField{Name: "color", Type: "Ch", Page: 1, Rect: [4]float64{100, 450, 200, 470}, Options: []string{"Red", "Green"}},
		pdftest.FormField{Name: "sign_here", Type: "Sig", Page: 1, Rect: [4]float64{72, 100, 272, 150}},
		pdftest.FormField{Name: "office_use", Type: "Tx", Flags: 1, Page: 1, Rect: [4]float64{400, 100, 500, 120}},
		pdftest.FormField{Name: "reset", Type: "Btn", Flags: 1 << 16, Page: 1, Rect: [4]float64{300, 450, 360, 470}},
	)
}

func TestPreexistingFieldsTemplate(t *testing.T) {
	srv := apitest.NewServer(t)
	body := ttTemplateBody()
	body["use_preexisting_fields"] = true
	body["form_fields_per_document"] = []map[string]any{{"document_index": 0, "api_id": "full_name", "name": "Given", "type": "date_signed",
		"x": 300, "y": 300, "width": 100, "height": 20, "required": true, "signer": 1, "page": 1}}
	id := ttCreateTemplate(t, srv, body, apitest.PDFUpload("form.pdf", ttFormPDF()))
	srv.Advance(apitest.TemplatePrepDelay)
	require.Len(t, srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("template_created")), 1)

	fields, doc := ttTemplateFields(t, srv, id)
	type f struct {
		Type, Signer, Name string
		X, Y, W, H         float64
		Required           bool
	}
	got := map[string]f{}
	for apiID, m := range fields {
		got[apiID] = f{m["type"].(string), m["signer"].(string), m["name"].(string), m["x"].(float64), m["y"].(float64),
			m["width"].(float64), m["height"].(float64), m["required"].(bool)}
	}
	assert.Equal(t, map[string]f{
		"full_name":   {"date_signed", "2", "Given", 300, 300, 100, 20, true},
		"full_name_2": {"text", "1", "full_name", 100, 172, 200, 20, true},
		"agree":       {"checkbox", "1", "agree", 100, 220, 12, 12, false},
		"plan_1":      {"radio", "1", "plan", 100, 280, 12, 12, false},
		"plan_2":      {"radio", "1", "plan", 150, 280, 12, 12, false},
		"color":       {"dropdown", "1", "color", 100, 322, 100, 20, false},
		"sign_here":   {"signature", "1", "sign_here", 72, 642, 200, 50, false},
	}, got, "the given field keeps its api_id; PDF fields go to the first role; read-only fields and push buttons are left out")
	assert.Equal(t, "plan", fields["plan_1"]["group"])
	groups := doc["field_groups"].([]any)
	require.Len(t, groups, 1)
	assert.Equal(t, "plan", groups[0].(map[string]any)["name"])
}

func TestPreexistingFieldsDraft(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.DraftBody()
	body["use_preexisting_fields"] = true
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create", body, apitest.PDFUpload("form.pdf", ttFormPDF()))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
	sr := srv.ClaimDraft(id, nil)
	require.Equal(t, id, sr["signature_request_id"])
	ttProcessed(t, srv, id)

	stored := ttStoredRequest(t, srv, id)
	var ids []string
	for _, f := range stored["form_fields"].([]any) {
		m := f.(map[string]any)
		ids = append(ids, m["api_id"].(string))
		assert.Equal(t, "0", m["signer"], "PDF fields are the first signer's")
	}
	assert.Equal(t, []string{"full_name", "agree", "plan_1", "plan_2", "color", "sign_here"}, ids)
	assert.Equal(t, []any{map[string]any{"group_id": "plan", "group_label": "plan", "requirement": "require_1"}}, stored["field_groups"])
	assert.Equal(t, false, stored["append_signature_page"])

	sr = apitest.GetRequestOK(t, srv, id)
	srv.Sign(apitest.SignatureID(sr, 0), map[string]any{"full_name": "Jack Jones", "color": "Green"})
	rd := apitest.ResponseData(apitest.GetRequestOK(t, srv, id))
	assert.Equal(t, "Jack Jones", rd["full_name"]["value"])
	assert.Equal(t, "Green", rd["color"]["value"])
	assert.Equal(t, true, rd["plan_2"]["value"], "the button that was on stays on")
}

func TestPreexistingFieldsOff(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create", apitest.DraftBody(), apitest.PDFUpload("form.pdf", ttFormPDF()))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
	srv.ClaimDraft(id, nil)
	stored := ttStoredRequest(t, srv, id)
	assert.Nil(t, stored["form_fields"])
	assert.Equal(t, true, stored["append_signature_page"])
}

// Drafts read text tags too; the claim checks their signers like given
// fields, and a malformed tag fails the request once it is sent.
func TestTextTagsDraft(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.DraftBody()
	body["use_text_tags"] = true
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create", body,
		apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer1||jack_sig]"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
	srv.ClaimDraft(id, nil)
	sr := ttProcessed(t, srv, id)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(sr))
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	assert.Contains(t, apitest.ResponseData(apitest.GetRequestOK(t, srv, id)), "jack_sig")

	r = apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create", body,
		apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer1|||bogus]"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id = r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
	srv.ClaimDraft(id, nil)
	sr = ttProcessed(t, srv, id)
	assert.Equal(t, []string{"error_text_tag"}, apitest.Statuses(sr))
	assert.Contains(t, apitest.EventTypes(srv, id), "signature_request_invalid")

	body["use_preexisting_fields"] = true
	r = apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create", body, apitest.PDFUpload("a.pdf", ttFormPDF()))
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "use_preexisting_fields")
}

// unclaimed_draft/create_embedded_with_template parses the files given
// with the templates for text tags (it has no use_text_tags); tags for
// signers the templates do not have are ignored.
func TestTextTagsDraftWithTemplateFiles(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.ReadyTemplate(t, srv)
	body := map[string]any{
		"client_id":               apitest.ClientID,
		"template_ids":            []string{tid},
		"requester_email_address": "requester@example.com",
		"signers": []map[string]any{
			{"role": "Client", "name": "Carla", "email_address": "carla@example.com"},
			{"role": "Witness", "name": "Will", "email_address": "will@example.com"},
		},
		"ccs":       []map[string]any{{"role": "Manager", "email_address": "manager@example.com"}},
		"test_mode": true,
	}
	draft := func(text string) string {
		t.Helper()
		r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create_embedded_with_template", body,
			apitest.PDFUpload("extra.pdf", pdftest.MakePDF(pdftest.Page{Width: 1200, Height: 792, Text: text})))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
		srv.ClaimDraft(id, nil)
		return id
	}

	id := draft("[sig|req|signer2||wit_extra] [text|req|signer5]")
	sr := ttProcessed(t, srv, id)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	var extra []map[string]any
	for _, f := range ttStoredRequest(t, srv, id)["form_fields"].([]any) {
		if m := f.(map[string]any); m["document_index"].(float64) == 1 {
			extra = append(extra, m)
		}
	}
	require.Len(t, extra, 1, "the tag for signer5 is ignored")
	assert.Equal(t, "wit_extra", extra[0]["api_id"])
	assert.Equal(t, "1", extra[0]["signer"], "signer2 is the second role, Witness")

	id = draft("[bogus|req|signer1]")
	assert.Equal(t, []string{"error_text_tag", "error_text_tag"}, apitest.Statuses(ttProcessed(t, srv, id)))
}
