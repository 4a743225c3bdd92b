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

// ttTemplateBody is a template/create body with two roles and no given
// fields (form_fields_per_document is required, and may be empty).
func ttTemplateBody() map[string]any {
	return map[string]any{
		"title":                    "Tagged template",
		"test_mode":                true,
		"signer_roles":             []map[string]any{{"name": "Client", "order": 0}, {"name": "Witness", "order": 1}},
		"form_fields_per_document": []map[string]any{},
	}
}

// ttCreateTemplate creates a template and answers its id.
func ttCreateTemplate(t *testing.T, srv *sandboxtest.Server, body map[string]any, files ...apitest.File) string {
	t.Helper()
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create", body, files...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["template"].(map[string]any)["template_id"].(string)
}

// ttTemplateFields maps the fields of a template's first document by
// api_id (form fields and custom fields).
func ttTemplateFields(t *testing.T, srv *sandboxtest.Server, id string) (map[string]map[string]any, map[string]any) {
	t.Helper()
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)
	doc := tpl["documents"].([]any)[0].(map[string]any)
	out := map[string]map[string]any{}
	for _, key := range []string{"form_fields", "custom_fields"} {
		for _, f := range doc[key].([]any) {
			m := f.(map[string]any)
			out[m["api_id"].(string)] = m
		}
	}
	return out, doc
}

func TestTextTagsTemplate(t *testing.T) {
	srv := apitest.NewServer(t)
	body := ttTemplateBody()
	body["use_text_tags"] = true
	body["hide_text_tags"] = true
	id := ttCreateTemplate(t, srv, body, ttTxt("terms.txt", "Client: [sig|req|signer1|Client signs|client_sig]\n"+
		"Witness: [text|req|signer2|Witness name|wit_name|letters_only]\nCompany: [text-merge|req|sender|company]\n"))
	srv.Advance(apitest.TemplatePrepDelay)
	require.Len(t, srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("template_created")), 1)

	fields, _ := ttTemplateFields(t, srv, id)
	require.Contains(t, fields, "client_sig")
	assert.Equal(t, "signature", fields["client_sig"]["type"])
	assert.Equal(t, "1", fields["client_sig"]["signer"], "the first role (templates show 1-based role numbers)")
	assert.Equal(t, "Client signs", fields["client_sig"]["name"])
	// "Client: " is 8 characters of 5.4 points from x=54; line 1's box top
	// is 58 points from the top.
	assert.EqualValues(t, 97, fields["client_sig"]["x"])
	assert.EqualValues(t, 58, fields["client_sig"]["y"])
	require.Contains(t, fields, "wit_name")
	assert.Equal(t, "2", fields["wit_name"]["signer"])
	assert.Equal(t, "text", fields["wit_name"]["type"])
	require.Contains(t, fields, "texttag_0_2", "a tag without an id gets one from its place")
	assert.Equal(t, "text", fields["texttag_0_2"]["type"], "merge fields show as text custom fields")
	assert.Equal(t, "company", fields["texttag_0_2"]["name"])
	assert.Nil(t, fields["texttag_0_2"]["signer"])

	r := srv.Do(http.MethodGet, "/v3/template/files/"+id+"?file_type=pdf", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.NotContains(t, pdftest.Text(t, r.Body), "|req|", "hide_text_tags removed the tags from the template's document")

	send := map[string]any{
		"template_ids": []string{id},
		"test_mode":    true,
		"signers": []map[string]any{
			{"role": "Client", "name": "Carla Client", "email_address": "carla@example.com"},
			{"role": "Witness", "name": "Will Witness", "email_address": "will@example.com"},
		},
		"custom_fields": []map[string]any{{"name": "company", "value": "Acme Widgets"}},
	}
	sr := srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", send)
	require.Equal(t, http.StatusOK, sr.Status, "%s", sr.Body)
	reqID := ttRequestID(sr.Map())
	req := ttProcessed(t, srv, reqID)
	srv.Sign(apitest.SignatureID(req, 0), nil)
	srv.Sign(apitest.SignatureID(req, 1), map[string]any{"wit_name": "Wilma"})
	rd := apitest.ResponseData(apitest.GetRequestOK(t, srv, reqID))
	assert.Equal(t, "Wilma", rd["wit_name"]["value"])
	assert.Equal(t, "signature", rd["client_sig"]["type"])
	text := pdftest.Text(t, ttPDF(t, srv, reqID))
	assert.Contains(t, text, "Acme Widgets")
	assert.Contains(t, text, "Wilma")
}

func TestTextTagsTemplateError(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"signer beyond the roles", "[sig|req|signer3]", "signer3 is not a signer role of this template (it has 2)"},
		{"merge tag without a label", "[text-merge|req|sender]", "a merge tag needs a label"},
		{"unknown type", "[stamp|req|signer1]", `unknown type "stamp"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := apitest.NewServer(t)
			body := ttTemplateBody()
			body["use_text_tags"] = true
			id := ttCreateTemplate(t, srv, body, apitest.PDFUpload("t.pdf", pdftest.MakePDF(pdftest.Letter(c.text))))
			srv.Advance(apitest.TemplatePrepDelay)
			cbs := srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("template_error"))
			require.Len(t, cbs, 1)
			assert.Contains(t, cbs[0].EventMessage, c.msg)
			assert.Contains(t, cbs[0].EventMessage, "Document 0 (t.pdf): Invalid text tag "+c.text+" on page 1")
		})
	}
}

// Without use_text_tags a template's tags are plain text.
func TestTextTagsTemplateOff(t *testing.T) {
	srv := apitest.NewServer(t)
	id := ttCreateTemplate(t, srv, ttTemplateBody(), apitest.PDFUpload("t.pdf", pdftest.MakePDF(pdftest.Letter("[sig|req|signer9]"))))
	srv.Advance(apitest.TemplatePrepDelay)
	require.Len(t, srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("template_created")), 1)
	fields, _ := ttTemplateFields(t, srv, id)
	assert.Empty(t, fields)
}
