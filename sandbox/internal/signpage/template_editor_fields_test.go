package signpage_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// embeddedTemplateEditURL creates an embedded template with the standard
// fields, lets it be prepared and answers its id and a fresh edit URL.
func embeddedTemplateEditURL(t *testing.T, srv *sandboxtest.Server) (id, editURL string) {
	t.Helper()
	f := apitest.StandardTemplate()
	f["client_id"] = apitest.ClientID
	id = apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)
	r := srv.Do(http.MethodPost, "/v3/embedded/edit_url/"+id, map[string]any{"test_mode": true})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return id, r.Map()["embedded"].(map[string]any)["edit_url"].(string)
}

// apiFormFields lists GET /v3/template's form fields of every document as
// "api_id type signer x y width height required", sorted.
func apiFormFields(t *testing.T, srv *sandboxtest.Server, id string) []string {
	t.Helper()
	var out []string
	for _, d := range apitest.GetTemplate(t, srv, srv.APIKey, id)["documents"].([]any) {
		for _, f := range d.(map[string]any)["form_fields"].([]any) {
			m := f.(map[string]any)
			b, err := json.Marshal([]any{m["api_id"], m["type"], m["signer"], m["x"], m["y"], m["width"], m["height"], m["required"]})
			require.NoError(t, err)
			out = append(out, string(b))
		}
	}
	sort.Strings(out)
	return out
}

// TestTemplateEditorPlacesFields: the editor page hands its field editor
// the template's documents, roles and fields (with their pages); saving
// with placed fields replaces the template's signer fields, which GET
// /v3/template then shows; merge fields stay.
func TestTemplateEditorPlacesFields(t *testing.T) {
	srv := apitest.NewServer(t)
	id, editURL := embeddedTemplateEditURL(t, srv)

	page := apitest.PageDo(t, http.MethodGet, pageURL(editURL), nil, nil)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	checkPagePolicy(t, page)
	view := pageView(t, page.Body)
	assert.Equal(t, []any{"Client", "Witness"}, view["roles"])
	require.Len(t, view["documents"], 1)
	var placed []string
	for _, pf := range view["fields"].([]any) {
		m := pf.(map[string]any)
		placed = append(placed, m["api_id"].(string)+"@"+m["signer"].(string))
		assert.EqualValues(t, 1, m["page"])
	}
	assert.Equal(t, []string{"sig_client@Client", "wit_name@Witness", "agree_a@Client", "agree_b@Client", "date_client@Client"}, placed,
		"signer fields with their role names; merge fields are not placed")

	fields := []map[string]any{
		{"api_id": "text_1", "name": "", "type": "text", "document_index": 0, "page": 1, "x": 72, "y": 90, "width": 160, "height": 22, "required": true, "signer": "Client"},
		{"api_id": "signature_2", "type": "signature", "document_index": 0, "page": 1, "x": 80, "y": 400, "width": 180, "height": 40, "required": true, "signer": "Witness"},
		{"api_id": "initials_3", "type": "initials", "document_index": 0, "page": 1, "x": 300, "y": 400, "width": 60, "height": 30, "required": false, "signer": "Client"},
		{"api_id": "checkbox_4", "type": "checkbox", "document_index": 0, "page": 1, "x": 20, "y": 20, "width": 16, "height": 16, "required": false, "signer": "Client"},
		{"api_id": "date_signed_5", "type": "date_signed", "document_index": 0, "page": 1, "x": 300, "y": 460, "width": 110, "height": 22, "required": true, "signer": "Witness"},
	}
	raw, err := json.Marshal(fields)
	require.NoError(t, err)
	u, _ := url.Parse(editURL)
	saved := apitest.PageDo(t, http.MethodPost, pageURL(editURL), url.Values{"title": {"Placed"}, "signer_roles": {"Client\nWitness"}, "fields": {string(raw)}},
		map[string]string{"Origin": u.Scheme + "://" + u.Host})
	require.Equal(t, http.StatusOK, saved.Status, saved.Body)
	msgs, _ := embeddedMessages(t, saved.Body)
	assert.Equal(t, "hellosign:userCreateTemplate", msgs[0].Type)
	srv.Advance(apitest.TemplatePrepDelay)

	assert.Equal(t, []string{
		`["checkbox_4","checkbox","1",20,20,16,16,false]`,
		`["date_signed_5","date_signed","2",300,460,110,22,true]`,
		`["initials_3","initials","1",300,400,60,30,false]`,
		`["signature_2","signature","2",80,400,180,40,true]`,
		`["text_1","text","1",72,90,160,22,true]`,
	}, apiFormFields(t, srv, id), "the API shows the fields placed in the editor")
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)
	doc := tpl["documents"].([]any)[0].(map[string]any)
	assert.Len(t, doc["custom_fields"], 2, "merge fields stay")
}

// TestControlTemplateFields: the control plane reads a template's placed
// fields with its roles and page sizes, replaces them (GET /v3/template
// shows the new ones) and refuses fields that name no role, no page or an
// api_id twice, changing nothing.
func TestControlTemplateFields(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	srv.Advance(apitest.TemplatePrepDelay)

	r := srv.Do(http.MethodGet, "/_sandbox/templates/"+id+"/fields", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	v := r.Map()
	assert.Equal(t, []any{"Client", "Witness"}, v["signer_roles"])
	d := v["documents"].([]any)[0].(map[string]any)
	assert.NotEmpty(t, d["pages"])
	assert.Len(t, v["fields"], 5)
	before := apiFormFields(t, srv, id)

	for name, body := range map[string]map[string]any{
		"unknown role":  {"fields": []map[string]any{{"api_id": "a", "type": "text", "x": 1, "y": 1, "width": 50, "height": 20, "signer": "Notary", "page": 1}}},
		"no such page":  {"fields": []map[string]any{{"api_id": "a", "type": "text", "x": 1, "y": 1, "width": 50, "height": 20, "signer": "Client", "page": 99}}},
		"twice":         {"fields": []map[string]any{{"api_id": "a", "type": "text", "x": 1, "y": 1, "width": 50, "height": 20, "signer": "Client"}, {"api_id": "A", "type": "text", "x": 1, "y": 1, "width": 50, "height": 20, "signer": "Client"}}},
		"a merge field": {"fields": []map[string]any{{"api_id": "m", "name": "Full Name", "type": "text-merge", "x": 1, "y": 1, "width": 50, "height": 20}}},
		"no fields":     {},
	} {
		r := srv.Do(http.MethodPut, "/_sandbox/templates/"+id+"/fields", body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", name, r.Body)
	}
	assert.Equal(t, before, apiFormFields(t, srv, id), "refused calls changed nothing")

	r = srv.Do(http.MethodPut, "/_sandbox/templates/"+id+"/fields", map[string]any{"fields": []map[string]any{
		{"api_id": "only_sig", "type": "signature", "document_index": 0, "page": 1, "x": 50, "y": 60, "width": 180, "height": 40, "required": true, "signer": "Witness"},
	}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, r.Map()["fields"], 1)
	assert.Equal(t, []string{`["only_sig","signature","2",50,60,180,40,true]`}, apiFormFields(t, srv, id))

	r = srv.Do(http.MethodGet, "/_sandbox/templates/"+id+"/documents/0", nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, "application/pdf", r.Header.Get("Content-Type"))
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/_sandbox/templates/"+id+"/documents/3", nil).Status)
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/_sandbox/templates/nope/fields", nil).Status)
}
