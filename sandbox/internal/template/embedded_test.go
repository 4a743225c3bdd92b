package template_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestTemplateEmbeddedDraftFinishedFromTheControlPlane(t *testing.T) {
	srv := apitest.NewServer(t)
	fields := apitest.StandardTemplate()
	delete(fields, "signer_roles")
	delete(fields, "form_fields_per_document")
	delete(fields, "form_field_groups")
	delete(fields, "attachments")
	fields["client_id"] = apitest.ClientID
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", fields,
		apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	tpl := r.Map()["template"].(map[string]any)
	id := tpl["template_id"].(string)
	assert.True(t, strings.HasPrefix(tpl["edit_url"].(string), srv.URL+sandbox.ControlPrefix+"/w/default/editor/template/"), tpl["edit_url"])
	assert.EqualValues(t, srv.Now().Add(time.Hour).Unix(), tpl["expires_at"], "edit URLs live for the world's EditURLTTL")

	// The draft is readable, not listed, not usable, and has no files yet.
	got := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, true, got["is_embedded"])
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))
	f := srv.Do(http.MethodGet, "/v3/template/files/"+id, nil)
	assert.Equal(t, http.StatusConflict, f.Status, "%s", f.Body)

	// The edit page is served without credentials.
	status, page := apitest.FetchPage(t, http.MethodGet, tpl["edit_url"].(string), nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "Mutual NDA")

	// Finishing needs a signer role.
	fr := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/templates/"+id+"/finish_draft", map[string]any{})
	assert.Equal(t, http.StatusBadRequest, fr.Status, "%s", fr.Body)
	var done struct {
		Template map[string]any `json:"template"`
	}
	srv.Control(http.MethodPost, "/templates/"+id+"/finish_draft", map[string]any{
		"title": "Embedded NDA", "signer_roles": []map[string]any{{"name": "Signer"}}, "cc_roles": []string{"Legal"},
	}, &done)
	assert.Equal(t, "Embedded NDA", done.Template["title"])
	assert.Empty(t, apitest.Events(srv, "template_created", id))
	srv.Advance(apitest.TemplatePrepDelay)
	evs := apitest.Events(srv, "template_created", id)
	require.Len(t, evs, 1)
	assert.Equal(t, apitest.ClientID, evs[0].ClientID, "embedded templates report to their app's callback")
	assert.Equal(t, []string{id}, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))

	// A finished draft is no draft any more; the used edit link is gone.
	fr = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/templates/"+id+"/finish_draft", map[string]any{})
	assert.Equal(t, http.StatusConflict, fr.Status)
	assert.EqualValues(t, 99, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
}

func TestTemplateEmbeddedEditURL(t *testing.T) {
	srv := apitest.NewServer(t)
	f := apitest.StandardTemplate()
	f["client_id"] = apitest.ClientID
	id := apitest.CreateTemplate(t, srv, srv.APIKey, f)

	r := srv.Do(http.MethodPost, "/v3/embedded/edit_url/"+id, map[string]any{})
	assert.Equal(t, http.StatusConflict, r.Status, "still being prepared: %s", r.Body)
	srv.Advance(apitest.TemplatePrepDelay)
	assert.Equal(t, true, apitest.GetTemplate(t, srv, srv.APIKey, id)["is_embedded"])

	r = srv.Do(http.MethodPost, "/v3/embedded/edit_url/"+id, map[string]any{
		"cc_roles": []string{"Auditor"}, "merge_fields": []map[string]any{{"name": "Company", "type": "text"}},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	emb := r.Map()["embedded"].(map[string]any)
	editURL := emb["edit_url"].(string)
	assert.EqualValues(t, srv.Now().Add(time.Hour).Unix(), emb["expires_at"])

	// Saving in the editor applies the URL's options and prepares again.
	status, page := apitest.FetchPage(t, http.MethodPost, editURL, url.Values{"title": {"NDA v2"}, "signer_roles": {"Client\nWitness"}})
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "hellosign:userCreateTemplate")
	srv.Advance(apitest.TemplatePrepDelay)
	assert.Len(t, apitest.Events(srv, "template_created", id), 2)
	got := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, "NDA v2", got["title"])
	assert.Equal(t, []any{map[string]any{"name": "Auditor"}}, got["cc_roles"])
	var customNames []string
	for _, cf := range got["documents"].([]any)[0].(map[string]any)["custom_fields"].([]any) {
		customNames = append(customNames, cf.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"Full Name", "Is Registered", "Company"}, customNames,
		"merge_fields replaced the declared merge fields; the placed ones stay")

	status, _ = apitest.FetchPage(t, http.MethodGet, editURL, nil)
	assert.Equal(t, http.StatusGone, status, "an edit link is used once")

	// Expiry on the world clock.
	r = srv.Do(http.MethodPost, "/v3/embedded/edit_url/"+id, map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	editURL = r.Map()["embedded"].(map[string]any)["edit_url"].(string)
	srv.Advance(time.Hour + time.Second)
	status, _ = apitest.FetchPage(t, http.MethodGet, editURL, nil)
	assert.Equal(t, http.StatusGone, status)
	status, _ = apitest.FetchPage(t, http.MethodGet, srv.URL+sandbox.ControlPrefix+"/w/default/editor/template/nope", nil)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestTemplateEmbeddedBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	plain := apitest.ReadyTemplate(t, srv)
	f := apitest.StandardTemplate()
	f["client_id"], f["test_mode"] = apitest.ClientID, true
	locked := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)

	cases := []struct {
		name, key, id string
		body          map[string]any
		status        int
		errName, path string
	}{
		{"not an embedded template", srv.APIKey, plain, map[string]any{}, 400, "bad_request", "template_id"},
		{"locked without test_mode", srv.APIKey, locked, map[string]any{}, 402, "payment_required", "test_mode"},
		{"not the owner", apitest.TeammateKey, locked, map[string]any{"test_mode": true}, 403, "forbidden", ""},
		{"outsider", apitest.OutsiderKey, locked, map[string]any{"test_mode": true}, 404, "not_found", ""},
		{"unknown template", srv.APIKey, "ffffffffffffffffffffffffffffffffffffffff", map[string]any{}, 404, "not_found", ""},
		{"bad merge field", srv.APIKey, locked, map[string]any{"test_mode": true, "merge_fields": []map[string]any{{"name": "A", "type": "radio"}}}, 400, "bad_request", "merge_fields[0][type]"},
		{"merge field without a type", srv.APIKey, locked, map[string]any{"test_mode": true, "merge_fields": []map[string]any{{"name": "A"}}}, 400, "bad_request", "merge_fields[0][type]"},
		{"merge field without a name", srv.APIKey, locked, map[string]any{"test_mode": true, "merge_fields": []map[string]any{{"type": "text"}}}, 400, "bad_request", "merge_fields[0][name]"},
		{"duplicate merge fields", srv.APIKey, locked, map[string]any{"test_mode": true, "merge_fields": []map[string]any{{"name": "A", "type": "text"}, {"name": "A", "type": "checkbox"}}}, 400, "bad_request", "merge_fields[1][name]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.DoAs(tc.key, http.MethodPost, "/v3/embedded/edit_url/"+tc.id, tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			name, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.errName, name)
			assert.Equal(t, tc.path, path)
		})
	}
	r := srv.Do(http.MethodPost, "/v3/embedded/edit_url/"+locked, map[string]any{"test_mode": true})
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	// create_embedded_draft needs an app of the caller's team.
	for _, tc := range []struct {
		name, key string
		fields    map[string]any
		status    int
		path      string
	}{
		{"no client_id", srv.APIKey, apitest.StandardTemplate(), 400, "client_id"},
		{"unknown client_id", srv.APIKey, apitest.With(apitest.StandardTemplate(), "client_id", "abc"), 400, "client_id"},
		{"another team's app", apitest.OutsiderKey, apitest.With(apitest.With(apitest.StandardTemplate(), "client_id", apitest.ClientID), "test_mode", true), 403, "client_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := apitest.SendPDFs(t, srv, tc.key, http.MethodPost, "/v3/template/create_embedded_draft", tc.fields,
				apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			_, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.path, path)
		})
	}
}

func TestTemplateEditorKeepsFieldsWithTheirRoles(t *testing.T) {
	srv := apitest.NewServer(t)
	fields := apitest.StandardTemplate()
	fields["client_id"] = apitest.ClientID
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", fields,
		apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["template"].(map[string]any)["template_id"].(string)

	// Dropping a role that still has fields is refused, and changes nothing.
	fr := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/templates/"+id+"/finish_draft",
		map[string]any{"signer_roles": []map[string]any{{"name": "Client"}}})
	require.Equal(t, http.StatusBadRequest, fr.Status, "%s", fr.Body)
	assert.Contains(t, string(fr.Body), "Witness")

	// Reordered roles: fields follow their role by name, orders stay.
	srv.Control(http.MethodPost, "/templates/"+id+"/finish_draft",
		map[string]any{"signer_roles": []map[string]any{{"name": "Witness"}, {"name": "Client"}}}, nil)
	srv.Advance(apitest.TemplatePrepDelay)
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, []any{map[string]any{"name": "Witness", "order": 1.0}, map[string]any{"name": "Client", "order": 0.0}}, tpl["signer_roles"])
	signer := map[string]any{}
	for _, f := range tpl["documents"].([]any)[0].(map[string]any)["form_fields"].([]any) {
		signer[f.(map[string]any)["api_id"].(string)] = f.(map[string]any)["signer"]
	}
	assert.Equal(t, "2", signer["sig_client"])
	assert.Equal(t, "1", signer["wit_name"])
	assert.Equal(t, "1", tpl["attachments"].([]any)[0].(map[string]any)["signer"])
}
