package bulk_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestBulkSendBadInput: each case breaks one rule and gets a 4xx naming
// the field (the entry of signer_list); no job is stored.
func TestBulkSendBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	two := apitest.StandardTemplate() // two signer roles
	twoRoles := apitest.CreateTemplate(t, srv, srv.APIKey, two)
	srv.Advance(apitest.TemplatePrepDelay)
	entry := func(m map[string]any, i int) map[string]any { return m["signer_list"].([]map[string]any)[i] }
	signer := func(m map[string]any, i int) map[string]any {
		return entry(m, i)["signers"].([]map[string]any)[0]
	}
	cases := []struct {
		name   string
		change func(m map[string]any)
		status int
		errN   string
		path   string
	}{
		{"no template_ids", func(m map[string]any) { delete(m, "template_ids") }, 400, "bad_request", "template_ids"},
		{"blank template id", func(m map[string]any) { m["template_ids"] = []string{" "} }, 400, "bad_request", "template_ids[0]"},
		{"unknown template", func(m map[string]any) { m["template_ids"] = []string{strings.Repeat("0", 40)} }, 404, "not_found", "template_ids[0]"},
		{"template with two roles", func(m map[string]any) { m["template_ids"] = []string{twoRoles} }, 400, "bad_request", "template_ids"},
		{"no signer list", func(m map[string]any) { delete(m, "signer_list") }, 400, "bad_request", "signer_list"},
		{"empty signer list", func(m map[string]any) { m["signer_list"] = []map[string]any{} }, 400, "bad_request", "signer_list"},
		{"signer_file as text", func(m map[string]any) {
			delete(m, "signer_list")
			m["signer_file"] = "name,email_address\nA,a@example.com"
		}, 400, "bad_request", "signer_file"},
		{"entry without signers", func(m map[string]any) { delete(entry(m, 1), "signers") }, 400, "bad_request", "signer_list[1][signers]"},
		{"entry with two signers", func(m map[string]any) {
			entry(m, 1)["signers"] = []map[string]any{signer(m, 0), signer(m, 1)}
		}, 400, "bad_request", "signer_list[1][signers]"},
		{"signer without role", func(m map[string]any) { delete(signer(m, 1), "role") }, 400, "bad_request", "signer_list[1][signers][0][role]"},
		{"signer with another role", func(m map[string]any) { signer(m, 1)["role"] = "client" }, 400, "bad_request", "signer_list[1][signers][0][role]"},
		{"signer without name", func(m map[string]any) { delete(signer(m, 0), "name") }, 400, "bad_request", "signer_list[0][signers][0][name]"},
		{"signer with bad email", func(m map[string]any) { signer(m, 1)["email_address"] = "mary@" }, 400, "invalid_recipient", "signer_list[1][signers][0][email_address]"},
		{"short pin", func(m map[string]any) { signer(m, 0)["pin"] = "123" }, 400, "bad_request", "signer_list[0][signers][0][pin]"},
		{"sms in test mode", func(m map[string]any) { signer(m, 0)["sms_phone_number"] = "+14155550123" }, 400, "bad_request", "signer_list[0][signers][0][sms_phone_number]"},
		{"sms not E.164", func(m map[string]any) { m["test_mode"] = false; signer(m, 0)["sms_phone_number"] = "555" }, 400, "bad_request", "signer_list[0][signers][0][sms_phone_number]"},
		{"custom field without value", func(m map[string]any) {
			entry(m, 1)["custom_fields"] = []map[string]any{{"name": "company"}}
		}, 400, "bad_request", "signer_list[1][custom_fields][0][value]"},
		{"unknown custom field", func(m map[string]any) {
			entry(m, 1)["custom_fields"] = []map[string]any{{"name": "Company", "value": "x"}}
		}, 400, "bad_request", "signer_list[1][custom_fields][0][name]"},
		{"cc role missing", func(m map[string]any) { delete(m, "ccs") }, 400, "bad_request", "ccs"},
		{"cc role unknown", func(m map[string]any) {
			m["ccs"] = []map[string]any{{"role": "Accounting", "email_address": "a@example.com"}, {"role": "Boss", "email_address": "b@example.com"}}
		}, 400, "bad_request", "ccs[1][role]"},
		{"bad cc address", func(m map[string]any) { m["ccs"] = []map[string]any{{"role": "Accounting", "email_address": "a"}} }, 400, "bad_request", "ccs[0][email_address]"},
		{"title over 255", func(m map[string]any) { m["title"] = strings.Repeat("t", 256) }, 400, "bad_request", "title"},
		{"eleven metadata keys", func(m map[string]any) {
			md := map[string]any{}
			for i := 0; i < 11; i++ {
				md["k"+strconv.Itoa(i)] = i
			}
			m["metadata"] = md
		}, 400, "bad_request", "metadata"},
		{"bad signing_redirect_url", func(m map[string]any) { m["signing_redirect_url"] = "nowhere" }, 400, "bad_request", "signing_redirect_url"},
		{"unknown client_id", func(m map[string]any) { m["client_id"] = strings.Repeat("0", 32) }, 400, "bad_request", "client_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := apitest.BulkBody(tid)
			tc.change(body)
			apitest.WantError(t, apitest.BulkSend(t, srv, srv.APIKey, "bulk_send_with_template", body), tc.status, tc.errN, tc.path)
		})
	}
	var ws struct {
		Tables map[string][]any `json:"tables"`
	}
	srv.Control(http.MethodGet, "/state", nil, &ws)
	assert.Empty(t, ws.Tables["bulk_send_jobs"], "refused jobs are not stored")
}

// TestBulkSendSignerFileBadInput: a malformed CSV names signer_file and
// the line at fault.
func TestBulkSendSignerFileBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	fields := map[string]any{
		"template_ids": []string{tid},
		"ccs":          []map[string]any{{"role": "Accounting", "email_address": "accounting@example.com"}},
		"test_mode":    true,
	}
	cases := []struct{ name, csv, msg string }{
		{"empty file", "", "empty"},
		{"header only", "name,email_address\n", "empty"},
		{"no email column", "name,pin\nA,1234\n", "email_address"},
		{"unknown column", "name,email_address,company\nA,a@example.com,X\n", `"company"`},
		{"duplicate column", "name,email_address,Name\nA,a@example.com,B\n", "twice"},
		{"short row", "name,email_address\nA,a@example.com\nB\n", "line 3"},
		{"bad email on a row", "name,email_address\nA,a@example.com\nB,b@\n", "line 3"},
		{"unknown custom field", "name,email_address,region_field\nA,a@example.com,EU\n", "region"},
		{"bad quoting", "name,email_address\n\"A,a@example.com\n", "CSV"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, []byte(tc.csv))
			apitest.WantError(t, r, http.StatusBadRequest, r.Map()["error"].(map[string]any)["error_name"].(string), "signer_file")
			_, msg, _ := apitest.ErrorParts(t, r.Body)
			assert.Contains(t, msg, tc.msg)
		})
	}
	t.Run("both signer_list and signer_file", func(t *testing.T) {
		f := map[string]any{"signer_list": []map[string]any{apitest.BulkEntry("A", "a@example.com", "")}}
		for k, v := range fields {
			f[k] = v
		}
		apitest.WantError(t, apitest.BulkSendCSV(t, srv, "bulk_send_with_template", f, []byte("name,email_address\nB,b@example.com\n")), 400, "bad_request", "signer_file")
	})
	t.Run("251 rows", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("name,email_address\n")
		for i := 0; i < 251; i++ {
			b.WriteString("S" + strconv.Itoa(i) + ",s" + strconv.Itoa(i) + "@example.com\n")
		}
		apitest.WantError(t, apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, []byte(b.String())), 400, "bad_request", "signer_file")
	})
	t.Run("BOM, CRLF, blank lines and a custom field by api_id", func(t *testing.T) {
		csv := "\ufeffName,Email_Address,company_merge_field\r\n\r\nA,a@example.com,ACME\r\n"
		r := apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, []byte(csv))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		id := r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"].(string)
		srv.Advance(apitest.SendProcessDelay)
		reqs := apitest.BulkRequests(apitest.BulkGetOK(t, srv, id, ""))
		require.Len(t, reqs, 1)
		assert.Equal(t, "ACME", reqs[0]["custom_fields"].([]any)[0].(map[string]any)["value"])
	})
}

// TestBulkSendPlanAndQuota: bulk send needs a paid plan outside test_mode
// (403 forbidden, the official 403 example's message); the quota must
// cover every request (402) and is consumed per request when the job runs.
func TestBulkSendPlanAndQuota(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := apitest.BulkBody(tid)
	body["test_mode"] = false
	r := apitest.BulkSend(t, srv, apitest.OutsiderKey, "bulk_send_with_template", body)
	apitest.WantError(t, r, http.StatusForbidden, "forbidden", "")
	_, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "A paid API plan is required to access this endpoint.", msg)
	body["test_mode"] = true
	apitest.WantError(t, apitest.BulkSend(t, srv, apitest.OutsiderKey, "bulk_send_with_template", body), http.StatusNotFound, "not_found", "template_ids[0]")

	body["test_mode"] = false
	apitest.SetQuota(t, srv, apitest.OwnerID, 1)
	apitest.WantError(t, apitest.BulkSend(t, srv, srv.APIKey, "bulk_send_with_template", body), http.StatusPaymentRequired, "payment_required", "")

	apitest.SetQuota(t, srv, apitest.OwnerID, 3)
	apitest.BulkJob(t, srv, "bulk_send_with_template", body)
	assert.Equal(t, float64(3), apitest.Quotas(t, srv, srv.APIKey)["api_signature_requests_left"], "nothing is consumed until the requests exist")
	srv.Advance(apitest.SendProcessDelay)
	assert.Equal(t, float64(1), apitest.Quotas(t, srv, srv.APIKey)["api_signature_requests_left"])

	// The quota ran out between acceptance and the job: the entries left
	// over are not sent.
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", func() map[string]any {
		b := apitest.BulkBody(tid)
		b["test_mode"] = false
		b["signer_list"] = b["signer_list"].([]map[string]any)[:1]
		return b
	}())
	apitest.SetQuota(t, srv, apitest.OwnerID, 0)
	srv.Advance(apitest.SendProcessDelay)
	got := apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), "")
	assert.Empty(t, apitest.BulkRequests(got))
	assert.Equal(t, float64(1), got["bulk_send_job"].(map[string]any)["total"])
}

// TestBulkSendReassignUnsupported: a template that allows reassignment is
// sent without it, with the official reassign_unsupported warning.
func TestBulkSendReassignUnsupported(t *testing.T) {
	srv := apitest.NewServer(t)
	tb := apitest.BulkTemplateBody()
	tb["allow_reassign"] = true
	tid := apitest.CreateTemplate(t, srv, srv.APIKey, tb)
	srv.Advance(apitest.TemplatePrepDelay)
	r := apitest.BulkSend(t, srv, srv.APIKey, "bulk_send_with_template", apitest.BulkBody(tid))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	w := r.Map()["warnings"].([]any)
	require.Len(t, w, 1)
	assert.Equal(t, "reassign_unsupported", w[0].(map[string]any)["warning_name"])
	srv.Advance(apitest.SendProcessDelay)
	id := r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"].(string)
	reqs := apitest.BulkRequests(apitest.BulkGetOK(t, srv, id, ""))
	require.Len(t, reqs, 2)
	srv.Advance(apitest.SendProcessDelay)
	rr := srv.SignerAction(apitest.SignatureID(reqs[0], 0), "reassign", map[string]any{"name": "X", "email_address": "x@example.com"})
	apitest.WantError(t, rr, http.StatusForbidden, "forbidden", "")
}

// TestBulkSendDeterministic: the same calls on two servers give the same
// job and request ids.
func TestBulkSendDeterministic(t *testing.T) {
	run := func() []string {
		srv := apitest.NewServer(t)
		tid := apitest.BulkTemplate(t, srv)
		job := apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(tid))
		srv.Advance(apitest.SendProcessDelay)
		out := []string{tid, job["bulk_send_job_id"].(string)}
		for _, r := range apitest.BulkRequests(apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), "")) {
			out = append(out, r["signature_request_id"].(string), apitest.SignatureID(r, 0))
		}
		return out
	}
	assert.Equal(t, run(), run())
}

// TestBulkSendJobSurvivesExport: a queued job is part of the world's
// state: imported elsewhere, it still creates its requests.
func TestBulkSendJobSurvivesExport(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(tid))
	got := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, got.Status)
	other := apitest.NewServer(t)
	r := other.Do(http.MethodPut, sandbox.ControlPrefix+"/state", got.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	other.Advance(apitest.SendProcessDelay)
	assert.Len(t, apitest.BulkRequests(apitest.BulkGetOK(t, other, job["bulk_send_job_id"].(string), "")), 2)
}

// TestBulkSendWarnsOnce: what binding warns about the job as a whole (a
// common custom field no template uses) is said once, not per entry.
func TestBulkSendWarnsOnce(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := apitest.BulkBody(tid)
	body["custom_fields"] = []map[string]any{{"name": "no such field", "value": "x"}}
	body["template_ids"] = []string{tid, tid}
	r := apitest.BulkSend(t, srv, srv.APIKey, "bulk_send_with_template", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	seen := map[string]bool{}
	ws, _ := r.Map()["warnings"].([]any)
	for _, w := range ws {
		m := w.(map[string]any)
		key := m["warning_name"].(string) + "|" + m["warning_msg"].(string)
		assert.False(t, seen[key], "repeated warning %s", key)
		seen[key] = true
	}
	assert.NotEmpty(t, ws, "duplicate_template_ids at least")
}
