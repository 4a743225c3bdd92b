package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// refusesBogus sends {"bogus":1} and checks the 400 names the parameter.
func refusesBogus(t *testing.T, srv *sandboxtest.Server, key, method, path string) {
	t.Helper()
	r := srv.DoAs(key, method, path, map[string]any{"bogus": 1})
	require.Equal(t, http.StatusBadRequest, r.Status, "%s %s: %s", method, path, r.Body)
	_, msg, p := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "bogus", p, "%s %s: %s", method, path, msg)
	assert.Contains(t, msg, "bogus")
}

// Every control call that changes something refuses a parameter it does
// not know, naming it, before it acts: a typo in a test's setup fails
// loudly instead of resetting a world or signing with defaults. The table
// covers every registered control route (pages under /w/ read the forms
// browsers post, leniently), with path parameters that name nothing.
func TestEveryControlCallRefusesUnknownParameters(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.QuickSend(t, srv, srv.APIKey, "Untouched", "a@example.com")
	before := apitest.WorldExport(t, srv, srv.APIKey)
	n := 0
	for _, rt := range sandbox.ControlRoutesForTest() {
		if rt.Method == http.MethodGet || rt.Method == http.MethodHead || strings.HasPrefix(rt.Path, "/w/") {
			continue
		}
		path := rt.Path
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "0000000000000000000000000000000000000000" + path[j+1:]
		}
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			refusesBogus(t, srv, srv.APIKey, rt.Method, sandbox.ControlPrefix+path)
		})
		n++
	}
	assert.GreaterOrEqual(t, n, 25, "the table covers the control calls")
	assert.Equal(t, before, apitest.WorldExport(t, srv, srv.APIKey), "nothing changed")
}

// The calls the review found acting on {"bogus":1}, on objects they would
// act on: each refuses, and the world is as it was.
func TestControlCallsOnRealObjectsRefuseUnknownParameters(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	_, sigs := apitest.QuickSend(t, srv, srv.APIKey, "Real", "a@example.com")
	srv.Advance(time.Minute)
	fields := apitest.StandardTemplate()
	for _, k := range []string{"signer_roles", "form_fields_per_document", "form_field_groups", "attachments"} {
		delete(fields, k)
	}
	fields["client_id"] = apitest.ClientID
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", fields, apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	draft := r.Map()["template"].(map[string]any)["template_id"].(string)
	other := srv.NewWorld()

	before := apitest.WorldExport(t, srv, srv.APIKey)
	otherBefore := apitest.WorldExport(t, srv, other.APIKey)
	for _, tc := range []struct{ key, method, path string }{
		{srv.APIKey, http.MethodPost, "/signatures/" + sigs[0] + "/view"},
		{srv.APIKey, http.MethodPost, "/signatures/" + sigs[0] + "/sign"},
		{srv.APIKey, http.MethodPost, "/signatures/" + sigs[0] + "/decline"},
		{srv.APIKey, http.MethodPost, "/signatures/" + sigs[0] + "/reassign"},
		{srv.APIKey, http.MethodPost, "/signatures/" + sigs[0] + "/bounce"},
		{srv.APIKey, http.MethodPost, "/templates/" + draft + "/finish_draft"},
		{srv.APIKey, http.MethodPost, "/reset"},
		{srv.APIKey, http.MethodPatch, "/config"},
		{srv.APIKey, http.MethodPut, "/state"},
		{other.APIKey, http.MethodDelete, "/world"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			refusesBogus(t, srv, tc.key, tc.method, sandbox.ControlPrefix+tc.path)
		})
	}
	assert.Equal(t, before, apitest.WorldExport(t, srv, srv.APIKey), "nothing changed")
	assert.Equal(t, otherBefore, apitest.WorldExport(t, srv, other.APIKey), "the other world is still there, unchanged")

	// An empty body (or {}) is no parameter at all: the calls act.
	srv.Control(http.MethodPost, "/signatures/"+sigs[0]+"/view", map[string]any{}, nil)
	srv.Control(http.MethodPost, "/reset", nil, nil)
}
