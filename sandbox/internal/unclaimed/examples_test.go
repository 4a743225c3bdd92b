package unclaimed_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestUnclaimedDraftOfficialExamples: every official request example of
// the draft operations is accepted as it is (with the fixture app's
// client_id and a template of this world), JSON with file_urls.
func TestUnclaimedDraftOfficialExamples(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	tid := apitest.BulkTemplate(t, srv)
	for _, tc := range []struct{ file, op string }{
		{"UnclaimedDraftCreateRequest.json", "create"},
		{"UnclaimedDraftCreateRequestFormFieldGroups.json", "create"},
		{"UnclaimedDraftCreateRequestFormFieldRules.json", "create"},
		{"UnclaimedDraftCreateRequestFormFieldsPerDocument.json", "create"},
		{"UnclaimedDraftCreateEmbeddedRequest.json", "create_embedded"},
		{"UnclaimedDraftCreateEmbeddedRequestFormFieldGroups.json", "create_embedded"},
		{"UnclaimedDraftCreateEmbeddedRequestFormFieldRules.json", "create_embedded"},
		{"UnclaimedDraftCreateEmbeddedRequestFormFieldsPerDocument.json", "create_embedded"},
		{"UnclaimedDraftCreateEmbeddedWithTemplateRequest.json", "create_embedded_with_template"},
	} {
		t.Run(strings.TrimSuffix(tc.file, ".json"), func(t *testing.T) {
			body := apitest.OfficialExample(t, tc.file)
			if _, ok := body["client_id"]; ok {
				body["client_id"] = apitest.ClientID
			}
			if _, ok := body["template_ids"]; ok {
				body["template_ids"] = []string{tid}
			}
			r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/"+tc.op, body)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			d := r.Map()["unclaimed_draft"].(map[string]any)
			assert.Len(t, d["signature_request_id"], 40)
			assert.Equal(t, body["test_mode"], d["test_mode"])
		})
	}
}

// TestUnclaimedDraftDeterministic: the same calls on two servers give the
// same ids, claim URLs (relative to each server) and requests.
func TestUnclaimedDraftDeterministic(t *testing.T) {
	run := func() []string {
		srv := apitest.NewServer(t)
		var out []string
		d := apitest.Draft(t, srv, "create", apitest.DraftBody())
		e := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
		for _, x := range []map[string]any{d, e} {
			raw, _ := json.Marshal(x)
			out = append(out, strings.ReplaceAll(string(raw), srv.URL, "<base>"))
		}
		sr := srv.ClaimDraft(e["signature_request_id"].(string), nil)
		raw, _ := json.Marshal(sr)
		out = append(out, strings.ReplaceAll(string(raw), srv.URL, "<base>"))
		return out
	}
	assert.Equal(t, run(), run())
}

// TestUnclaimedDraftSurvivesExport: a draft waiting for its user is part of
// the world's state: exported, imported into another world, it is still
// claimed and sent there.
func TestUnclaimedDraftSurvivesExport(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create", apitest.DraftBody())
	got := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, got.Status)

	other := apitest.NewControlCheckedServer(t)
	r := other.Do(http.MethodPut, sandbox.ControlPrefix+"/state", got.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	claim := strings.Replace(d["claim_url"].(string), srv.URL, other.URL, 1)
	page := other.DoAs("", http.MethodGet, strings.TrimPrefix(claim, other.URL), nil)
	require.Equal(t, http.StatusOK, page.Status, "%s", page.Body)
	sr := other.ClaimDraft(d["signature_request_id"].(string), nil)
	assert.Equal(t, "Lease", sr["subject"])
	assert.Equal(t, map[string]any{"ref": "L-7"}, sr["metadata"])
}
