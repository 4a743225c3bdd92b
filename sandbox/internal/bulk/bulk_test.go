package bulk_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// oneRoleTemplate creates and prepares a template with one signer role
// (Client) and a merge field (company), as the official bulk examples use.
func oneRoleTemplate(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	r := apitest.Multipart(t, srv, http.MethodPost, "/v3/template/create", map[string]string{
		"title":        "Purchase Order",
		"signer_roles": js([]map[string]any{{"name": "Client"}}),
		"merge_fields": js([]map[string]any{{"name": "company", "type": "text"}}),
		"form_fields_per_document": js([]map[string]any{
			{"document_index": 0, "api_id": "sig", "name": "Signature", "type": "signature", "x": 100, "y": 600, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
		}),
		"test_mode": "1",
	}, apitest.File{Field: "files[0]", Name: "po.pdf", ContentType: "application/pdf", Data: pdftest.MakePDF(pdftest.Letter("PO"))})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Template struct {
			TemplateID string `json:"template_id"`
		} `json:"template"`
	}
	require.NoError(t, r.JSON(&out))
	srv.Advance(time.Minute)
	return out.Template.TemplateID
}

type jobBody struct {
	Job struct {
		ID    string `json:"bulk_send_job_id"`
		Total int    `json:"total"`
	} `json:"bulk_send_job"`
	SignatureRequests []struct {
		ID        string `json:"signature_request_id"`
		JobID     string `json:"bulk_send_job_id"`
		Signature []struct {
			Email string `json:"signer_email_address"`
		} `json:"signatures"`
	} `json:"signature_requests"`
}

// TestJobCreatesItsRequestsLater: the job is answered at once with its
// total; its requests exist only after the scheduler job has run, each
// with the entry's signer and the job's id.
func TestJobCreatesItsRequestsLater(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := oneRoleTemplate(t, srv)
	entry := func(email string) map[string]any {
		return map[string]any{"signers": []map[string]any{{"role": "Client", "name": "N", "email_address": email}},
			"custom_fields": []map[string]any{{"name": "company", "value": "ACME"}}}
	}
	r := srv.Do(http.MethodPost, "/v3/signature_request/bulk_send_with_template", map[string]any{
		"template_ids": []string{tid}, "test_mode": true,
		"signer_list": []map[string]any{entry("a@example.com"), entry("b@example.com")},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var job jobBody
	require.NoError(t, r.JSON(&job))
	assert.Equal(t, 2, job.Job.Total)

	get := func() jobBody {
		r := srv.Do(http.MethodGet, "/v3/bulk_send_job/"+job.Job.ID, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var out jobBody
		require.NoError(t, r.JSON(&out))
		return out
	}
	assert.Empty(t, get().SignatureRequests)
	srv.Advance(time.Minute)
	got := get()
	require.Len(t, got.SignatureRequests, 2)
	for i, want := range []string{"a@example.com", "b@example.com"} {
		assert.Equal(t, job.Job.ID, got.SignatureRequests[i].JobID)
		assert.Equal(t, want, got.SignatureRequests[i].Signature[0].Email)
	}
	r = srv.Do(http.MethodGet, "/v3/bulk_send_job/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), job.Job.ID)
}

// TestSendErrors: each refusal names the parameter, and no job is made.
func TestSendErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := oneRoleTemplate(t, srv)
	good := map[string]any{"signers": []map[string]any{{"role": "Client", "name": "N", "email_address": "a@example.com"}}}
	for _, tc := range []struct {
		body       map[string]any
		name, path string
	}{
		{map[string]any{"signer_list": []any{good}}, "bad_request", "template_ids"},
		{map[string]any{"template_ids": []string{tid}}, "bad_request", "signer_list"},
		{map[string]any{"template_ids": []string{tid}, "signer_list": []any{}}, "bad_request", "signer_list"},
		{map[string]any{"template_ids": []string{tid}, "signer_list": []any{good, map[string]any{"signers": []map[string]any{{"role": "Client", "name": "N", "email_address": "nope"}}}}},
			"invalid_recipient", "signer_list[1][signers][0][email_address]"},
	} {
		tc.body["test_mode"] = true
		e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/signature_request/bulk_send_with_template", tc.body))
		assert.Equal(t, tc.name, e.Name, tc.path)
		assert.Equal(t, tc.path, e.Path, e.Msg)
	}
	r := srv.Do(http.MethodGet, "/v3/bulk_send_job/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"bulk_send_jobs":[]`)
}
