package template_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// tplTwoPageTemplate creates a ready template over a two-page portrait PDF
// with a field (sig_client) on page 2.
func tplTwoPageTemplate(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	f := apitest.StandardTemplate()
	list := f["form_fields_per_document"].([]map[string]any)
	list[0]["page"] = 2
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create", f,
		apitest.PDFFile{Name: "two.pdf", Data: apitest.PagesPDF(apitest.Portrait, apitest.Portrait)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["template"].(map[string]any)["template_id"].(string)
	srv.Advance(apitest.TemplatePrepDelay)
	require.Len(t, apitest.Events(srv, "template_created", id), 1)
	return id
}

func TestTemplateOverlayWithFewerPagesFails(t *testing.T) {
	srv := apitest.NewServer(t)
	id := tplTwoPageTemplate(t, srv)
	newID := apitest.UpdateTemplateFiles(t, srv, id, apitest.PagesPDF(apitest.Portrait))
	assert.EqualValues(t, 98, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])

	srv.Advance(apitest.TemplatePrepDelay)
	evs := apitest.Events(srv, "template_error", newID)
	require.Len(t, evs, 1)
	assert.Contains(t, evs[0].EventMessage, "fewer than the 2 page(s)")
	assert.Empty(t, apitest.Events(srv, "template_created", newID))
	assert.EqualValues(t, 99, apitest.Quotas(t, srv, srv.APIKey)["templates_left"], "a failed template gives its unit back")

	// The failed template can be read, not listed, used or downloaded.
	assert.Equal(t, newID, apitest.GetTemplate(t, srv, srv.APIKey, newID)["template_id"])
	assert.Equal(t, []string{id}, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))
	f := srv.Do(http.MethodGet, "/v3/template/files/"+newID, nil)
	assert.Equal(t, http.StatusUnprocessableEntity, f.Status, "%s", f.Body)
	// The source template is untouched.
	assert.Equal(t, "Please sign the NDA", tplGetSubject(t, srv, id))
}

func TestTemplateOverlayWithAnotherOrientationFails(t *testing.T) {
	srv := apitest.NewServer(t)
	id := tplTwoPageTemplate(t, srv)
	newID := apitest.UpdateTemplateFiles(t, srv, id, apitest.PagesPDF(apitest.Portrait, apitest.Landscape))
	srv.Advance(apitest.TemplatePrepDelay)
	evs := apitest.Events(srv, "template_error", newID)
	require.Len(t, evs, 1)
	assert.Contains(t, evs[0].EventMessage, "Page 2 of the new files is landscape")
}

func TestTemplateOverlayWithMorePagesMakesANewTemplate(t *testing.T) {
	srv := apitest.NewServer(t)
	id := tplTwoPageTemplate(t, srv)
	newID := apitest.UpdateTemplateFiles(t, srv, id, apitest.PagesPDF(apitest.Portrait, apitest.Portrait, apitest.Portrait))
	assert.Empty(t, apitest.Events(srv, "template_created", newID))
	srv.Advance(apitest.TemplatePrepDelay)
	require.Len(t, apitest.Events(srv, "template_created", newID), 1)

	tpl := apitest.GetTemplate(t, srv, srv.APIKey, newID)
	assert.Equal(t, "Mutual NDA", tpl["title"], "roles, fields and title carry over")
	assert.Len(t, tpl["signer_roles"], 2)
	doc := tpl["documents"].([]any)[0].(map[string]any)
	assert.Equal(t, "new.pdf", doc["name"])
	assert.Len(t, doc["form_fields"], 5)
	assert.Equal(t, []string{newID, id}, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""), "both templates stay usable")
}

func TestTemplateOverlayBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	preparing := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	pdf := apitest.PDFFile{Name: "new.pdf", Data: apitest.SamplePDF(t)}
	cases := []struct {
		name, key, id string
		fields        map[string]any
		files         []apitest.PDFFile
		status        int
		errName, path string
	}{
		{"unknown template", srv.APIKey, "ffffffffffffffffffffffffffffffffffffffff", map[string]any{}, []apitest.PDFFile{pdf}, 404, "not_found", ""},
		{"another account's template", apitest.OutsiderKey, id, map[string]any{}, []apitest.PDFFile{pdf}, 404, "not_found", ""},
		{"a team member's template", apitest.TeammateKey, id, map[string]any{}, []apitest.PDFFile{pdf}, 403, "forbidden", ""},
		{"still being prepared", srv.APIKey, preparing, map[string]any{}, []apitest.PDFFile{pdf}, 409, "conflict", ""},
		{"no files", srv.APIKey, id, map[string]any{}, nil, 400, "bad_request", "files"},
		{"subject too long", srv.APIKey, id, map[string]any{"subject": strings.Repeat("s", 101)}, []apitest.PDFFile{pdf}, 400, "bad_request", "subject"},
		{"unknown client_id", srv.APIKey, id, map[string]any{"client_id": "nope"}, []apitest.PDFFile{pdf}, 400, "bad_request", "client_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := apitest.SendPDFs(t, srv, tc.key, http.MethodPost, "/v3/template/update_files/"+tc.id, tc.fields, tc.files...)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			name, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.errName, name)
			assert.Equal(t, tc.path, path)
		})
	}
	assert.Equal(t, []string{preparing, id}, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""), "nothing half-created")
}

// tplStored reads a template as the world stores it (the subject, a
// field's page: TemplateResponse shows neither).
func tplStored(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
	t.Helper()
	return apitest.ExportedRow(t, srv, "templates", "template_id", id)
}

// tplGetSubject reads a template's subject (TemplateResponse has none).
func tplGetSubject(t *testing.T, srv *sandboxtest.Server, id string) string {
	t.Helper()
	s, _ := tplStored(t, srv, id)["subject"].(string)
	return s
}

// tplFieldPlaces maps a stored template's field api_ids to their
// [document_index, page].
func tplFieldPlaces(t *testing.T, srv *sandboxtest.Server, id string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	for _, f := range tplStored(t, srv, id)["fields"].([]any) {
		m := f.(map[string]any)
		page, _ := m["page"].(float64)
		out[m["api_id"].(string)] = [2]int{int(m["document_index"].(float64)), int(page)}
	}
	return out
}

func TestTemplateWithAnUnreachableFileEndsInTemplateError(t *testing.T) {
	srv := apitest.NewServer(t)
	f := apitest.StandardTemplate()
	f["file_urls"] = []string{"http://127.0.0.1:1/missing.pdf"}
	r := srv.Do(http.MethodPost, "/v3/template/create", f)
	require.Equal(t, http.StatusOK, r.Status, "the file is fetched as the real service does, and fails later: %s", r.Body)
	id := r.Map()["template"].(map[string]any)["template_id"].(string)
	srv.Advance(apitest.TemplatePrepDelay)
	evs := apitest.Events(srv, "template_error", id)
	require.Len(t, evs, 1)
	assert.Contains(t, evs[0].EventMessage, "could not be processed")
	assert.EqualValues(t, 100, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
	dl := srv.Do(http.MethodGet, "/v3/template/files/"+id, nil)
	assert.Equal(t, http.StatusUnprocessableEntity, dl.Status, "%s", dl.Body)
}
