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

// TestBindTemplateUse: binding is a pure function of the body and the
// resolved templates; roles left open are refused unless the caller leaves
// them open (template drafts), where they keep their slot and order.
func TestBindTemplateUse(t *testing.T) {
	tb := &sigreq.TemplateBody{
		TemplateIDs:  []string{"tpl"},
		Signers:      []sigreq.SubSigner{{Role: "Witness", Name: "Wendy", EmailAddress: "wendy@example.com"}},
		CustomFields: []sigreq.SubCustomField{{Name: "company", Value: "ACME"}},
	}
	var spec sigreq.Spec
	e := spec.BindTemplateUse(&api.Call{}, tbUse(), tb, nil, false)
	require.NotNil(t, e)
	assert.Equal(t, "signers", e.Path)
	assert.Contains(t, e.Msg, `"Client"`)

	spec = sigreq.Spec{}
	require.Nil(t, spec.BindTemplateUse(&api.Call{}, tbUse(), tb, []model.Document{{Name: "extra.pdf"}}, true))
	require.Len(t, spec.Signers, 2)
	assert.Equal(t, model.Signature{Slot: 0, Role: "Client", Order: intPtr(0)}, spec.Signers[0], "an open role: no name or address yet")
	assert.Equal(t, "wendy@example.com", spec.Signers[1].Email)
	assert.Equal(t, 1, spec.Signers[1].Slot)
	assert.Equal(t, []string{""}, spec.CCEmails, "an open CC role keeps its place")
	assert.Equal(t, "1", spec.FormFields[0].Signer, "the Witness field belongs to slot 1")
	assert.Equal(t, []string{"t.pdf", "extra.pdf"}, []string{spec.Documents[0].Name, spec.Documents[1].Name})
	require.Len(t, spec.CustomFields, 1)
	assert.Equal(t, "ACME", spec.CustomFields[0].Value)
	assert.Equal(t, "Template title", spec.Title)

	tb.CCs = []sigreq.SubCC{{Role: "Nobody", EmailAddress: "x@example.com"}}
	e = (&sigreq.Spec{}).BindTemplateUse(&api.Call{}, tbUse(), tb, nil, true)
	require.NotNil(t, e)
	assert.Equal(t, "ccs[0][role]", e.Path)
}

// TestCheckTemplateBodySignersOptional: signers are required unless the
// caller allows none; given signers are checked either way.
func TestCheckTemplateBodySignersOptional(t *testing.T) {
	b := &sigreq.Body{TemplateIDs: []string{"tpl"}}
	_, e := b.CheckTemplateBody(&api.Call{}, false)
	require.NotNil(t, e)
	assert.Equal(t, "signers", e.Path)
	tb, e := b.CheckTemplateBody(&api.Call{}, true)
	require.Nil(t, e)
	assert.Empty(t, tb.Signers)
	assert.Equal(t, []string{"tpl"}, tb.TemplateIDs)

	b.Signers = []sigreq.SubSigner{{Name: "No Role", EmailAddress: "a@example.com"}}
	_, e = b.CheckTemplateBody(&api.Call{}, true)
	require.NotNil(t, e)
	assert.Equal(t, "signers[0][role]", e.Path)
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
