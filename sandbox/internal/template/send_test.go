package template_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestTemplateSendWithMergeFields(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	out := apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(id))
	sr := out["signature_request"].(map[string]any)
	assert.Equal(t, []any{id}, sr["template_ids"])
	assert.Equal(t, "NDA for you", sr["subject"], "the request's own subject")
	assert.Equal(t, []any{"manager@example.com"}, sr["cc_email_addresses"])

	sigs := sr["signatures"].([]any)
	require.Len(t, sigs, 2)
	assert.Equal(t, "Client", sigs[0].(map[string]any)["signer_role"], "signers in role order")
	assert.Equal(t, "carl@example.com", sigs[0].(map[string]any)["signer_email_address"])
	assert.EqualValues(t, 0, sigs[0].(map[string]any)["order"])
	assert.Equal(t, "Witness", sigs[1].(map[string]any)["signer_role"])

	// custom_fields: SignatureRequestResponseCustomFieldText / ...Checkbox.
	assert.Equal(t, []any{
		map[string]any{"name": "Full Name", "type": "text", "value": "Jane Q. Public", "required": false, "api_id": "merge_name", "editor": nil},
		map[string]any{"name": "Is Registered", "type": "checkbox", "value": true, "required": false, "api_id": "merge_reg", "editor": nil},
	}, sr["custom_fields"])
	// The merged values are in response_data from the start (the sender
	// filled them), checkbox-merge as a string.
	assert.Equal(t, map[string]any{"merge_name": "Jane Q. Public", "merge_reg": "true"}, tplMergeValues(sr))
	assert.Empty(t, out["warnings"], "every custom field fills a merge field")

	// Sign in order, then read response_data and the PDF.
	reqID := sr["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	values := []map[string]any{{"agree_a": true}, {"wit_name": "Wanda"}}
	for i, s := range sigs {
		srv.Control(http.MethodPost, "/signatures/"+s.(map[string]any)["signature_id"].(string)+"/sign",
			map[string]any{"values": values[i]}, nil)
	}
	srv.Advance(time.Minute)
	r := srv.Do(http.MethodGet, "/v3/signature_request/"+reqID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr = r.Map()["signature_request"].(map[string]any)
	assert.Equal(t, true, sr["is_complete"])
	assert.Equal(t, map[string]any{"merge_name": "Jane Q. Public", "merge_reg": "true"}, tplMergeValues(sr),
		"signing keeps the merged values")
	for _, v := range sr["response_data"].([]any) {
		m := v.(map[string]any)
		if m["api_id"] == "merge_name" {
			assert.Equal(t, map[string]any{"api_id": "merge_name", "name": "Full Name", "type": "text-merge", "value": "Jane Q. Public",
				"required": false, "signature_id": sigs[0].(map[string]any)["signature_id"]}, m, "linked to the first signer")
		}
	}

	pdf := srv.Do(http.MethodGet, "/v3/signature_request/files/"+reqID, nil)
	require.Equal(t, http.StatusOK, pdf.Status, "%.300s", pdf.Body)
	text := apitest.PDFText(t, pdf.Body)
	assert.Contains(t, text, "Jane Q. Public", "the merged value is printed on the document")
}

// tplMergeValues maps the api_id of every text-merge and checkbox-merge
// entry of a request's response_data to its value.
func tplMergeValues(sr map[string]any) map[string]any {
	merged := map[string]any{}
	for _, v := range sr["response_data"].([]any) {
		m := v.(map[string]any)
		if m["type"] == "text-merge" || m["type"] == "checkbox-merge" {
			merged[m["api_id"].(string)] = m["value"]
		}
	}
	return merged
}

func TestTemplateSendCombinesTemplatesInOrder(t *testing.T) {
	srv := apitest.NewServer(t)
	first := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "one.pdf", Data: apitest.PagesPDF(apitest.Portrait)})
	second := apitest.StandardTemplate()
	second["signer_roles"] = []map[string]any{{"name": "Client"}, {"name": "Notary"}}
	second["cc_roles"] = []string{}
	delete(second, "merge_fields")
	second["form_fields_per_document"] = []map[string]any{
		{"document_index": 0, "api_id": "sig_client", "type": "signature", "x": 10, "y": 10, "width": 100, "height": 20, "required": true, "signer": "Client"},
		{"document_index": 0, "api_id": "sig_notary", "type": "signature", "x": 10, "y": 50, "width": 100, "height": 20, "required": true, "signer": "Notary"},
	}
	delete(second, "form_field_groups")
	secondID := apitest.CreateTemplate(t, srv, srv.APIKey, second, apitest.PDFFile{Name: "two.pdf", Data: apitest.PagesPDF(apitest.Portrait)})
	srv.Advance(apitest.TemplatePrepDelay)

	body := apitest.TemplateSendBody(first, secondID, first)
	body["signers"] = append(body["signers"].([]map[string]any), map[string]any{"role": "Notary", "name": "Nora", "email_address": "nora@example.com"})
	r := srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	m := r.Map()
	sr := m["signature_request"].(map[string]any)
	assert.Equal(t, []any{first, secondID}, sr["template_ids"], "duplicates are used once")
	var roles []string
	for _, s := range sr["signatures"].([]any) {
		roles = append(roles, s.(map[string]any)["signer_role"].(string))
	}
	assert.Equal(t, []string{"Client", "Witness", "Notary"}, roles, "roles merged by name, in template order")
	var warned []string
	for _, w := range m["warnings"].([]any) {
		warned = append(warned, w.(map[string]any)["warning_name"].(string))
	}
	assert.Contains(t, warned, "duplicate_template_ids")
}

func TestTemplateSendRefusals(t *testing.T) {
	srv := apitest.NewServer(t)
	ready := apitest.ReadyTemplate(t, srv)
	preparing := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	f := apitest.StandardTemplate()
	f["test_mode"] = true
	locked := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	deleted := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	srv.Advance(apitest.TemplatePrepDelay)
	preparing2 := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	_ = preparing
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/delete/"+deleted, nil).Status)
	other := srv.NewWorld()

	mutate := func(change func(b map[string]any)) map[string]any {
		b := apitest.TemplateSendBody(ready)
		change(b)
		return b
	}
	cases := []struct {
		name, key string
		body      map[string]any
		status    int
		errName   string
		path      string
	}{
		{"unknown template", srv.APIKey, apitest.TemplateSendBody("ffffffffffffffffffffffffffffffffffffffff"), 404, "not_found", "template_ids[0]"},
		{"deleted template", srv.APIKey, apitest.TemplateSendBody(deleted), 404, "not_found", "template_ids[0]"},
		{"template being prepared", srv.APIKey, apitest.TemplateSendBody(ready, preparing2), 409, "conflict", "template_ids[1]"},
		{"locked template outside test_mode", srv.APIKey, apitest.TemplateSendBody(locked), 402, "payment_required", "template_ids[0]"},
		{"team template not shared", apitest.TeammateKey, apitest.TemplateSendBody(ready), 403, "forbidden", "template_ids[0]"},
		{"another account's template", apitest.OutsiderKey, mutate(func(b map[string]any) { b["test_mode"] = true }), 404, "not_found", "template_ids[0]"},
		{"another world's template", other.APIKey, apitest.TemplateSendBody(ready), 404, "not_found", "template_ids[0]"},
		{"unknown role", srv.APIKey, mutate(func(b map[string]any) {
			b["signers"].([]map[string]any)[0]["role"] = "witness"
		}), 400, "bad_request", "signers[0][role]"},
		{"role left empty", srv.APIKey, mutate(func(b map[string]any) {
			b["signers"] = b["signers"].([]map[string]any)[:1]
		}), 400, "bad_request", "signers"},
		{"cc role left empty", srv.APIKey, mutate(func(b map[string]any) { delete(b, "ccs") }), 400, "bad_request", "ccs"},
		{"unknown cc role", srv.APIKey, mutate(func(b map[string]any) {
			b["ccs"] = []map[string]any{{"role": "Boss", "email_address": "b@example.com"}}
		}), 400, "bad_request", "ccs[0][role]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.DoAs(tc.key, http.MethodPost, "/v3/signature_request/send_with_template", tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			name, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.errName, name)
			assert.Equal(t, tc.path, path)
		})
	}

	// Locked templates work in test_mode; shared templates work for the
	// member they are shared with.
	body := apitest.TemplateSendBody(locked)
	body["test_mode"] = true
	apitest.SendWithTemplate(t, srv, srv.APIKey, body)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/add_user/"+ready, map[string]any{"account_id": apitest.TeammateID}).Status)
	apitest.SendWithTemplate(t, srv, apitest.TeammateKey, apitest.TemplateSendBody(ready))
}

func TestTemplateOldTemplateStillSendsAfterAnOverlay(t *testing.T) {
	srv := apitest.NewServer(t)
	id := tplTwoPageTemplate(t, srv)
	newID := apitest.UpdateTemplateFiles(t, srv, id, apitest.PagesPDF(apitest.Portrait, apitest.Portrait, apitest.Portrait))
	srv.Advance(apitest.TemplatePrepDelay)
	for _, tid := range []string{id, newID} {
		sr := apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(tid))["signature_request"].(map[string]any)
		assert.Equal(t, []any{tid}, sr["template_ids"])
	}
	// The new template's fields sit on the page they had: sig_client on
	// page 2 of the three-page file, the others on page 1.
	places := tplFieldPlaces(t, srv, newID)
	assert.Equal(t, [2]int{0, 2}, places["sig_client"])
	assert.Equal(t, [2]int{0, 1}, places["wit_name"])
}

// TestTemplateSendCarriesTemplateSettings pins that a request made from a
// template takes the template's field_options.date_format (the date_signed
// values) and signer_experience, unless the request gives its own
// signer_experience.
func TestTemplateSendCarriesTemplateSettings(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	sr := apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(id))["signature_request"].(map[string]any)
	assert.Equal(t, map[string]any{"form_view": "enabled"}, sr["signer_experience"], "the template's signer_experience")

	srv.Advance(5 * time.Second)
	client := sr["signatures"].([]any)[0].(map[string]any)
	require.Equal(t, "Client", client["signer_role"])
	srv.Control(http.MethodPost, "/signatures/"+client["signature_id"].(string)+"/sign", map[string]any{"values": map[string]any{"agree_a": true}}, nil)
	r := srv.Do(http.MethodGet, "/v3/signature_request/"+sr["signature_request_id"].(string), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	dates := map[string]any{}
	for _, v := range r.Map()["signature_request"].(map[string]any)["response_data"].([]any) {
		if m := v.(map[string]any); m["type"] == "date_signed" {
			dates[m["api_id"].(string)] = m["value"]
		}
	}
	assert.Equal(t, map[string]any{"date_client": srv.Now().UTC().Format("02 - 01 - 2006")}, dates, "the template's DD - MM - YYYY")

	body := apitest.TemplateSendBody(id)
	body["signer_experience"] = map[string]any{"form_view": "forced"}
	sr = apitest.SendWithTemplate(t, srv, srv.APIKey, body)["signature_request"].(map[string]any)
	assert.Equal(t, map[string]any{"form_view": "forced"}, sr["signer_experience"], "the request's own signer_experience prevails")
}
