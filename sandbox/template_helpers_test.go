package sandbox_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Keys of the fixture accounts of the default world.
const (
	tplTeammateKey = "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	tplOutsiderKey = "015dd024c558991375ddaaba75d97325af798a76720da2e21864f705e7153115"
	tplOwnerID     = "4dc1d0601aba5f470c97af030a257f883daf663d"
	tplTeammateID  = "6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0"
	tplOutsiderID  = "9bebb60aeacd74239d65616bbe584509cb5ea24a"
	tplClientID    = "7d1043473d55bfa90e8530d35801d4e3"
	// tplPrepDelay is the default TemplatePreparationDelay.
	tplPrepDelay = 10 * time.Second
)

// Page sizes in points.
var (
	tplPortrait  = [2]float64{612, 792}
	tplLandscape = [2]float64{792, 612}
)

// tplPDF writes a small valid PDF with one page per size.
func tplPDF(sizes ...[2]float64) []byte {
	pages := make([]pdftest.Page, len(sizes))
	for i, s := range sizes {
		pages[i] = pdftest.Page{Width: s[0], Height: s[1]}
	}
	return pdftest.MakePDF(pages...)
}

// tplSamplePDF is the official SDK fixture PDF, or a generated one-page PDF
// when the reference files are not beside the repository.
func tplSamplePDF(t *testing.T) []byte {
	t.Helper()
	p := conformance.Path()
	if p != "" {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(p), "test_fixtures", "pdf-sample.pdf"))
		if err == nil {
			return b
		}
	}
	t.Logf("test_fixtures/pdf-sample.pdf not found beside the repository; using a generated PDF")
	return tplPDF(tplPortrait)
}

// tplFile is one upload.
type tplFile = pdfFile

// tplMultipart sends a multipart body the way the official SDKs do
// (sendPDFs).
func tplMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...tplFile) *sandboxtest.Response {
	t.Helper()
	return sendPDFs(t, srv, key, method, path, fields, files...)
}

// tplStandardFields is a template request with two ordered roles, a CC
// role, merge fields and fields of several types on one document.
func tplStandardFields() map[string]any {
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

// tplCreate creates a template from fields and files as key and answers its
// id, failing the test on anything but 200.
func tplCreate(t *testing.T, srv *sandboxtest.Server, key string, fields map[string]any, files ...tplFile) string {
	t.Helper()
	if len(files) == 0 {
		files = []tplFile{{Name: "nda.pdf", Data: tplSamplePDF(t)}}
	}
	r := tplMultipart(t, srv, key, http.MethodPost, "/v3/template/create", fields, files...)
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

// tplReady creates the standard template and prepares it.
func tplReady(t *testing.T, srv *sandboxtest.Server) string {
	t.Helper()
	id := tplCreate(t, srv, srv.APIKey, tplStandardFields())
	srv.Advance(tplPrepDelay)
	return id
}

// tplGet reads a template as key.
func tplGet(t *testing.T, srv *sandboxtest.Server, key, id string) map[string]any {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/v3/template/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["template"].(map[string]any)
}

// tplQuotas reads an account's quotas.
func tplQuotas(t *testing.T, srv *sandboxtest.Server, key string) map[string]any {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["account"].(map[string]any)["quotas"].(map[string]any)
}

// tplEvents lists the world's events of a type for an object.
func tplEvents(srv *sandboxtest.Server, typ, id string) []sandboxtest.Callback {
	return srv.Callbacks(sandboxtest.EventType(typ), sandboxtest.ObjectID(id))
}

// tplListIDs lists the template ids of GET /template/list as key.
func tplListIDs(t *testing.T, srv *sandboxtest.Server, key, query string) []string {
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

// urlQueryEscape escapes a query parameter value.
func urlQueryEscape(s string) string { return url.QueryEscape(s) }

var _ = sandbox.ControlPrefix
