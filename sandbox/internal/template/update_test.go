package template_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// The official TemplateUpdateRequest example (examples/json/
// TemplateUpdateRequest.json), with the api_ids of the standard template.
func tplUpdateExample() map[string]any {
	return map[string]any{
		"signer_experience": map[string]any{"form_view": "disabled"},
		"title":             "Test Title",
		"subject":           "Test Subject",
		"message":           "Test Message",
		"cc_roles":          []string{"CC Role 1", "CC Role 2"},
		"form_fields": []map[string]any{
			{"api_id": "sig_client", "name": "New name 1"},
			{"api_id": "wit_name", "name": "New name 2"},
		},
	}
}

// tplFormFieldNames maps the api_id of every form field of a template (as
// GET /template shows it) to its name.
func tplFormFieldNames(tpl map[string]any) map[string]any {
	out := map[string]any{}
	for _, d := range tpl["documents"].([]any) {
		for _, f := range d.(map[string]any)["form_fields"].([]any) {
			m := f.(map[string]any)
			out[m["api_id"].(string)] = m["name"]
		}
	}
	return out
}

// templateUpdate changes what it is given, in place, answers the template
// as GET /template shows it (validated against openapi-sdk.yaml, where the
// operation is described), and leaves everything else as it was.
func TestTemplateUpdateChangesWhatItIsGiven(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	before := apitest.GetTemplate(t, srv, srv.APIKey, id)
	srv.Advance(time.Hour)

	r := srv.Do(http.MethodPost, "/v3/template/update/"+id, tplUpdateExample())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.NotContains(t, r.Map(), "warnings")
	got := r.Map()["template"].(map[string]any)
	assert.Equal(t, got, apitest.GetTemplate(t, srv, srv.APIKey, id), "the answer is the template as GET shows it")

	assert.Equal(t, id, got["template_id"], "changed in place, not copied")
	assert.Equal(t, "Test Title", got["title"])
	assert.Equal(t, "Test Message", got["message"])
	assert.Equal(t, []any{map[string]any{"name": "CC Role 1"}, map[string]any{"name": "CC Role 2"}}, got["cc_roles"])
	assert.Equal(t, map[string]any{"form_view": "disabled"}, got["signer_experience"])
	names := tplFormFieldNames(got)
	assert.Equal(t, "New name 1", names["sig_client"])
	assert.Equal(t, "New name 2", names["wit_name"])
	assert.Equal(t, tplFormFieldNames(before)["date_client"], names["date_client"], "fields not named keep their names")
	assert.EqualValues(t, srv.Now().Unix(), got["updated_at"])

	for _, k := range []string{"signer_roles", "metadata", "attachments", "accounts", "is_locked", "can_edit", "is_embedded"} {
		assert.Equal(t, before[k], got[k], k)
	}
	assert.Empty(t, apitest.Events(srv, "template_created", id)[1:], "no new template_created")
	assert.Len(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""), 1, "no new template")

	// An empty body changes nothing but updated_at.
	r = srv.Do(http.MethodPost, "/v3/template/update/"+id, map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	again := r.Map()["template"].(map[string]any)
	assert.Equal(t, "Test Title", again["title"])
	assert.Equal(t, got["cc_roles"], again["cc_roles"])
}

// Requests sent from the template afterwards take its new title, subject,
// message, CC roles, form view and field names.
func TestTemplateUpdateShowsInRequestsSentAfterwards(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	upd := map[string]any{
		"title": "Renamed NDA", "subject": "New subject", "message": "New message",
		"cc_roles":          []string{"Legal"},
		"signer_experience": map[string]any{"form_view": "forced"},
		"form_fields":       []map[string]any{{"api_id": "wit_name", "name": "Witness full name"}},
	}
	r := srv.Do(http.MethodPost, "/v3/template/update/"+id, upd)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	body := apitest.TemplateSendBody(id)
	delete(body, "subject")
	r = srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", body)
	require.Equal(t, http.StatusBadRequest, r.Status, "the old CC role is gone: %s", r.Body)
	_, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Contains(t, msg, "Manager")
	delete(body, "ccs")
	r = srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", body)
	require.Equal(t, http.StatusBadRequest, r.Status, "the new one needs an address: %s", r.Body)
	_, msg, _ = apitest.ErrorParts(t, r.Body)
	assert.Contains(t, msg, "Legal")

	body["ccs"] = []map[string]any{{"role": "Legal", "email_address": "legal@example.com"}}
	sr := apitest.SendWithTemplate(t, srv, srv.APIKey, body)["signature_request"].(map[string]any)
	assert.Equal(t, "Renamed NDA", sr["title"])
	assert.Equal(t, "New subject", sr["subject"])
	assert.Equal(t, "New message", sr["message"])
	assert.Equal(t, []any{"legal@example.com"}, sr["cc_email_addresses"])
	assert.Equal(t, map[string]any{"form_view": "forced"}, sr["signer_experience"])

	srv.Advance(5 * time.Second)
	sigs := sr["signatures"].([]any)
	values := []map[string]any{{"agree_a": true}, {"wit_name": "Wanda"}}
	for i, s := range sigs {
		srv.Control(http.MethodPost, "/signatures/"+s.(map[string]any)["signature_id"].(string)+"/sign",
			map[string]any{"values": values[i]}, nil)
	}
	r = srv.Do(http.MethodGet, "/v3/signature_request/"+sr["signature_request_id"].(string), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	found := false
	for _, v := range r.Map()["signature_request"].(map[string]any)["response_data"].([]any) {
		if m := v.(map[string]any); m["api_id"] == "wit_name" {
			found = true
			assert.Equal(t, "Witness full name", m["name"], "the renamed field")
			assert.Equal(t, "Wanda", m["value"])
		}
	}
	assert.True(t, found, "wit_name in response_data")
}

// The access, state and input rules are those of the template's other
// changes (update_files, add_user): 404 for whoever cannot see it, 403 for
// a teammate who can, 409 while it is prepared, 400 naming the field.
func TestTemplateUpdateRules(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	path := "/v3/template/update/" + id
	title := map[string]any{"title": "x"}

	cases := []struct {
		name    string
		key     string
		path    string
		body    map[string]any
		status  int
		errPath string
	}{
		{"unknown template", srv.APIKey, "/v3/template/update/" + "0123456789abcdef0123456789abcdef01234567", title, 404, ""},
		{"outsider", apitest.OutsiderKey, path, title, 404, ""},
		{"teammate who can see it", apitest.TeammateKey, path, title, 403, ""},
		{"subject too long", srv.APIKey, path, map[string]any{"subject": string(make([]byte, 201))}, 400, "subject"},
		{"message too long", srv.APIKey, path, map[string]any{"message": string(make([]byte, 5001))}, 400, "message"},
		{"title too long", srv.APIKey, path, map[string]any{"title": string(make([]byte, 256))}, 400, "title"},
		{"blank cc role among others", srv.APIKey, path, map[string]any{"cc_roles": []string{"A", " "}}, 400, "cc_roles[1]"},
		{"duplicate cc role", srv.APIKey, path, map[string]any{"cc_roles": []string{"A", "a"}}, 400, "cc_roles[1]"},
		{"cc role named as a signer role", srv.APIKey, path, map[string]any{"cc_roles": []string{"client"}}, 400, "cc_roles[0]"},
		{"cc_roles not a list", srv.APIKey, path, map[string]any{"cc_roles": map[string]any{"a": "b"}}, 400, "cc_roles"},
		{"form field without api_id", srv.APIKey, path, map[string]any{"form_fields": []map[string]any{{"name": "x"}}}, 400, "form_fields[0][api_id]"},
		{"form field twice", srv.APIKey, path, map[string]any{"form_fields": []map[string]any{{"api_id": "wit_name"}, {"api_id": "wit_name"}}}, 400, "form_fields[1][api_id]"},
		{"bad form_view", srv.APIKey, path, map[string]any{"signer_experience": map[string]any{"form_view": "sometimes"}}, 400, "signer_experience[form_view]"},
		{"both form view parameters", srv.APIKey, path, map[string]any{"allow_form_view": true, "signer_experience": map[string]any{"form_view": "enabled"}}, 400, "allow_form_view"},
		{"title not a string", srv.APIKey, path, map[string]any{"title": map[string]any{"a": 1}}, 400, "title"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.DoAs(tc.key, http.MethodPost, tc.path, tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			if tc.errPath != "" {
				_, _, p := apitest.ErrorParts(t, r.Body)
				assert.Equal(t, tc.errPath, p)
			}
		})
	}
	assert.Equal(t, "Mutual NDA", apitest.GetTemplate(t, srv, srv.APIKey, id)["title"], "nothing refused changed the template")

	// While a template is prepared: 409, as update_files.
	fresh := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	r := srv.Do(http.MethodPost, "/v3/template/update/"+fresh, title)
	require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "conflict", name)
}

// An api_id that names no form field (or a merge field) changes nothing
// and is answered with a parameter_invalid warning, as the description
// says ("warn you if no matches are found"); an empty cc_roles, or a
// single role with no name, removes every CC role.
func TestTemplateUpdateWarnsAndClears(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	r := srv.Do(http.MethodPost, "/v3/template/update/"+id, map[string]any{
		"cc_roles":    []string{},
		"form_fields": []map[string]any{{"api_id": "nope", "name": "x"}, {"api_id": "merge_name", "name": "y"}, {"api_id": "date_client", "name": "Signed on"}},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	out := r.Map()
	assert.Equal(t, "Signed on", tplFormFieldNames(out["template"].(map[string]any))["date_client"])
	assert.Equal(t, []any{}, out["template"].(map[string]any)["cc_roles"])
	require.Len(t, out["warnings"], 2)
	for i, p := range []string{"form_fields[0][api_id]", "form_fields[1][api_id]"} {
		w := out["warnings"].([]any)[i].(map[string]any)
		assert.Equal(t, "parameter_invalid", w["warning_name"])
		assert.Contains(t, w["warning_msg"], p)
	}

	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/update/"+id, map[string]any{"cc_roles": []string{"A"}}).Status)
	r = srv.Do(http.MethodPost, "/v3/template/update/"+id, map[string]any{"cc_roles": []string{""}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []any{}, r.Map()["template"].(map[string]any)["cc_roles"])
}

// The SDKs send templateUpdate as multipart when they send files; it has
// none, but a multipart body (the PHP SDK's JSON-text parts) reads the same.
// allow_form_view, the parameter the SDK description had before
// signer_experience, still works and, as its description says, needs a
// name on every form field.
func TestTemplateUpdateMultipartAndAllowFormView(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/template/update/"+id, map[string]any{
		"title": "From a form", "cc_roles": []string{"X"}, "allow_form_view": "true",
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := r.Map()["template"].(map[string]any)
	assert.Equal(t, "From a form", got["title"])
	assert.Equal(t, []any{map[string]any{"name": "X"}}, got["cc_roles"])
	assert.Equal(t, map[string]any{"form_view": "enabled"}, got["signer_experience"])

	unnamed := apitest.StandardTemplate()
	unnamed["form_fields_per_document"] = []map[string]any{
		{"document_index": 0, "api_id": "sig", "type": "signature", "x": 100, "y": 600, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
	}
	delete(unnamed, "form_field_groups")
	other := apitest.CreateTemplate(t, srv, srv.APIKey, unnamed)
	srv.Advance(apitest.TemplatePrepDelay)
	r = srv.Do(http.MethodPost, "/v3/template/update/"+other, map[string]any{"allow_form_view": true})
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	_, _, p := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "allow_form_view", p)
	r = srv.Do(http.MethodPost, "/v3/template/update/"+other, map[string]any{"allow_form_view": true,
		"form_fields": []map[string]any{{"api_id": "sig", "name": "Signature"}}})
	require.Equal(t, http.StatusOK, r.Status, "naming the field in the same call: %s", r.Body)
}

// A locked template (created in test_mode) may be updated and stays
// locked; the update takes no template quota.
func TestTemplateUpdateKeepsLockAndQuota(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.StandardTemplate()
	body["test_mode"] = true
	id := apitest.CreateTemplate(t, srv, srv.APIKey, body)
	srv.Advance(apitest.TemplatePrepDelay)
	left := apitest.Quotas(t, srv, srv.APIKey)["templates_left"]
	r := srv.Do(http.MethodPost, "/v3/template/update/"+id, map[string]any{"title": "Locked still"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := r.Map()["template"].(map[string]any)
	assert.Equal(t, true, got["is_locked"])
	assert.Equal(t, "Locked still", got["title"])
	assert.Equal(t, left, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
}

// An OAuth token needs the template_access scope, as every template
// operation does.
func TestTemplateUpdateScope(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	secret := apitest.ClientSecret(t, srv)
	for _, tc := range []struct {
		scope  string
		status int
	}{{"template_access", 200}, {"account_access", 403}} {
		scope, status := tc.scope, tc.status
		code := apitest.Authorize(t, srv, map[string]any{"state": "s", "scopes": []string{scope}})
		tok := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", code, secret, "s"))
		r := apitest.Bearer(t, srv, tok.AccessToken, http.MethodPost, "/v3/template/update/"+id, `{"title":"By token"}`)
		assert.Equal(t, status, r.Status, "%s: %s", scope, r.Body)
	}
}
