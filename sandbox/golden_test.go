package sandbox_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden response bodies in testdata/golden")

// TestGoldenResponses pins whole response bodies of a fixed story, where the
// shape matters more than any single field: a diff in testdata/golden shows
// every change of what integrators receive. IDs, times and URLs are
// deterministic (seeded IDs, fake clock, fixed base URL). Refresh with
// go test ./sandbox -run TestGoldenResponses -update and review the diff.
func TestGoldenResponses(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithBaseURL("http://sandbox.test"), sandbox.WithOfflineFiles())
	check := func(name string, status int, body []byte, wantStatus int) {
		t.Helper()
		require.Equal(t, wantStatus, status, "%s: %s", name, body)
		var v any
		require.NoError(t, json.Unmarshal(body, &v), name)
		pretty, err := json.MarshalIndent(v, "", "  ")
		require.NoError(t, err)
		pretty = append(pretty, '\n')
		path := filepath.Join("testdata", "golden", name+".json")
		if *updateGolden {
			require.NoError(t, os.WriteFile(path, pretty, 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test ./sandbox -run TestGoldenResponses -update to create %s", path)
		assert.Equal(t, string(want), string(pretty), "%s changed; review and run with -update", name)
	}

	r := srv.Do(http.MethodGet, "/v3/account", nil)
	check("account_get", r.Status, r.Body, http.StatusOK)

	send := map[string]any{
		"title": "NDA", "subject": "Please sign", "message": "Thanks", "test_mode": true,
		"file_urls":          []string{"https://example.com/nda.pdf"},
		"signers":            []map[string]any{{"name": "Jack", "email_address": "jack@example.com", "order": 0}, {"name": "Jill", "email_address": "jill@example.com", "order": 1}},
		"cc_email_addresses": []string{"lawyer@example.com"},
		"metadata":           map[string]any{"custom_id": 1234, "custom_text": "NDA #9"},
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "name", "name": "Full name", "type": "text", "x": 100, "y": 100, "width": 200, "height": 20, "required": true, "signer": "0", "page": 1},
			{"document_index": 0, "api_id": "sig1", "name": "Signature", "type": "signature", "x": 100, "y": 200, "width": 200, "height": 40, "required": true, "signer": "0", "page": 1},
			{"document_index": 0, "api_id": "sig2", "name": "Signature", "type": "signature", "x": 100, "y": 300, "width": 200, "height": 40, "required": true, "signer": "1", "page": 1},
		},
	}
	r = srv.Do(http.MethodPost, "/v3/signature_request/send", send)
	check("signature_request_send", r.Status, r.Body, http.StatusOK)
	var sent struct {
		SignatureRequest struct {
			ID         string `json:"signature_request_id"`
			Signatures []struct {
				ID string `json:"signature_id"`
			} `json:"signatures"`
		} `json:"signature_request"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &sent))
	id := sent.SignatureRequest.ID

	srv.Advance(10 * time.Second)
	srv.View(sent.SignatureRequest.Signatures[0].ID)
	srv.Sign(sent.SignatureRequest.Signatures[0].ID, map[string]any{"name": "Jack Jones"})
	srv.Sign(sent.SignatureRequest.Signatures[1].ID, nil)
	srv.Advance(time.Minute)

	r = srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil)
	check("signature_request_get_completed", r.Status, r.Body, http.StatusOK)
	r = srv.Do(http.MethodGet, "/v3/signature_request/list?page_size=1", nil)
	check("signature_request_list", r.Status, r.Body, http.StatusOK)
	r = srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)
	check("signature_request_files_as_file_url", r.Status, r.Body, http.StatusOK)

	tpl := map[string]any{
		"title": "Lease", "test_mode": true, "file_urls": []string{"https://example.com/lease.pdf"},
		"signer_roles": []map[string]any{{"name": "Tenant", "order": 0}, {"name": "Landlord", "order": 1}},
		"cc_roles":     []string{"Agent"},
		"merge_fields": []map[string]any{{"name": "rent", "type": "text"}},
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "tenant_sig", "name": "Tenant", "type": "signature", "x": 100, "y": 100, "width": 200, "height": 40, "required": true, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "rent", "name": "rent", "type": "text-merge", "x": 100, "y": 200, "width": 200, "height": 20, "required": true, "signer": "sender", "page": 1},
		},
	}
	r = srv.Do(http.MethodPost, "/v3/template/create", tpl)
	check("template_create", r.Status, r.Body, http.StatusOK)
	var created struct {
		Template struct {
			ID string `json:"template_id"`
		} `json:"template"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &created))
	srv.Advance(time.Minute)
	r = srv.Do(http.MethodGet, "/v3/template/"+created.Template.ID, nil)
	check("template_get", r.Status, r.Body, http.StatusOK)

	r = srv.Do(http.MethodGet, "/v3/signature_request/nope", nil)
	check("error_not_found", r.Status, r.Body, http.StatusNotFound)
	r = srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{"file_urls": []string{"https://example.com/a.pdf"},
		"signers": []map[string]any{{"name": "Jack", "email_address": "not-an-email"}}})
	check("error_bad_signer", r.Status, r.Body, http.StatusBadRequest)

	r = srv.Do(http.MethodGet, "/_sandbox/callbacks?event_type=signature_request_all_signed&object_id="+id, nil)
	require.Equal(t, http.StatusOK, r.Status)
	var cbs struct {
		Callbacks []struct {
			Object json.RawMessage `json:"object"`
		} `json:"callbacks"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &cbs))
	require.Len(t, cbs.Callbacks, 1)
	check("event_all_signed_object", http.StatusOK, bytes.TrimSpace(cbs.Callbacks[0].Object), http.StatusOK)
}
