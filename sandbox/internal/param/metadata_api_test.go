package param_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// metaNested is metadata of 5 keys whose objects hold n keys in all.
func metaNested(n int) map[string]any {
	md := map[string]any{}
	for i := range 5 {
		inner := map[string]any{}
		for j := range n/5 - 1 {
			inner["k"+string(rune('a'+j))] = j
		}
		md["top"+string(rune('a'+i))] = inner
	}
	return md
}

// TestMetadataLimitsShared: signature requests and templates check
// metadata with one function: 10 keys, 50 counting nested keys, keys of 1
// to 40 characters, values of up to 1000 characters, each refusal naming
// the metadata parameter or key.
func TestMetadataLimitsShared(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name string
		md   map[string]any
		path string
	}{
		{"50 keys counting nested ones", metaNested(50), ""},
		{"51 keys counting nested ones", func() map[string]any { m := metaNested(50); m["extra"] = 1; return m }(), "metadata"},
		{"empty key", map[string]any{"": "v"}, "metadata"},
		{"41-character key", map[string]any{strings.Repeat("k", 41): "v"}, "metadata[" + strings.Repeat("k", 41) + "]"},
		{"1001-character value", map[string]any{"k": strings.Repeat("v", 1001)}, "metadata[k]"},
		{"nested value over 1000 characters", map[string]any{"k": map[string]any{"x": strings.Repeat("v", 1000)}}, "metadata[k]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := apitest.TwoSigners()
			body["metadata"] = tc.md
			sr := apitest.CreateRequest(t, srv, srv.APIKey, "send", body)
			tpl := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create",
				apitest.With(apitest.StandardTemplate(), "metadata", tc.md), apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
			if tc.path == "" {
				assert.Equal(t, http.StatusOK, sr.Status, "signature request: %s", sr.Body)
				assert.Equal(t, http.StatusOK, tpl.Status, "template: %s", tpl.Body)
				return
			}
			apitest.WantError(t, sr, http.StatusBadRequest, "bad_request", tc.path)
			apitest.WantError(t, tpl, http.StatusBadRequest, "bad_request", tc.path)
		})
	}
}

// TestTemplateMetadataExact: a template keeps its metadata's numbers as
// given.
func TestTemplateMetadataExact(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.With(apitest.StandardTemplate(), "metadata", map[string]any{"n": json.Number("12345678901234567890"), "f": 1.5}))
	r := srv.Do(http.MethodGet, "/v3/template/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"n":12345678901234567890`)
}
