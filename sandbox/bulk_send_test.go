package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestBulkSendWithSignerList: the official example body gives a job of two
// requests answered at once; the requests are created by a scheduler job
// after the processing delay, carry bulk_send_job_id, the entry's signer
// and custom field value and the job's CC, and are then sent like any
// other request.
func TestBulkSendWithSignerList(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	job := bkJob(t, srv, "bulk_send_with_template", bkBody(tid))
	id := job["bulk_send_job_id"].(string)
	require.Len(t, id, 40)
	assert.Equal(t, float64(2), job["total"])
	assert.Equal(t, true, job["is_creator"])
	assert.Equal(t, float64(srv.Now().Unix()), job["created_at"])

	queued := bkGetOK(t, srv, id, "")
	assert.Empty(t, bkRequests(queued), "the requests do not exist before the job runs")
	assert.Equal(t, map[string]any{"page": float64(1), "num_pages": float64(0), "num_results": float64(0), "page_size": float64(20)}, queued["list_info"])

	srv.Advance(udProcess)
	got := bkGetOK(t, srv, id, "")
	reqs := bkRequests(got)
	require.Len(t, reqs, 2)
	assert.Equal(t, float64(2), got["list_info"].(map[string]any)["num_results"])
	for i, want := range []struct{ name, email, company string }{{"George", "george@example.com", "ABC Corp"}, {"Mary", "mary@example.com", "123 LLC"}} {
		r := reqs[i]
		assert.Equal(t, id, r["bulk_send_job_id"])
		assert.Equal(t, "Purchase Order", r["subject"])
		assert.Equal(t, []any{tid}, r["template_ids"])
		assert.Equal(t, []any{"accounting@example.com"}, r["cc_email_addresses"])
		sg := srSigs(r)[0]
		assert.Equal(t, want.name, sg["signer_name"])
		assert.Equal(t, want.email, sg["signer_email_address"])
		assert.Equal(t, "Client", sg["signer_role"])
		cf := r["custom_fields"].([]any)[0].(map[string]any)
		assert.Equal(t, "company", cf["name"])
		assert.Equal(t, want.company, cf["value"])
		// The request is an ordinary one: GET shows it with its job.
		assert.Equal(t, id, srGetOK(t, srv, r["signature_request_id"].(string))["bulk_send_job_id"])
	}

	srv.Advance(udProcess)
	for _, r := range reqs {
		rid := r["signature_request_id"].(string)
		assert.Equal(t, []string{"signature_request_sent"}, srEvents(srv, rid))
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
	got = bkGetOK(t, srv, id, "")
	require.Len(t, bkRequests(got), 1)
	assert.Equal(t, "mary@example.com", srSigs(bkRequests(got)[0])[0]["signer_email_address"])
	assert.Equal(t, float64(2), got["bulk_send_job"].(map[string]any)["total"], "total stays what was queued")
}

// TestBulkSendWithSignerFile: a CSV signer_file uploaded as the SDK uploads
// it; the spec's example form (spaces after commas, pin, a *_field column)
// and the SDK fixture's quoted form both work.
func TestBulkSendWithSignerFile(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	fields := map[string]any{
		"template_ids": []string{tid},
		"ccs":          []map[string]any{{"role": "Accounting", "email_address": "accounting@example.com"}},
		"test_mode":    true,
	}
	csv := "name, email_address, pin, company_field\nGeorge, george@example.com, d79a3td, ABC Corp\nMary, mary@example.com, gd9as5b, 123 LLC\n"
	r := bkSendCSV(t, srv, "bulk_send_with_template", fields, []byte(csv))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"].(string)
	srv.Advance(udProcess)
	reqs := bkRequests(bkGetOK(t, srv, id, ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "Mary", srSigs(reqs[1])[0]["signer_name"])
	assert.Equal(t, true, srSigs(reqs[0])[0]["has_pin"])
	assert.Equal(t, "123 LLC", reqs[1]["custom_fields"].([]any)[0].(map[string]any)["value"])

	fixture := filepath.Join(filepath.Dir(conformance.Path()), "test_fixtures", "bulk-send-sample.csv")
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Skipf("SDK fixture %s not available: %v", fixture, err)
	}
	r = bkSendCSV(t, srv, "bulk_send_with_template", fields, data)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	job := r.Map()["bulk_send_job"].(map[string]any)
	assert.Equal(t, float64(2), job["total"])
	srv.Advance(udProcess)
	reqs = bkRequests(bkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "bulk-send-signer-2@example.com", srSigs(reqs[1])[0]["signer_email_address"])
	assert.Equal(t, "Bulk Send Signer 2", srSigs(reqs[1])[0]["signer_name"])
}

// TestBulkCreateEmbedded: the embedded variant needs client_id and creates
// embedded requests (no signing e-mails; signed through sign URLs).
func TestBulkCreateEmbedded(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	body := bkBody(tid)
	srErr(t, bkSend(t, srv, srv.APIKey, "bulk_create_embedded_with_template", body), http.StatusBadRequest, "bad_request", "client_id")
	body["client_id"] = srClientID
	job := bkJob(t, srv, "bulk_create_embedded_with_template", body)
	srv.Advance(2 * udProcess)
	reqs := bkRequests(bkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Nil(t, reqs[0]["signing_url"], "embedded requests are signed through sign URLs")
	assert.Empty(t, srv.Emails("kind", "signature_request"))
	r := srv.Do(http.MethodGet, "/v3/embedded/sign_url/"+srSigID(reqs[0], 0), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// TestBulkSendLimitAndPaging: 250 entries are accepted, 251 refused; the
// job's requests are paged in signer list order with exact list_info.
func TestBulkSendLimitAndPaging(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	entries := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = bkEntry("Signer "+itoa(i), "signer"+itoa(i)+"@example.com", "")
		}
		return out
	}
	body := bkBody(tid)
	body["signer_list"] = entries(251)
	srErr(t, bkSend(t, srv, srv.APIKey, "bulk_send_with_template", body), http.StatusBadRequest, "bad_request", "signer_list")

	body["signer_list"] = entries(250)
	start := time.Now()
	job := bkJob(t, srv, "bulk_send_with_template", body)
	assert.Equal(t, float64(250), job["total"])
	srv.Advance(udProcess)
	t.Logf("250-request job accepted and created in %v", time.Since(start))
	id := job["bulk_send_job_id"].(string)

	p3 := bkGetOK(t, srv, id, "?page=3&page_size=100")
	assert.Equal(t, map[string]any{"page": float64(3), "num_pages": float64(3), "num_results": float64(250), "page_size": float64(100)}, p3["list_info"])
	reqs := bkRequests(p3)
	require.Len(t, reqs, 50)
	assert.Equal(t, "signer200@example.com", srSigs(reqs[0])[0]["signer_email_address"])
	assert.Equal(t, "signer249@example.com", srSigs(reqs[49])[0]["signer_email_address"])
	assert.Empty(t, bkRequests(bkGetOK(t, srv, id, "?page=4&page_size=100")))

	for _, q := range []struct{ query, path string }{
		{"?page=0", "page"}, {"?page_size=0", "page_size"}, {"?page_size=101", "page_size"}, {"?page=x", "page"},
	} {
		srErr(t, bkGet(t, srv, srv.APIKey, id, q.query), http.StatusBadRequest, "bad_request", q.path)
	}
}

// TestBulkSendJobListAndAccess: jobs are listed newest first with exact
// paging; team members see them with is_creator false; other accounts get
// 404 for the job and an empty list.
func TestBulkSendJobListAndAccess(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	var ids []string
	for i := 0; i < 3; i++ {
		srv.Advance(time.Second)
		ids = append(ids, bkJob(t, srv, "bulk_send_with_template", bkBody(tid))["bulk_send_job_id"].(string))
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

	mate := list(srTeammateKey, "")
	assert.Equal(t, []string{ids[2], ids[1], ids[0]}, jobIDs(mate))
	assert.Equal(t, false, mate["bulk_send_jobs"].([]any)[0].(map[string]any)["is_creator"])
	r := bkGet(t, srv, srTeammateKey, ids[0], "")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, false, r.Map()["bulk_send_job"].(map[string]any)["is_creator"])

	assert.Empty(t, list(srOutsiderKey, "")["bulk_send_jobs"])
	srErr(t, bkGet(t, srv, srOutsiderKey, ids[0], ""), http.StatusNotFound, "not_found", "")
	srErr(t, bkGet(t, srv, srv.APIKey, strings.Repeat("0", 40), ""), http.StatusNotFound, "not_found", "")
	srErr(t, srv.Do(http.MethodGet, "/v3/bulk_send_job/list?page_size=500", nil), http.StatusBadRequest, "bad_request", "page_size")

	other := srv.NewWorld()
	srErr(t, bkGet(t, srv, other.APIKey, ids[0], ""), http.StatusNotFound, "not_found", "")
}

// TestBulkSendMultipartSignerList: the SDK's multipart form (each array as
// one JSON part) works as JSON does.
func TestBulkSendMultipartSignerList(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	r := tplMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/bulk_send_with_template", bkBody(tid))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	job := r.Map()["bulk_send_job"].(map[string]any)
	assert.Equal(t, float64(2), job["total"])
	srv.Advance(udProcess)
	reqs := bkRequests(bkGetOK(t, srv, job["bulk_send_job_id"].(string), ""))
	require.Len(t, reqs, 2)
	assert.Equal(t, "ABC Corp", reqs[0]["custom_fields"].([]any)[0].(map[string]any)["value"])
}

// TestBulkSendOfficialExamples: the official JSON request examples of both
// operations are accepted as they are (this world's template and app).
func TestBulkSendOfficialExamples(t *testing.T) {
	srv := newServer(t)
	tid := bkTemplate(t, srv)
	for _, tc := range []struct{ file, op string }{
		{"SignatureRequestBulkSendWithTemplateRequest.json", "bulk_send_with_template"},
		{"SignatureRequestBulkCreateEmbeddedWithTemplateRequest.json", "bulk_create_embedded_with_template"},
	} {
		t.Run(strings.TrimSuffix(tc.file, ".json"), func(t *testing.T) {
			body := udExample(t, tc.file)
			body["template_ids"] = []string{tid}
			if _, ok := body["client_id"]; ok {
				body["client_id"] = srClientID
			}
			job := bkJob(t, srv, tc.op, body)
			assert.Equal(t, float64(2), job["total"])
		})
	}
}
