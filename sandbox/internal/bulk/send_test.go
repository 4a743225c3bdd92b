package bulk_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestBulkSendWithSignerList: the official example body gives a job of two
// requests answered at once; the requests are created by a scheduler job
// after the processing delay, carry bulk_send_job_id, the entry's signer
// and custom field value and the job's CC, and are then sent like any
// other request.
func TestBulkSendWithSignerList(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(tid))
	id := job["bulk_send_job_id"].(string)
	require.Len(t, id, 40)
	assert.Equal(t, float64(2), job["total"])
	assert.Equal(t, true, job["is_creator"])
	assert.Equal(t, float64(srv.Now().Unix()), job["created_at"])

	queued := apitest.BulkGetOK(t, srv, id, "")
	assert.Empty(t, apitest.BulkRequests(queued), "the requests do not exist before the job runs")
	assert.Equal(t, map[string]any{"page": float64(1), "num_pages": float64(0), "num_results": float64(0), "page_size": float64(20)}, queued["list_info"])

	srv.Advance(apitest.SendProcessDelay)
	got := apitest.BulkGetOK(t, srv, id, "")
	reqs := apitest.BulkRequests(got)
	require.Len(t, reqs, 2)
	assert.Equal(t, float64(2), got["list_info"].(map[string]any)["num_results"])
	for i, want := range []struct{ name, email, company string }{{"George", "george@example.com", "ABC Corp"}, {"Mary", "mary@example.com", "123 LLC"}} {
		r := reqs[i]
		assert.Equal(t, id, r["bulk_send_job_id"])
		assert.Equal(t, "Purchase Order", r["subject"])
		assert.Equal(t, []any{tid}, r["template_ids"])
		assert.Equal(t, []any{"accounting@example.com"}, r["cc_email_addresses"])
		sg := apitest.Signatures(r)[0]
		assert.Equal(t, want.name, sg["signer_name"])
		assert.Equal(t, want.email, sg["signer_email_address"])
		assert.Equal(t, "Client", sg["signer_role"])
		cf := r["custom_fields"].([]any)[0].(map[string]any)
		assert.Equal(t, "company", cf["name"])
		assert.Equal(t, want.company, cf["value"])
		// The request is an ordinary one: GET shows it with its job.
		assert.Equal(t, id, apitest.GetRequestOK(t, srv, r["signature_request_id"].(string))["bulk_send_job_id"])
	}

	srv.Advance(apitest.SendProcessDelay)
	for _, r := range reqs {
		rid := r["signature_request_id"].(string)
		assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, rid))
	}
	var to []string
	for _, m := range srv.Emails("kind", "signature_request") {
		to = append(to, m.To)
	}
	assert.Equal(t, []string{"george@example.com", "mary@example.com"}, to)

	// A canceled request leaves the job's list, as it leaves every list.
	first := reqs[0]["signature_request_id"].(string)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+first, nil).Status)
	srv.Advance(30 * time.Second)
	got = apitest.BulkGetOK(t, srv, id, "")
	require.Len(t, apitest.BulkRequests(got), 1)
	assert.Equal(t, "mary@example.com", apitest.Signatures(apitest.BulkRequests(got)[0])[0]["signer_email_address"])
	assert.Equal(t, float64(2), got["bulk_send_job"].(map[string]any)["total"], "total stays what was queued")
}

// TestBulkSendWithSignerFile: a CSV signer_file uploaded as the SDK uploads
// it; the spec's example form (spaces after commas, pin, a *_field column)
// and the SDK fixture's quoted form both work.
func TestBulkSendWithSignerFile(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	fields := map[string]any{
		"template_ids": []string{tid},
		"ccs":          []map[string]any{{"role": "Accounting", "email_address": "accounting@example.com"}},
		"test_mode":    true,
	}
	csv := "name, email_address, pin, company_field\nGeorge, george@example.com, d79a3td, ABC Corp\nMary, mary@example.com, gd9as5b, 123 LLC\n"
	r := apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, []byte(csv))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"].(string)
	srv.Advance(apitest.SendProcessDelay)
	reqs := apitest.BulkRequests(apitest.BulkGetOK(t, srv, id, ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "Mary", apitest.Signatures(reqs[1])[0]["signer_name"])
	assert.Equal(t, true, apitest.Signatures(reqs[0])[0]["has_pin"])
	assert.Equal(t, "123 LLC", reqs[1]["custom_fields"].([]any)[0].(map[string]any)["value"])

	fixture := filepath.Join(filepath.Dir(conformance.Path()), "test_fixtures", "bulk-send-sample.csv")
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Skipf("SDK fixture %s not available: %v", fixture, err)
	}
	r = apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, data)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	job := r.Map()["bulk_send_job"].(map[string]any)
	assert.Equal(t, float64(2), job["total"])
	srv.Advance(apitest.SendProcessDelay)
	reqs = apitest.BulkRequests(apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "bulk-send-signer-2@example.com", apitest.Signatures(reqs[1])[0]["signer_email_address"])
	assert.Equal(t, "Bulk Send Signer 2", apitest.Signatures(reqs[1])[0]["signer_name"])
}

// TestBulkCreateEmbedded: the embedded variant needs client_id and creates
// embedded requests (no signing e-mails; signed through sign URLs).
func TestBulkCreateEmbedded(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := apitest.BulkBody(tid)
	apitest.WantError(t, apitest.BulkSend(t, srv, srv.APIKey, "bulk_create_embedded_with_template", body), http.StatusBadRequest, "bad_request", "client_id")
	body["client_id"] = apitest.ClientID
	job := apitest.BulkJob(t, srv, "bulk_create_embedded_with_template", body)
	srv.Advance(2 * apitest.SendProcessDelay)
	reqs := apitest.BulkRequests(apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Nil(t, reqs[0]["signing_url"], "embedded requests are signed through sign URLs")
	assert.Empty(t, srv.Emails("kind", "signature_request"))
	r := srv.Do(http.MethodGet, "/v3/embedded/sign_url/"+apitest.SignatureID(reqs[0], 0), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// TestBulkSendLimitAndPaging: 250 entries are accepted, 251 refused; the
// job's requests are paged in signer list order with exact list_info.
func TestBulkSendLimitAndPaging(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	entries := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = apitest.BulkEntry("Signer "+strconv.Itoa(i), "signer"+strconv.Itoa(i)+"@example.com", "")
		}
		return out
	}
	body := apitest.BulkBody(tid)
	body["signer_list"] = entries(251)
	apitest.WantError(t, apitest.BulkSend(t, srv, srv.APIKey, "bulk_send_with_template", body), http.StatusBadRequest, "bad_request", "signer_list")

	body["signer_list"] = entries(250)
	start := time.Now()
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", body)
	assert.Equal(t, float64(250), job["total"])
	srv.Advance(apitest.SendProcessDelay)
	t.Logf("250-request job accepted and created in %v", time.Since(start))
	id := job["bulk_send_job_id"].(string)

	p3 := apitest.BulkGetOK(t, srv, id, "?page=3&page_size=100")
	assert.Equal(t, map[string]any{"page": float64(3), "num_pages": float64(3), "num_results": float64(250), "page_size": float64(100)}, p3["list_info"])
	reqs := apitest.BulkRequests(p3)
	require.Len(t, reqs, 50)
	assert.Equal(t, "signer200@example.com", apitest.Signatures(reqs[0])[0]["signer_email_address"])
	assert.Equal(t, "signer249@example.com", apitest.Signatures(reqs[49])[0]["signer_email_address"])
	assert.Empty(t, apitest.BulkRequests(apitest.BulkGetOK(t, srv, id, "?page=4&page_size=100")))

	for _, q := range []struct{ query, path string }{
		{"?page=0", "page"}, {"?page_size=0", "page_size"}, {"?page_size=101", "page_size"}, {"?page=x", "page"},
	} {
		apitest.WantError(t, apitest.BulkGet(t, srv, srv.APIKey, id, q.query), http.StatusBadRequest, "bad_request", q.path)
	}
}

// TestBulkSendJobListAndAccess: jobs are listed newest first with exact
// paging; team members see them with is_creator false; other accounts get
// 404 for the job and an empty list.
func TestBulkSendJobListAndAccess(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	var ids []string
	for i := 0; i < 3; i++ {
		srv.Advance(time.Second)
		ids = append(ids, apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(tid))["bulk_send_job_id"].(string))
	}
	list := func(key, query string) map[string]any {
		r := srv.DoAs(key, http.MethodGet, "/v3/bulk_send_job/list"+query, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return r.Map()
	}
	jobIDs := func(m map[string]any) []string {
		var out []string
		for _, j := range m["bulk_send_jobs"].([]any) {
			out = append(out, j.(map[string]any)["bulk_send_job_id"].(string))
		}
		return out
	}
	all := list(srv.APIKey, "")
	assert.Equal(t, []string{ids[2], ids[1], ids[0]}, jobIDs(all))
	assert.Equal(t, map[string]any{"page": float64(1), "num_pages": float64(1), "num_results": float64(3), "page_size": float64(20)}, all["list_info"])
	p2 := list(srv.APIKey, "?page=2&page_size=2")
	assert.Equal(t, []string{ids[0]}, jobIDs(p2))
	assert.Equal(t, float64(2), p2["list_info"].(map[string]any)["num_pages"])

	mate := list(apitest.TeammateKey, "")
	assert.Equal(t, []string{ids[2], ids[1], ids[0]}, jobIDs(mate))
	assert.Equal(t, false, mate["bulk_send_jobs"].([]any)[0].(map[string]any)["is_creator"])
	r := apitest.BulkGet(t, srv, apitest.TeammateKey, ids[0], "")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, false, r.Map()["bulk_send_job"].(map[string]any)["is_creator"])

	assert.Empty(t, list(apitest.OutsiderKey, "")["bulk_send_jobs"])
	apitest.WantError(t, apitest.BulkGet(t, srv, apitest.OutsiderKey, ids[0], ""), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, apitest.BulkGet(t, srv, srv.APIKey, strings.Repeat("0", 40), ""), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.Do(http.MethodGet, "/v3/bulk_send_job/list?page_size=500", nil), http.StatusBadRequest, "bad_request", "page_size")

	other := srv.NewWorld()
	apitest.WantError(t, apitest.BulkGet(t, srv, other.APIKey, ids[0], ""), http.StatusNotFound, "not_found", "")
}

// TestBulkSendMultipartSignerList: the SDK's multipart form (each array as
// one JSON part) works as JSON does.
func TestBulkSendMultipartSignerList(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/bulk_send_with_template", apitest.BulkBody(tid))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	job := r.Map()["bulk_send_job"].(map[string]any)
	assert.Equal(t, float64(2), job["total"])
	srv.Advance(apitest.SendProcessDelay)
	reqs := apitest.BulkRequests(apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "ABC Corp", reqs[0]["custom_fields"].([]any)[0].(map[string]any)["value"])
}

// TestBulkSendOfficialExamples: the official JSON request examples of both
// operations are accepted as they are (this world's template and app).
func TestBulkSendOfficialExamples(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	for _, tc := range []struct{ file, op string }{
		{"SignatureRequestBulkSendWithTemplateRequest.json", "bulk_send_with_template"},
		{"SignatureRequestBulkCreateEmbeddedWithTemplateRequest.json", "bulk_create_embedded_with_template"},
	} {
		t.Run(strings.TrimSuffix(tc.file, ".json"), func(t *testing.T) {
			body := apitest.OfficialExample(t, tc.file)
			body["template_ids"] = []string{tid}
			if _, ok := body["client_id"]; ok {
				body["client_id"] = apitest.ClientID
			}
			job := apitest.BulkJob(t, srv, tc.op, body)
			assert.Equal(t, float64(2), job["total"])
		})
	}
}
