package apitest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Bulk send: a single-role template and the official example body.

// BulkTemplateBody is a template with one signer role (Client), a CC role
// (Accounting) and a merge field (company), as the official bulk send
// examples use.
func BulkTemplateBody() map[string]any {
	return map[string]any{
		"title":        "Purchase Order",
		"subject":      "Purchase Order",
		"message":      "Glad we could come to an agreement.",
		"signer_roles": []map[string]any{{"name": "Client"}},
		"cc_roles":     []string{"Accounting"},
		"merge_fields": []map[string]any{{"name": "company", "type": "text"}},
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "client_sig", "name": "Signature", "type": "signature", "x": 100, "y": 600, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "company_merge", "name": "company", "type": "text-merge", "x": 100, "y": 700, "width": 200, "height": 20, "required": false, "signer": "sender", "page": 1},
		},
	}
}

// BulkTemplate creates the single-role template and prepares it.
func BulkTemplate(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	id := CreateTemplate(t, srv, srv.APIKey, BulkTemplateBody())
	srv.Advance(TemplatePrepDelay)
	return id
}

// BulkEntry is one signer_list entry for the Client role.
func BulkEntry(name, email, company string) map[string]any {
	e := map[string]any{"signers": []map[string]any{{"role": "Client", "name": name, "email_address": email}}}
	if company != "" {
		e["custom_fields"] = []map[string]any{{"name": "company", "value": company}}
	}
	return e
}

// BulkBody is the official bulk send example for a template id.
func BulkBody(tid string) map[string]any {
	return map[string]any{
		"template_ids": []string{tid},
		"subject":      "Purchase Order",
		"message":      "Glad we could come to an agreement.",
		"signer_list": []map[string]any{
			BulkEntry("George", "george@example.com", "ABC Corp"),
			BulkEntry("Mary", "mary@example.com", "123 LLC"),
		},
		"ccs":       []map[string]any{{"role": "Accounting", "email_address": "accounting@example.com"}},
		"test_mode": true,
	}
}

// BulkSend posts a JSON bulk send body ("bulk_send_with_template" or
// "bulk_create_embedded_with_template") as key.
func BulkSend(t *testing.T, srv *sandboxtest.Server, key, op string, body map[string]any) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs(key, http.MethodPost, "/v3/signature_request/"+op, body)
}

// BulkJob sends and returns the bulk_send_job object.
func BulkJob(t *testing.T, srv *sandboxtest.Server, op string, body map[string]any) map[string]any {
	t.Helper()
	r := BulkSend(t, srv, srv.APIKey, op, body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["bulk_send_job"].(map[string]any)
}

// BulkSendCSV posts a bulk send as the SDK does with a signer_file:
// multipart, objects and arrays as JSON parts, the CSV as a file part.
func BulkSendCSV(t *testing.T, srv *sandboxtest.Server, op string, fields map[string]any, csv []byte) *sandboxtest.Response {
	t.Helper()
	return SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/"+op, fields,
		File{Field: "signer_file", Name: "signers.csv", ContentType: "text/csv", Data: csv})
}

// BulkGet reads a job with a query ("" or "?page=2&page_size=5").
func BulkGet(t *testing.T, srv *sandboxtest.Server, key, id, query string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs(key, http.MethodGet, "/v3/bulk_send_job/"+id+query, nil)
}

// BulkGetOK reads a job and fails unless it is answered.
func BulkGetOK(t *testing.T, srv *sandboxtest.Server, id, query string) map[string]any {
	t.Helper()
	r := BulkGet(t, srv, srv.APIKey, id, query)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()
}

// BulkRequests lists the signature_requests of a job answer.
func BulkRequests(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, x := range m["signature_requests"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// SetQuota changes an account's api_signature_requests_left through the
// state export and import of the control plane.
func SetQuota(t *testing.T, srv *sandboxtest.Server, accountID string, left int) {
	t.Helper()
	got := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
	dec := json.NewDecoder(bytes.NewReader(got.Body))
	dec.UseNumber() // job due times are nanoseconds: keep them exact
	var ws map[string]any
	require.NoError(t, dec.Decode(&ws))
	tables := ws["tables"].(map[string]any)
	found := false
	for _, row := range tables["accounts"].([]any) {
		a := row.(map[string]any)
		if a["account_id"] == accountID {
			a["quotas"].(map[string]any)["api_signature_requests_left"] = left
			found = true
		}
	}
	require.True(t, found, "no account %s in the export", accountID)
	r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", ws)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
