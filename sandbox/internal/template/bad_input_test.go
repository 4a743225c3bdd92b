package template_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// tplWithField returns the standard fields with the first field changed.
func tplWithField(change func(f map[string]any)) map[string]any {
	fields := apitest.StandardTemplate()
	list := fields["form_fields_per_document"].([]map[string]any)
	f := map[string]any{}
	for k, v := range list[0] {
		f[k] = v
	}
	change(f)
	fields["form_fields_per_document"] = append([]map[string]any{f}, list[1:]...)
	return fields
}

func TestTemplateCreateBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)}
	cases := []struct {
		name   string
		fields map[string]any
		files  []apitest.PDFFile
		status int
		path   string
	}{
		{"missing signer_roles", apitest.Without(apitest.StandardTemplate(), "signer_roles"), nil, 400, "signer_roles"},
		{"role without name", apitest.With(apitest.StandardTemplate(), "signer_roles", []map[string]any{{"name": "Client"}, {"order": 1}}), nil, 400, "signer_roles[1][name]"},
		{"duplicate role names", apitest.With(apitest.StandardTemplate(), "signer_roles", []map[string]any{{"name": "Client"}, {"name": "client"}}), nil, 400, "signer_roles[1][name]"},
		{"negative role order", apitest.With(apitest.StandardTemplate(), "signer_roles", []map[string]any{{"name": "Client", "order": -1}, {"name": "Witness"}}), nil, 400, "signer_roles[0][order]"},
		{"missing form_fields_per_document", apitest.Without(apitest.StandardTemplate(), "form_fields_per_document"), nil, 400, "form_fields_per_document"},
		{"signer index beyond the roles", tplWithField(func(f map[string]any) { f["signer"] = 2 }), nil, 400, "form_fields_per_document[0][signer]"},
		{"signer names no role", tplWithField(func(f map[string]any) { f["signer"] = "Notary" }), nil, 400, "form_fields_per_document[0][signer]"},
		{"signer me_now", tplWithField(func(f map[string]any) { f["signer"] = "me_now" }), nil, 400, "form_fields_per_document[0][signer]"},
		{"field without signer", tplWithField(func(f map[string]any) { delete(f, "signer") }), nil, 400, "form_fields_per_document[0][signer]"},
		{"field without api_id", tplWithField(func(f map[string]any) { delete(f, "api_id") }), nil, 400, "form_fields_per_document[0][api_id]"},
		{"duplicate api_id", tplWithField(func(f map[string]any) { f["api_id"] = "wit_name" }), nil, 400, "form_fields_per_document[1][api_id]"},
		{"unknown field type", tplWithField(func(f map[string]any) { f["type"] = "stamp" }), nil, 400, "form_fields_per_document[0][type]"},
		{"document_index beyond the files", tplWithField(func(f map[string]any) { f["document_index"] = 1 }), nil, 400, "form_fields_per_document[0][document_index]"},
		{"page beyond the document", tplWithField(func(f map[string]any) { f["page"] = 40 }), nil, 400, "form_fields_per_document[0][page]"},
		{"zero width", tplWithField(func(f map[string]any) { f["width"] = 0 }), nil, 400, "form_fields_per_document[0][width]"},
		{"missing x", tplWithField(func(f map[string]any) { delete(f, "x") }), nil, 400, "form_fields_per_document[0][x]"},
		{"x not a number", tplWithField(func(f map[string]any) { f["x"] = "left" }), nil, 400, "form_fields_per_document[0][x]"},
		{"dropdown without options", tplWithField(func(f map[string]any) { f["type"] = "dropdown" }), nil, 400, "form_fields_per_document[0][options]"},
		{"dropdown with a blank option", tplWithField(func(f map[string]any) { f["type"], f["options"] = "dropdown", []string{"Yes", " "} }), nil, 400, "form_fields_per_document[0][options][1]"},
		{"dropdown content not an option", tplWithField(func(f map[string]any) { f["type"], f["options"], f["content"] = "dropdown", []string{"Yes"}, "No" }), nil, 400, "form_fields_per_document[0][content]"},
		{"hyperlink with a relative content_url", tplWithField(func(f map[string]any) {
			f["type"], f["content"], f["content_url"] = "hyperlink", "Terms", "/terms"
		}), nil, 400, "form_fields_per_document[0][content_url]"},
		{"hyperlink with blank content", tplWithField(func(f map[string]any) {
			f["type"], f["content"], f["content_url"] = "hyperlink", "  ", "https://example.com/terms"
		}), nil, 400, "form_fields_per_document[0][content]"},
		{"radio without group", tplWithField(func(f map[string]any) { f["type"] = "radio" }), nil, 400, "form_fields_per_document[0][group]"},
		{"checkbox in an undefined group", tplWithField(func(f map[string]any) { f["type"], f["group"] = "checkbox", "nope" }), nil, 400, "form_fields_per_document[0][group]"},
		{"font size out of range", tplWithField(func(f map[string]any) { f["font_size"] = 80 }), nil, 400, "form_fields_per_document[0][font_size]"},
		{"custom_regex without a pattern", tplWithField(func(f map[string]any) { f["type"], f["validation_type"] = "text", "custom_regex" }), nil, 400, "form_fields_per_document[0][validation_custom_regex]"},
		{"duplicate cc roles", apitest.With(apitest.StandardTemplate(), "cc_roles", []string{"Manager", "manager"}), nil, 400, "cc_roles[1]"},
		{"cc role named like a signer role", apitest.With(apitest.StandardTemplate(), "cc_roles", []string{"Client"}), nil, 400, "cc_roles[0]"},
		{"merge field of an unknown type", apitest.With(apitest.StandardTemplate(), "merge_fields", []map[string]any{{"name": "X", "type": "date"}}), nil, 400, "merge_fields[0][type]"},
		{"duplicate merge fields", apitest.With(apitest.StandardTemplate(), "merge_fields", []map[string]any{{"name": "X", "type": "text"}, {"name": "X", "type": "text"}}), nil, 400, "merge_fields[1][name]"},
		{"group with an unknown requirement", apitest.With(apitest.StandardTemplate(), "form_field_groups", []map[string]any{{"group_id": "agree", "group_label": "A", "requirement": "require_2"}}), nil, 400, "form_field_groups[0][requirement]"},
		{"rule with two triggers", apitest.With(apitest.StandardTemplate(), "form_field_rules", []map[string]any{{"id": "r1", "trigger_operator": "AND",
			"triggers": []map[string]any{{"id": "wit_name", "operator": "is", "value": "a"}, {"id": "wit_name", "operator": "is", "value": "b"}},
			"actions":  []map[string]any{{"field_id": "agree_a", "hidden": true, "type": "change-field-visibility"}}}}), nil, 400, "form_field_rules[0][triggers]"},
		{"rule across signers", apitest.With(apitest.StandardTemplate(), "form_field_rules", []map[string]any{{"id": "r1", "trigger_operator": "AND",
			"triggers": []map[string]any{{"id": "wit_name", "operator": "is", "value": "a"}},
			"actions":  []map[string]any{{"field_id": "agree_a", "hidden": true, "type": "change-field-visibility"}}}}), nil, 400, "form_field_rules[0][actions][0][field_id]"},
		{"attachment for a missing role", apitest.With(apitest.StandardTemplate(), "attachments", []map[string]any{{"name": "ID", "signer_index": 2}}), nil, 400, "attachments[0][signer_index]"},
		{"eleven metadata keys", apitest.With(apitest.StandardTemplate(), "metadata", map[string]any{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1, "i": 1, "j": 1, "k": 1}), nil, 400, "metadata"},
		{"subject too long", apitest.With(apitest.StandardTemplate(), "subject", string(make([]byte, 201))), nil, 400, "subject"},
		{"bad form_view", apitest.With(apitest.StandardTemplate(), "signer_experience", map[string]any{"form_view": "sometimes"}), nil, 400, "signer_experience[form_view]"},
		{"unknown client_id", apitest.With(apitest.StandardTemplate(), "client_id", "0000"), nil, 400, "client_id"},
		{"no files", apitest.StandardTemplate(), []apitest.PDFFile{}, 400, "files"},
		{"files and file_urls", apitest.With(apitest.StandardTemplate(), "file_urls", []string{"https://example.com/a.pdf"}), nil, 400, "file_urls"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = []apitest.PDFFile{pdf}
			}
			r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create", tc.fields, files...)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			name, msg, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, "bad_request", name)
			assert.Equal(t, tc.path, path, msg)
		})
	}
	// Nothing was half-created.
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))
	assert.EqualValues(t, 100, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
}

func TestTemplateCreateAcceptsJSONAndLegacyFieldLists(t *testing.T) {
	srv := apitest.NewServer(t)
	// The older form of form_fields_per_document: one list per document.
	f := apitest.StandardTemplate()
	f["form_fields_per_document"] = [][]map[string]any{{
		{"api_id": "sig", "name": "", "type": "signature", "x": 10, "y": 10, "width": 100, "height": 20, "required": true, "signer": "1"},
	}}
	delete(f, "form_field_groups")
	id := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)
	doc := apitest.GetTemplate(t, srv, srv.APIKey, id)["documents"].([]any)[0].(map[string]any)
	field := doc["form_fields"].([]any)[0].(map[string]any)
	assert.Equal(t, "sig", field["api_id"])
	assert.Equal(t, "2", field["signer"])
}
