package apitest

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Signature requests: fixtures and calls the tests of several packages share.

// PDF is a valid PDF of n letter pages.
func PDF(n int) []byte {
	pages := make([]pdftest.Page, n)
	for i := range pages {
		pages[i] = pdftest.Letter(fmt.Sprintf("Page %d", i+1))
	}
	return pdftest.MakePDF(pages...)
}

// TwoSigners is a send body with two ordered signers and a CC.
func TwoSigners() map[string]any {
	return map[string]any{
		"title":   "NDA with Acme Co.",
		"subject": "The NDA we talked about",
		"message": "Please sign.",
		"signers": []map[string]any{
			{"name": "Jack", "email_address": "jack@example.com", "order": 0},
			{"name": "Jill", "email_address": "jill@example.com", "order": 1},
		},
		"cc_email_addresses": []string{"lawyer@example.com"},
		"metadata":           map[string]any{"custom_id": 1234, "custom_text": "NDA #9"},
		"test_mode":          true,
	}
}

// CreateRequest sends a create body with one 1-page PDF and returns the
// response.
func CreateRequest(t *testing.T, srv *sandboxtest.Server, key, path string, fields map[string]any) *sandboxtest.Response {
	t.Helper()
	return SendPDFs(t, srv, key, http.MethodPost, "/v3/signature_request/"+path, fields, PDFFile{Name: "nda.pdf", Data: PDF(1)})
}

// SendRequest sends a request and fails unless it is accepted.
func SendRequest(t *testing.T, srv *sandboxtest.Server, fields map[string]any) map[string]any {
	t.Helper()
	r := CreateRequest(t, srv, srv.APIKey, "send", fields)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

// GetRequest reads a request as key.
func GetRequest(t *testing.T, srv *sandboxtest.Server, key, id string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs(key, http.MethodGet, "/v3/signature_request/"+id, nil)
}

// GetRequestOK reads a request and fails unless it is answered.
func GetRequestOK(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
	t.Helper()
	r := GetRequest(t, srv, srv.APIKey, id)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

// Signatures lists the signatures of a request.
func Signatures(sr map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range sr["signatures"].([]any) {
		out = append(out, s.(map[string]any))
	}
	return out
}

// SignatureID is the signature_id of the i-th signer.
func SignatureID(sr map[string]any, i int) string { return Signatures(sr)[i]["signature_id"].(string) }

// Statuses lists the status codes of a request's signatures.
func Statuses(sr map[string]any) []string {
	var out []string
	for _, s := range Signatures(sr) {
		out = append(out, s["status_code"].(string))
	}
	return out
}

// EventTypes lists the event types emitted for an object, in order.
func EventTypes(srv *sandboxtest.Server, id string) []string {
	var out []string
	for _, c := range srv.Callbacks(sandboxtest.ObjectID(id)) {
		out = append(out, c.EventType)
	}
	return out
}

// ListRequests lists as key with query parameters.
func ListRequests(t *testing.T, srv *sandboxtest.Server, key string, params url.Values) *sandboxtest.Response {
	t.Helper()
	path := "/v3/signature_request/list"
	if len(params) > 0 {
		path += "?" + params.Encode()
	}
	return srv.DoAs(key, http.MethodGet, path, nil)
}

// ListRequestIDs lists and returns the ids and list_info.
func ListRequestIDs(t *testing.T, srv *sandboxtest.Server, key string, params url.Values) ([]string, map[string]any) {
	t.Helper()
	r := ListRequests(t, srv, key, params)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	m := r.Map()
	var ids []string
	for _, x := range m["signature_requests"].([]any) {
		ids = append(ids, x.(map[string]any)["signature_request_id"].(string))
	}
	return ids, m["list_info"].(map[string]any)
}

// CreateEmbeddedRequest creates an embedded request of TwoSigners for the
// fixture app (declining allowed) and returns it.
func CreateEmbeddedRequest(t *testing.T, srv *sandboxtest.Server) map[string]any {
	t.Helper()
	body := TwoSigners()
	body["client_id"] = ClientID
	body["allow_decline"] = true
	r := CreateRequest(t, srv, srv.APIKey, "create_embedded", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}
func SignURL(t *testing.T, srv *sandboxtest.Server, sigID string) *sandboxtest.Response {
	t.Helper()
	return srv.Do(http.MethodGet, "/v3/embedded/sign_url/"+sigID, nil)
}

// FieldsBody is a valid send body with form fields of several types,
// groups and a conditional-logic rule; the bad-input cases each break one
// rule of it.
func FieldsBody() map[string]any {
	field := func(id, typ string, signer any, extra map[string]any) map[string]any {
		f := map[string]any{"api_id": id, "name": id, "type": typ, "document_index": 0, "page": 1,
			"x": 100, "y": 100, "width": 100, "height": 20, "required": false, "signer": signer}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	return map[string]any{
		"title": "Fields", "test_mode": true,
		"signers": []map[string]any{
			{"name": "Jack", "email_address": "jack@example.com"},
			{"name": "Jill", "email_address": "jill@example.com"},
		},
		"form_fields_per_document": []map[string]any{
			field("f_text", "text", 0, map[string]any{"validation_type": "numbers_only"}),
			field("f_chk1", "checkbox", 0, map[string]any{"group": "g_chk", "is_checked": false}),
			field("f_chk2", "checkbox", 0, map[string]any{"group": "g_chk", "is_checked": false}),
			field("f_radio1", "radio", 1, map[string]any{"group": "g_radio", "is_checked": true}),
			field("f_radio2", "radio", 1, map[string]any{"group": "g_radio", "is_checked": false}),
			field("f_dd", "dropdown", 0, map[string]any{"options": []string{"a", "b"}}),
			field("f_sig0", "signature", 0, map[string]any{"required": true}),
			field("f_sig1", "signature", "1", map[string]any{"required": true}),
			field("f_date", "date_signed", 1, nil),
		},
		"form_field_groups": []map[string]any{
			{"group_id": "g_chk", "group_label": "Checks", "requirement": "require_0-1"},
			{"group_id": "g_radio", "group_label": "Radios", "requirement": "require_1"},
		},
		"form_field_rules": []map[string]any{{
			"id": "r1", "trigger_operator": "AND",
			"triggers": []map[string]any{{"id": "f_dd", "operator": "is", "value": "a"}},
			"actions":  []map[string]any{{"field_id": "f_text", "hidden": true, "type": "change-field-visibility"}},
		}},
	}
}

func FormField(m map[string]any, i int) map[string]any {
	return m["form_fields_per_document"].([]map[string]any)[i]
}

func FormRule(m map[string]any, i int) map[string]any {
	return m["form_field_rules"].([]map[string]any)[i]
}

func UpdateRequest(srv *sandboxtest.Server, id string, body map[string]any) *sandboxtest.Response {
	return srv.Do(http.MethodPost, "/v3/signature_request/update/"+id, body)
}

// TextTagsBody is a send body with use_text_tags and two signers.
func TextTagsBody() map[string]any {
	return map[string]any{
		"title":         "Tagged contract",
		"test_mode":     true,
		"use_text_tags": true,
		"signers": []map[string]any{
			{"name": "Alice Archer", "email_address": "alice@example.com"},
			{"name": "Bob Baker", "email_address": "bob@example.com"},
		},
	}
}

// SendFiles sends a body with files and fails unless it is accepted; it
// returns the whole response body.
func SendFiles(t *testing.T, srv *sandboxtest.Server, fields map[string]any, files ...File) map[string]any {
	t.Helper()
	r := SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", fields, files...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()
}

// PDFUpload is a .pdf upload.
func PDFUpload(name string, data []byte) File {
	return File{Name: name, ContentType: "application/pdf", Data: data}
}

// ResponseData is a request's response_data by api_id.
func ResponseData(sr map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, rd := range sr["response_data"].([]any) {
		m := rd.(map[string]any)
		out[m["api_id"].(string)] = m
	}
	return out
}

// SignatureField is a signature field for signer 0 on page 1 of document 0.
func SignatureField(id string, x, y, w, h int) map[string]any {
	return map[string]any{"document_index": 0, "api_id": id, "name": id, "type": "signature", "x": x, "y": y,
		"width": w, "height": h, "required": true, "signer": 0, "page": 1}
}

// PlacementBody is a one-signer test-mode send body with the given fields.
func PlacementBody(fields ...map[string]any) map[string]any {
	b := map[string]any{
		"title": "Placement", "test_mode": true,
		"signers": []map[string]any{{"name": "Pat", "email_address": "pat@example.com"}},
	}
	if len(fields) > 0 {
		b["form_fields_per_document"] = fields
	}
	return b
}
