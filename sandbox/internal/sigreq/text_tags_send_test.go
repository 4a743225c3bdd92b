package sigreq_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// ttContract is a text file with a tag of every type (typeset by the
// sandbox in 9-point Courier, 5.4 points per character, from x=54).
const ttContract = `Agreement between the parties.
Signature: [sig|req|signer1|Alice signs|alice_sig]
Date: [date|req|signer1]
Name: [text|req|signer2|Full name|bob_name|letters_only]
Initials: [initial|noreq|signer2]
Agree: [check|noreq|signer2||bob_agree]
Company: [text-merge|req|sender|company|company_id]
`

// ttStoredRequest reads a request as the world stores it (its form
// fields, which the API shows only through response_data).
func ttStoredRequest(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
	t.Helper()
	return apitest.ExportedRow(t, srv, "signature_requests", "signature_request_id", id) // template_overlay_test.go
}

func TestTextTagsSendEndToEnd(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TextTagsBody()
	body["custom_fields"] = []map[string]any{{"name": "company", "value": "Acme Widgets"}}
	resp := apitest.SendFiles(t, srv, body,
		ttTxt("contract.txt", ttContract),
		apitest.PDFUpload("page.pdf", pdftest.MakePDF(pdftest.Letter("Bob: [sig|req|signer2||bob_sig]"))))
	id := ttRequestID(resp)
	assert.Equal(t, []string{"non_pdf_text_tags"}, ttWarnings(resp), "the .txt file is not a PDF")

	sr := ttProcessed(t, srv, id)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	assert.Equal(t, false, sr["has_error"])
	assert.Contains(t, apitest.EventTypes(srv, id), "signature_request_sent")

	stored := ttStoredRequest(t, srv, id)
	assert.Equal(t, false, stored["append_signature_page"], "text tags place the fields: no signature page")
	type field struct {
		APIID, Type, Signer, Name string
		Doc, Page, X, Y, W, H     int
		Required                  bool
	}
	var got []field
	for _, f := range stored["form_fields"].([]any) {
		m := f.(map[string]any)
		name, _ := m["name"].(string)
		got = append(got, field{APIID: m["api_id"].(string), Type: m["type"].(string), Signer: m["signer"].(string), Name: name,
			Doc: int(m["document_index"].(float64)), Page: int(m["page"].(float64)), X: int(m["x"].(float64)), Y: int(m["y"].(float64)),
			W: int(m["width"].(float64)), H: int(m["height"].(float64)), Required: m["required"].(bool)})
	}
	// Line n of the text file has its baseline 12.15n points below the top
	// margin; a tag's box runs 0.8 of the font size above it and 0.2 below.
	// The PDF's tag (24-point Helvetica at x=72, baseline 700) is where
	// pdftotext -bbox puts it: 128.04 to 394.44.
	assert.Equal(t, []field{
		{"alice_sig", "signature", "0", "Alice signs", 0, 1, 113, 71, 211, 10, true},
		{"texttag_0_1", "date_signed", "0", "", 0, 1, 86, 83, 98, 10, true},
		{"bob_name", "text", "1", "Full name", 0, 1, 86, 95, 271, 10, true},
		{"texttag_0_3", "initials", "1", "", 0, 1, 108, 107, 125, 10, false},
		{"bob_agree", "checkbox", "1", "", 0, 1, 91, 119, 174, 10, false},
		{"company_id", "text-merge", "sender", "company", 0, 1, 102, 131, 228, 10, true},
		{"bob_sig", "signature", "1", "", 1, 1, 128, 72, 267, 25, true},
	}, got)
	validation := stored["form_fields"].([]any)[2].(map[string]any)["validation_type"]
	assert.Equal(t, "letters_only", validation)

	srv.Sign(apitest.SignatureID(sr, 0), nil)
	srv.Sign(apitest.SignatureID(sr, 1), map[string]any{"bob_name": "Robert", "bob_agree": true})
	sr = apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, sr["is_complete"])
	rd := apitest.ResponseData(sr)
	for id, typ := range map[string]string{"alice_sig": "signature", "texttag_0_1": "date_signed", "bob_name": "text",
		"texttag_0_3": "initials", "bob_agree": "checkbox", "bob_sig": "signature"} {
		require.Contains(t, rd, id)
		assert.Equal(t, typ, rd[id]["type"], id)
	}
	assert.Equal(t, "Robert", rd["bob_name"]["value"])
	assert.Equal(t, true, rd["bob_agree"]["value"])
	assert.Equal(t, "Full name", rd["bob_name"]["name"])
	assert.Equal(t, []any{map[string]any{"name": "company", "type": "text", "value": "Acme Widgets", "required": false,
		"api_id": "company_id", "editor": nil}}, sr["custom_fields"])

	pdf := ttPDF(t, srv, id)
	pdftest.Validate(t, pdf)
	text := pdftest.Text(t, pdf)
	for _, want := range []string{"Robert", "Acme Widgets", "Alice Archer", "Bob Baker", "[sig|req|signer1"} {
		assert.Contains(t, text, want, "stamps are drawn where the tags are; the tags stay without hide_text_tags")
	}
	assert.NotContains(t, text, "Signature page")
}

func TestTextTagsMalformed(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"unknown type", "Sign [signature|req|signer1]", `unknown type "signature"`},
		{"signer beyond the signers", "Sign [sig|req|signer3]", "signer3 is not a signer of this request (it has 2)"},
		{"bad signer", "Sign [sig|req|customer]", `"customer" is not signerN`},
		{"unknown validation type", "Name [text|req|signer1|Name|n|alphanumeric]", `unknown validation type "alphanumeric"`},
		{"unknown auto-fill type", "Name [text|req|signer1||||nickname]", `unknown auto-fill type "nickname"`},
		{"sender on a signature", "Sign [sig|req|sender]", "only text-merge and checkbox-merge"},
		{"duplicate id", "[sig|req|signer1||same] [text|req|signer2||same]", `the id "same" is used by more than one field`},
		{"too few parts", "Sign [sig|req]", "at least a type, a requirement and a signer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := apitest.NewServer(t)
			resp := apitest.SendFiles(t, srv, apitest.TextTagsBody(), apitest.PDFUpload("doc.pdf", pdftest.MakePDF(pdftest.Page{Width: 1200, Height: 792, Text: c.text})))
			id := ttRequestID(resp)
			assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(resp["signature_request"].(map[string]any)),
				"the call itself succeeds: the service finds bad tags while processing")
			sr := ttProcessed(t, srv, id)
			assert.Equal(t, []string{"error_text_tag", "error_text_tag"}, apitest.Statuses(sr))
			assert.Equal(t, true, sr["has_error"])
			assert.Contains(t, apitest.Signatures(sr)[0]["error"], c.msg)
			assert.Contains(t, apitest.Signatures(sr)[0]["error"], "Document 0 (doc.pdf): Invalid text tag [")
			events := apitest.EventTypes(srv, id)
			assert.Contains(t, events, "signature_request_invalid")
			assert.NotContains(t, events, "signature_request_sent")
			cbs := srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_invalid"))
			require.Len(t, cbs, 1)
			assert.Contains(t, cbs[0].EventMessage, c.msg)
			r := srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil)
			assert.Equal(t, http.StatusConflict, r.Status, "a request in error cannot be signed")
		})
	}
}

// A file that cannot be read is error_file, whatever its tags: the service
// converts files before it reads tags.
func TestTextTagsFileErrorComesFirst(t *testing.T) {
	srv := apitest.NewServer(t)
	resp := apitest.SendFiles(t, srv, apitest.TextTagsBody(),
		apitest.PDFUpload("bad-tags.pdf", pdftest.MakePDF(pdftest.Letter("[nope|req|signer1]"))),
		apitest.PDFUpload("broken.pdf", []byte("%PDF-1.4\nnot really\n%%EOF\n")))
	sr := ttProcessed(t, srv, ttRequestID(resp))
	assert.Equal(t, []string{"error_file", "error_file"}, apitest.Statuses(sr))
}

func TestTextTagsHidden(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TextTagsBody()
	body["hide_text_tags"] = true
	resp := apitest.SendFiles(t, srv, body,
		apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("Alice [sig|req|signer1] end"))),
		ttTxt("b.txt", "Bob signs here: [sig|req|signer2|Bob|bob] thanks\n"))
	id := ttRequestID(resp)
	sr := ttProcessed(t, srv, id)
	require.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	srv.Sign(apitest.SignatureID(sr, 1), nil)

	pdf := ttPDF(t, srv, id)
	pdftest.Validate(t, pdf)
	pdftest.Render(t, pdf)
	text := pdftest.Text(t, pdf)
	assert.NotContains(t, text, "|req|", "hide_text_tags removes the tags from the documents")
	for _, want := range []string{"Alice", "end", "Bob signs here:", "thanks", "Alice Archer", "Bob Baker"} {
		assert.Contains(t, text, want)
	}
	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=zip", nil)
	require.Equal(t, http.StatusOK, r.Status)
	_, docs := pdftest.Unzip(t, r.Body)
	require.Len(t, docs, 2)
	assert.NotContains(t, pdftest.Text(t, docs[0]), "|req|")
}

func TestTextTagsWarnings(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer1]")))
	t.Run("PDFs only: no warning", func(t *testing.T) {
		assert.Empty(t, ttWarnings(apitest.SendFiles(t, srv, apitest.TextTagsBody(), pdf)))
	})
	t.Run("a text file with text tags", func(t *testing.T) {
		assert.Equal(t, []string{"non_pdf_text_tags"}, ttWarnings(apitest.SendFiles(t, srv, apitest.TextTagsBody(), pdf, ttTxt("b.txt", "no tags"))))
	})
	t.Run("an office document with text tags", func(t *testing.T) {
		docx := apitest.File{Name: "c.docx", ContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			Data: []byte("PK\x03\x04 not really a document")}
		assert.Equal(t, []string{"non_pdf_text_tags"}, ttWarnings(apitest.SendFiles(t, srv, apitest.TextTagsBody(), docx)))
	})
	t.Run("a text file without use_text_tags", func(t *testing.T) {
		body := apitest.TextTagsBody()
		delete(body, "use_text_tags")
		resp := apitest.SendFiles(t, srv, body, ttTxt("b.txt", "[sig|req|signer1]"))
		assert.Empty(t, ttWarnings(resp))
		sr := ttProcessed(t, srv, ttRequestID(resp))
		assert.Equal(t, true, ttStoredRequest(t, srv, ttRequestID(resp))["append_signature_page"], "tags are plain text without use_text_tags")
		assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	})
}

// Text tags and form_fields_per_document together: the given fields come
// first; tag ids must not repeat theirs.
func TestTextTagsWithFormFields(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TextTagsBody()
	body["form_fields_per_document"] = []map[string]any{{"document_index": 0, "api_id": "given", "type": "text", "x": 10, "y": 10,
		"width": 100, "height": 16, "required": false, "signer": 1, "page": 1}}
	resp := apitest.SendFiles(t, srv, body, apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer1||mine]"))))
	ttProcessed(t, srv, ttRequestID(resp))
	var ids []string
	for _, f := range ttStoredRequest(t, srv, ttRequestID(resp))["form_fields"].([]any) {
		ids = append(ids, f.(map[string]any)["api_id"].(string))
	}
	assert.Equal(t, []string{"given", "mine"}, ids)

	body["form_fields_per_document"].([]map[string]any)[0]["api_id"] = "mine"
	resp = apitest.SendFiles(t, srv, body, apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer1||mine]"))))
	sr := ttProcessed(t, srv, ttRequestID(resp))
	assert.Equal(t, []string{"error_text_tag", "error_text_tag"}, apitest.Statuses(sr))
}

// Embedded requests and edits read tags the same way: a request in
// error_text_tag can be edited with fixed documents.
func TestTextTagsEmbeddedAndEdit(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TextTagsBody()
	body["client_id"] = apitest.ClientID
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/create_embedded", body,
		apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer9]"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := ttRequestID(r.Map())
	sr := ttProcessed(t, srv, id)
	assert.Equal(t, []string{"error_text_tag", "error_text_tag"}, apitest.Statuses(sr))

	r = apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit_embedded/"+id, body,
		apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer2]"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr = ttProcessed(t, srv, id)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	fields := ttStoredRequest(t, srv, id)["form_fields"].([]any)
	require.Len(t, fields, 1)
	assert.Equal(t, "1", fields[0].(map[string]any)["signer"])
}

// What documents carry is part of the world's state: exported before
// processing and imported elsewhere, a request with a malformed tag still
// ends in error_text_tag, and the state reads back the same.
func TestTextTagsSurviveExport(t *testing.T) {
	srv := apitest.NewServer(t)
	bad := ttRequestID(apitest.SendFiles(t, srv, apitest.TextTagsBody(), apitest.PDFUpload("a.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer7]")))))
	good := ttRequestID(apitest.SendFiles(t, srv, apitest.TextTagsBody(), ttTxt("b.txt", "[sig|req|signer1] [text|noreq|signer2||n]")))
	body := ttTemplateBody()
	body["use_preexisting_fields"] = true
	ttCreateTemplate(t, srv, body, apitest.PDFUpload("form.pdf", ttFormPDF()))

	exported := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, exported.Status)
	other := apitest.NewServer(t)
	r := other.Do(http.MethodPut, "/_sandbox/state", exported.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	again := other.Do(http.MethodGet, "/_sandbox/state", nil)
	var a, b map[string]any
	require.NoError(t, json.Unmarshal(exported.Body, &a))
	require.NoError(t, json.Unmarshal(again.Body, &b))
	assert.Equal(t, a["tables"], b["tables"])

	assert.Equal(t, []string{"error_text_tag", "error_text_tag"}, apitest.Statuses(ttProcessed(t, other, bad)))
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(ttProcessed(t, other, good)))
}
