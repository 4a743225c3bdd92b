package wire_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// The bodies the official PHP SDK sends for PHP arrays (docs/fidelity.md,
// "PHP arrays"): json_encode writes an empty array as [] and a list with
// gaps in its keys as an object with numeric keys; the service, a PHP
// application, reads both as arrays. In JSON, and in multipart, where the SDK
// writes each array as the JSON text of one part.

// phpOffline lets file_urls stand for placeholder documents, so that JSON
// bodies need no file server.
func phpOffline(t *testing.T, srv *sandboxtest.Server) {
	t.Helper()
	srv.Control(http.MethodPatch, "/config", map[string]any{"fetch_file_urls": false}, nil)
}

// phpSendJSON is a send body as the PHP SDK writes it after array_filter:
// signers, cc_email_addresses and file_urls with gaps, metadata [].
func phpSendJSON() map[string]any {
	return map[string]any{
		"title": "PHP", "test_mode": true, "metadata": []any{},
		"file_urls": map[string]any{"1": "https://example.com/a.pdf"},
		"signers": map[string]any{
			"0": map[string]any{"name": "Ann", "email_address": "ann@example.com"},
			"2": map[string]any{"name": "Cid", "email_address": "cid@example.com"},
		},
		"cc_email_addresses": map[string]any{"3": "cc@example.com"},
		"form_fields_per_document": map[string]any{
			"0": map[string]any{"api_id": "t_ann", "type": "text", "document_index": 0, "page": 1, "x": 50, "y": 50, "width": 100, "height": 20, "required": true, "signer": 0},
			"5": map[string]any{"api_id": "t_cid", "type": "text", "document_index": 0, "page": 1, "x": 50, "y": 100, "width": 100, "height": 20, "required": true, "signer": "2"},
		},
	}
}

func TestPHPShapesSend(t *testing.T) {
	srv := apitest.NewServer(t)
	phpOffline(t, srv)
	r := srv.Do(http.MethodPost, "/v3/signature_request/send", phpSendJSON())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr := r.Map()["signature_request"].(map[string]any)
	assert.Equal(t, map[string]any{}, sr["metadata"], "metadata [] is no metadata")
	assert.Equal(t, []any{"cc@example.com"}, sr["cc_email_addresses"])
	sigs := apitest.Signatures(sr)
	require.Len(t, sigs, 2)
	assert.Equal(t, "ann@example.com", sigs[0]["signer_email_address"])
	assert.Equal(t, "cid@example.com", sigs[1]["signer_email_address"])

	// The field whose signer is "2" is Cid's: the key is the index.
	srv.Advance(5 * time.Second)
	r = srv.Do(http.MethodPost, "/_sandbox/signatures/"+apitest.SignatureID(sr, 0)+"/sign", map[string]any{"values": map[string]any{"t_cid": "x"}})
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), "belongs to another signer")
	srv.Control(http.MethodPost, "/signatures/"+apitest.SignatureID(sr, 0)+"/sign", map[string]any{"values": map[string]any{"t_ann": "a"}}, nil)
	srv.Control(http.MethodPost, "/signatures/"+apitest.SignatureID(sr, 1)+"/sign", map[string]any{"values": map[string]any{"t_cid": "c"}}, nil)
	got := apitest.GetRequestOK(t, srv, sr["signature_request_id"].(string))
	for _, v := range got["response_data"].([]any) {
		m := v.(map[string]any)
		if m["api_id"] == "t_cid" {
			assert.Equal(t, apitest.SignatureID(sr, 1), m["signature_id"])
		}
	}

	// The same body as multipart, arrays as JSON text parts, and the files
	// the PHP SDK uploads as files[0].
	body := phpSendJSON()
	delete(body, "file_urls")
	r = apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", body, apitest.PDFFile{Name: "a.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, r.Map()["signature_request"].(map[string]any)["signatures"], 2)
	assert.Equal(t, map[string]any{}, r.Map()["signature_request"].(map[string]any)["metadata"])
}

// The official PHP SDK's own test payload (testExplicitIndexKeysAreKept-
// ForNestedValues): an embedded unclaimed draft whose only signer has the
// key "1", named by its form field's signer 1.
func TestPHPShapesSDKTestPayload(t *testing.T) {
	srv := apitest.NewServer(t)
	phpOffline(t, srv)
	body := map[string]any{
		"type": "request_signature", "subject": "unclaimed draft that should work", "message": "indeed",
		"metadata": nil, "test_mode": false, "file_urls": []string{"https://example.com/a.pdf"},
		"signers": map[string]any{"1": map[string]any{"order": 1, "email_address": "john@example.com", "name": "John Q Public"}},
		"form_fields_per_document": []any{map[string]any{"document_index": 0, "name": nil, "type": "signature",
			"x": 530, "y": 415, "width": 120, "height": 30, "required": true, "signer": 1, "api_id": "sig"}},
		"client_id": apitest.ClientID, "requester_email_address": "requester@example.com",
	}
	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	body["form_fields_per_document"].([]any)[0].(map[string]any)["signer"] = 0
	r = srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded", body)
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "form_fields_per_document[0][signer]")
}

// Templates: signer_roles with gaps are named by their keys; sends with a
// template take signers, ccs and custom_fields with gaps.
func TestPHPShapesTemplates(t *testing.T) {
	srv := apitest.NewServer(t)
	tpl := apitest.StandardTemplate()
	tpl["signer_roles"] = map[string]any{"0": map[string]any{"name": "Client", "order": 0}, "3": map[string]any{"name": "Witness", "order": 1}}
	tpl["attachments"] = []map[string]any{{"name": "ID card", "signer_index": 3, "required": true}}
	tpl["metadata"] = []any{}
	ffpd := tpl["form_fields_per_document"].([]map[string]any)
	ffpd[1]["signer"] = 3
	id := apitest.CreateTemplate(t, srv, srv.APIKey, tpl)
	srv.Advance(apitest.TemplatePrepDelay)
	got := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, map[string]any{}, got["metadata"])
	assert.Equal(t, "2", got["attachments"].([]any)[0].(map[string]any)["signer"], "the attachment of the role keyed 3, the second")

	body := apitest.TemplateSendBody(id)
	body["signers"] = map[string]any{
		"4": map[string]any{"role": "Witness", "name": "Wanda Witness", "email_address": "wanda@example.com"},
		"7": map[string]any{"role": "Client", "name": "Carl Client", "email_address": "carl@example.com"},
	}
	body["ccs"] = map[string]any{"2": map[string]any{"role": "Manager", "email_address": "manager@example.com"}}
	body["custom_fields"] = map[string]any{"1": map[string]any{"name": "Full Name", "value": "Jane"}}
	body["metadata"] = []any{}
	sr := apitest.SendWithTemplate(t, srv, srv.APIKey, body)["signature_request"].(map[string]any)
	assert.Equal(t, []any{"manager@example.com"}, sr["cc_email_addresses"])
	assert.Len(t, sr["signatures"], 2)
	assert.Equal(t, map[string]any{}, sr["metadata"])
}

// Genuinely wrong shapes stay 400s naming the parameter.
func TestPHPShapesWrongShapes(t *testing.T) {
	srv := apitest.NewServer(t)
	phpOffline(t, srv)
	cases := []struct {
		name string
		edit func(map[string]any)
		path string
	}{
		{"metadata a non-empty list", func(b map[string]any) { b["metadata"] = []any{"a"} }, "metadata"},
		{"signers keyed by names", func(b map[string]any) {
			b["signers"] = map[string]any{"a": map[string]any{"name": "A", "email_address": "a@example.com"}}
		}, "signers"},
		{"signers keyed 01", func(b map[string]any) {
			b["signers"] = map[string]any{"01": map[string]any{"name": "A", "email_address": "a@example.com"}}
		}, "signers"},
		{"an entry with gaps named by its key", func(b map[string]any) {
			b["signers"].(map[string]any)["2"] = map[string]any{"name": "Cid"}
		}, "signers[2][email_address]"},
		{"a field naming no key", func(b map[string]any) {
			b["form_fields_per_document"].(map[string]any)["5"].(map[string]any)["signer"] = 1
		}, "form_fields_per_document[5][signer]"},
		{"cc_email_addresses keyed by names", func(b map[string]any) { b["cc_email_addresses"] = map[string]any{"x": "cc@example.com"} }, "cc_email_addresses"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := phpSendJSON()
			tc.edit(b)
			apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/send", b), http.StatusBadRequest, "bad_request", tc.path)
		})
	}
}

// The official fax examples answer "metadata": [] (PHP's empty array), but
// FaxResponse.metadata is an object in the schema and the Python SDK's
// model is a dict, which [] fails: the sandbox answers {}.
func TestPHPShapesFaxMetadataIsAnObject(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/fax/send", map[string]any{"recipient": "+14155550100", "test_mode": "true"},
		apitest.File{Name: "a.pdf", ContentType: "application/pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, map[string]any{}, r.Map()["fax"].(map[string]any)["metadata"])
	assert.Contains(t, string(r.Body), `"metadata":{}`)
}

// Bulk sends: signer_list, and the signers and custom_fields of its
// entries, with gaps in their keys; metadata [].
func TestPHPShapesBulkSend(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := apitest.BulkBody(tid)
	george, mary := apitest.BulkEntry("George", "george@example.com", "ABC Corp"), apitest.BulkEntry("Mary", "mary@example.com", "")
	george["signers"] = map[string]any{"1": george["signers"].([]map[string]any)[0]}
	george["custom_fields"] = map[string]any{"3": george["custom_fields"].([]map[string]any)[0]}
	body["signer_list"] = map[string]any{"2": george, "5": mary}
	body["ccs"] = map[string]any{"1": body["ccs"].([]map[string]any)[0]}
	body["metadata"] = []any{}
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", body)
	assert.EqualValues(t, 2, job["total"])
}
