package apitest

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Templates: a standard template and the calls around it.

// Page sizes in points.
var (
	Portrait  = [2]float64{612, 792}
	Landscape = [2]float64{792, 612}
)

// PagesPDF writes a small valid PDF with one page per size.
func PagesPDF(sizes ...[2]float64) []byte {
	pages := make([]pdftest.Page, len(sizes))
	for i, s := range sizes {
		pages[i] = pdftest.Page{Width: s[0], Height: s[1]}
	}
	return pdftest.MakePDF(pages...)
}

// SamplePDF is the official SDK fixture PDF, or a generated one-page PDF
// when the reference files are not beside the repository.
func SamplePDF(t *testing.T) []byte {
	t.Helper()
	p := conformance.Path()
	if p != "" {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(p), "test_fixtures", "pdf-sample.pdf"))
		if err == nil {
			return b
		}
	}
	t.Logf("test_fixtures/pdf-sample.pdf not found beside the repository; using a generated PDF")
	return PagesPDF(Portrait)
}

// StandardTemplate is a template request with two ordered roles, a CC
// role, merge fields and fields of several types on one document.
func StandardTemplate() map[string]any {
	return map[string]any{
		"title":   "Mutual NDA",
		"subject": "Please sign the NDA",
		"message": "For your signature",
		"signer_roles": []map[string]any{
			{"name": "Client", "order": 0},
			{"name": "Witness", "order": 1},
		},
		"cc_roles":     []string{"Manager"},
		"merge_fields": []map[string]any{{"name": "Full Name", "type": "text"}, {"name": "Is Registered", "type": "checkbox"}},
		"metadata":     map[string]any{"deal": "42", "amount": 1234.50},
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "sig_client", "name": "Client signature", "type": "signature", "x": 100, "y": 600, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
			{"document_index": 0, "api_id": "wit_name", "name": "Witness name", "type": "text", "x": 100, "y": 500, "width": 200, "height": 20, "required": true, "signer": "Witness", "page": 1, "validation_type": "letters_only", "font_family": "arial"},
			{"document_index": 0, "api_id": "merge_name", "name": "Full Name", "type": "text-merge", "x": 100, "y": 730, "width": 300, "height": 20, "required": false, "signer": "sender", "page": 1},
			{"document_index": 0, "api_id": "merge_reg", "name": "Is Registered", "type": "checkbox-merge", "x": 100, "y": 150, "width": 15, "height": 15, "required": false, "signer": "sender", "page": 1},
			{"document_index": 0, "api_id": "agree_a", "name": "Agree A", "type": "checkbox", "x": 100, "y": 200, "width": 15, "height": 15, "required": false, "signer": 0, "page": 1, "group": "agree", "is_checked": false},
			{"document_index": 0, "api_id": "agree_b", "name": "Agree B", "type": "checkbox", "x": 130, "y": 200, "width": 15, "height": 15, "required": false, "signer": 0, "page": 1, "group": "agree", "is_checked": false},
			{"document_index": 0, "api_id": "date_client", "name": "Date", "type": "date_signed", "x": 320, "y": 600, "width": 100, "height": 20, "required": true, "signer": 0, "page": 1},
		},
		"form_field_groups": []map[string]any{{"group_id": "agree", "group_label": "Agreement", "requirement": "require_1"}},
		"attachments":       []map[string]any{{"name": "ID card", "instructions": "Front side", "signer_index": 1, "required": true}},
		"signer_experience": map[string]any{"form_view": "enabled"},
		"field_options":     map[string]any{"date_format": "DD - MM - YYYY"},
	}
}

// CreateTemplate creates a template from fields and files as key and returns its
// id, failing the test on anything but 200.
func CreateTemplate(t *testing.T, srv *sandboxtest.Server, key string, fields map[string]any, files ...PDFFile) string {
	t.Helper()
	if len(files) == 0 {
		files = []PDFFile{{Name: "nda.pdf", Data: SamplePDF(t)}}
	}
	r := SendPDFs(t, srv, key, http.MethodPost, "/v3/template/create", fields, files...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Template struct {
			TemplateID string `json:"template_id"`
		} `json:"template"`
	}
	require.NoError(t, r.JSON(&out))
	require.Len(t, out.Template.TemplateID, 40)
	return out.Template.TemplateID
}

// ReadyTemplate creates the standard template and prepares it.
func ReadyTemplate(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	id := CreateTemplate(t, srv, srv.APIKey, StandardTemplate())
	srv.Advance(TemplatePrepDelay)
	return id
}

// GetTemplate reads a template as key.
func GetTemplate(t *testing.T, srv *sandboxtest.Server, key, id string) map[string]any {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/v3/template/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["template"].(map[string]any)
}

// Quotas reads an account's quotas.
func Quotas(t *testing.T, srv *sandboxtest.Server, key string) map[string]any {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["account"].(map[string]any)["quotas"].(map[string]any)
}

// Events lists the world's events of a type for an object.
func Events(srv *sandboxtest.Server, typ, id string) []sandboxtest.Callback {
	return srv.Callbacks(sandboxtest.EventType(typ), sandboxtest.ObjectID(id))
}

// ListTemplateIDs lists the template ids of GET /template/list as key.
func ListTemplateIDs(t *testing.T, srv *sandboxtest.Server, key, query string) []string {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/v3/template/list"+query, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Templates []struct {
			TemplateID string `json:"template_id"`
		} `json:"templates"`
	}
	require.NoError(t, r.JSON(&out))
	ids := []string{}
	for _, x := range out.Templates {
		ids = append(ids, x.TemplateID)
	}
	return ids
}

// TemplateSendBody is a send_with_template body for the standard template.
func TemplateSendBody(ids ...string) map[string]any {
	return map[string]any{
		"template_ids": ids,
		"subject":      "NDA for you",
		"signers": []map[string]any{
			{"role": "Witness", "name": "Wanda Witness", "email_address": "wanda@example.com"},
			{"role": "Client", "name": "Carl Client", "email_address": "carl@example.com"},
		},
		"ccs": []map[string]any{{"role": "Manager", "email_address": "manager@example.com"}},
		"custom_fields": []map[string]any{
			{"name": "Full Name", "value": "Jane Q. Public"},
			{"name": "Is Registered", "value": "true"},
		},
	}
}

// SendWithTemplate posts a send_with_template body as key and returns the
// answer, failing t on anything but 200.
func SendWithTemplate(t *testing.T, srv *sandboxtest.Server, key string, body map[string]any) map[string]any {
	t.Helper()
	r := srv.DoAs(key, http.MethodPost, "/v3/signature_request/send_with_template", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()
}

// ExportedRow reads a row of the world's exported state (GET
// /_sandbox/state) by its id, for what the API does not show.
func ExportedRow(t *testing.T, srv *sandboxtest.Server, table, idKey, id string) map[string]any {
	t.Helper()
	var st struct {
		Tables map[string][]map[string]any `json:"tables"`
	}
	srv.Control(http.MethodGet, "/state", nil, &st)
	for _, row := range st.Tables[table] {
		if row[idKey] == id {
			return row
		}
	}
	t.Fatalf("%s %s not in the exported state", table, id)
	return nil
}

// PDFText extracts a PDF's text with pdftotext (poppler-utils), skipping
// when it is not installed.
func PDFText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	p := filepath.Join(t.TempDir(), "doc.pdf")
	require.NoError(t, os.WriteFile(p, pdf, 0o600))
	out, err := exec.Command(bin, p, "-").Output()
	require.NoError(t, err)
	return string(out)
}

// UpdateTemplateFiles posts update_files and returns the new template id.
func UpdateTemplateFiles(t *testing.T, srv *sandboxtest.Server, id string, pdf []byte) string {
	t.Helper()
	r := SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/update_files/"+id,
		map[string]any{"subject": "Updated subject"}, PDFFile{Name: "new.pdf", Data: pdf})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	tpl := r.Map()["template"].(map[string]any)
	assert.NotContains(t, r.Map(), "warnings", "TemplateUpdateFilesResponse has no warnings")
	newID := tpl["template_id"].(string)
	require.NotEqual(t, id, newID, "an overlay is a new template")
	return newID
}

func With(m map[string]any, k string, v any) map[string]any {
	m[k] = v
	return m
}

func Without(m map[string]any, k string) map[string]any {
	delete(m, k)
	return m
}
