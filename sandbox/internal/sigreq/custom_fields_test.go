package sigreq_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// cfWarnings maps the warning names of an answer to their messages.
func cfWarnings(m map[string]any) map[string][]string {
	out := map[string][]string{}
	ws, _ := m["warnings"].([]any)
	for _, w := range ws {
		x := w.(map[string]any)
		out[x["warning_name"].(string)] = append(out[x["warning_name"].(string)], x["warning_msg"].(string))
	}
	return out
}

// cfNames lists the names of a request's custom_fields.
func cfNames(sr map[string]any) []string {
	out := []string{}
	for _, cf := range sr["custom_fields"].([]any) {
		out = append(out, cf.(map[string]any)["name"].(string))
	}
	return out
}

// cfMergeBody is a send body with a narrow and a wide text-merge field.
func cfMergeBody(values map[string]string) map[string]any {
	b := apitest.TwoSigners()
	b["form_fields_per_document"] = []map[string]any{
		{"document_index": 0, "api_id": "sig", "type": "signature", "x": 100, "y": 600, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
		{"document_index": 0, "api_id": "sig2", "type": "signature", "x": 100, "y": 650, "width": 200, "height": 30, "required": true, "signer": 1, "page": 1},
		{"document_index": 0, "api_id": "m_code", "name": "Code", "type": "text-merge", "x": 100, "y": 100, "width": 60, "height": 16, "required": false, "signer": "sender", "page": 1},
		{"document_index": 0, "api_id": "m_company", "name": "Company", "type": "text-merge", "x": 100, "y": 140, "width": 300, "height": 16, "required": false, "signer": "sender", "page": 1},
	}
	var cfs []map[string]any
	for _, name := range []string{"Code", "Company", "Nickname"} {
		if v, ok := values[name]; ok {
			cfs = append(cfs, map[string]any{"name": name, "value": v})
		}
	}
	b["custom_fields"] = cfs
	return b
}

// TestCustomFieldWarnings pins the warnings of custom_fields: a value that
// names no merge field is ignored with parameter_ignored; a value the
// document cannot show whole (wider than its field even at the smallest
// font) gives custom_field_value_too_long, several such values one
// custom_field_values_too_long.
func TestCustomFieldWarnings(t *testing.T) {
	srv := apitest.NewServer(t)
	long := strings.Repeat("W", 40)

	t.Run("fitting values", func(t *testing.T) {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "send", cfMergeBody(map[string]string{"Code": "A-1", "Company": "Acme Co."}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Empty(t, cfWarnings(r.Map()))
		assert.Equal(t, []string{"Code", "Company"}, cfNames(r.Map()["signature_request"].(map[string]any)))
	})
	t.Run("unknown name", func(t *testing.T) {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "send", cfMergeBody(map[string]string{"Company": "Acme Co.", "Nickname": "Ace"}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		w := cfWarnings(r.Map())
		require.Len(t, w["parameter_ignored"], 1, "%v", w)
		assert.Contains(t, w["parameter_ignored"][0], "custom_fields[1] (Nickname)")
		assert.Equal(t, []string{"Company"}, cfNames(r.Map()["signature_request"].(map[string]any)), "the ignored value is not kept")
	})
	t.Run("one value too long", func(t *testing.T) {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "send", cfMergeBody(map[string]string{"Code": long, "Company": long}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		w := cfWarnings(r.Map())
		require.Len(t, w["custom_field_value_too_long"], 1, "%v", w)
		assert.Contains(t, w["custom_field_value_too_long"][0], "Code", "the 300-point field holds the same value")
		assert.Empty(t, w["custom_field_values_too_long"])
	})
	t.Run("several values too long", func(t *testing.T) {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "send", cfMergeBody(map[string]string{"Code": long, "Company": strings.Repeat("Wide ", 80)}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		w := cfWarnings(r.Map())
		require.Len(t, w["custom_field_values_too_long"], 1, "%v", w)
		assert.Contains(t, w["custom_field_values_too_long"][0], "Code, Company")
		assert.Empty(t, w["custom_field_value_too_long"])
	})
	t.Run("text tags keep every value", func(t *testing.T) {
		b := apitest.TwoSigners()
		b["use_text_tags"] = true
		b["custom_fields"] = []map[string]any{{"name": "Nickname", "value": "Ace"}}
		r := apitest.CreateRequest(t, srv, srv.APIKey, "send", b)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Empty(t, cfWarnings(r.Map()), "merge fields may be text tags the sandbox does not read")
		assert.Equal(t, []string{"Nickname"}, cfNames(r.Map()["signature_request"].(map[string]any)))
	})
	t.Run("templates", func(t *testing.T) {
		id := apitest.ReadyTemplate(t, srv)
		body := apitest.TemplateSendBody(id)
		body["custom_fields"] = []map[string]any{
			{"name": "Full Name", "value": strings.Repeat("Jane Q. Public ", 30)},
			{"name": "Nickname", "value": "Ace"},
		}
		out := apitest.SendWithTemplate(t, srv, srv.APIKey, body)
		w := cfWarnings(out)
		require.Len(t, w["parameter_ignored"], 1, "%v", w)
		assert.Contains(t, w["parameter_ignored"][0], "custom_fields[1] (Nickname)")
		require.Len(t, w["custom_field_value_too_long"], 1, "%v", w)
		assert.Contains(t, w["custom_field_value_too_long"][0], "Full Name")
		assert.Equal(t, []string{"Full Name", "Is Registered"}, cfNames(out["signature_request"].(map[string]any)))
	})
}
