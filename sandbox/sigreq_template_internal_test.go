package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// tbUse is a resolved template with two signer roles (Client ordered
// before Witness), a CC role and a merge field.
func tbUse() *template.Use {
	return &template.Use{
		Documents:   []model.Document{{Name: "t.pdf"}},
		SignerRoles: []template.Role{{Name: "Client", Order: intPtr(0)}, {Name: "Witness", Order: intPtr(1)}},
		CCRoles:     []string{"Accounting"},
		FormFields: []model.FormField{
			{APIID: "sig", Type: fields.TypeSignature, Role: "Witness"},
			{APIID: "company", Name: "company", Type: fields.TypeTextMerge, Signer: fields.SignerSender},
		},
		MergeFields: []template.MergeField{{Name: "company", Type: "text", APIID: "company"}},
		Title:       "Template title",
	}
}

// TestBulkSendResolvesTemplatesOnce: a bulk send job resolves its
// templates once, however many entries it binds.
func TestBulkSendResolvesTemplatesOnce(t *testing.T) {
	calls := 0
	resolver := func(_ *api.Call, _ *state.Txn, ids []string) (*template.Use, error) {
		calls++
		use := tbUse()
		use.SignerRoles = use.SignerRoles[:1]
		use.FormFields = use.FormFields[1:]
		use.CCRoles = nil
		return use, nil
	}
	var list []map[string]any
	for i := range 20 {
		list = append(list, map[string]any{
			"signers":       []map[string]any{{"role": "Client", "name": "Signer", "email_address": "s" + itoa(i) + "@example.com"}},
			"custom_fields": []map[string]any{{"name": "company", "value": "Co " + itoa(i)}},
		})
	}
	body, err := json.Marshal(map[string]any{"template_ids": []string{"tpl"}, "signer_list": list, "test_mode": true})
	require.NoError(t, err)
	s := sigreqTestSandbox(t)
	sigreq.StandInTemplates(s.host.DefaultWorld(), resolver)
	req := httptest.NewRequest(http.MethodPost, "/v3/signature_request/bulk_send_with_template", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(s.DefaultAPIKey(), "")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, "%s", rec.Body)
	assert.Equal(t, 1, calls, "one resolution for the whole job")

	_, err = s.host.DefaultWorld().Advance(time.Minute)
	require.NoError(t, err)
	jobs, err := state.All[model.BulkSendJob](s.host.DefaultWorld().Store.Read(), state.TableBulkSendJobs, "id")
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.Len(t, jobs[0].RequestIDs, 20)
	assert.Equal(t, 1, calls, "sending the job resolves nothing again")
}
