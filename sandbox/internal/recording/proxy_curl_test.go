package recording_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// `curl -d '{"duration":"10s"}'` to a control path goes out labelled
// urlencoded; the sandbox reads it as JSON, and the recording proxy records
// it as JSON too, so that its replay sends what the sandbox understood. An
// API path keeps the strict reading (a form with one odd key).
func TestRecordingProxyRecordsCurlJSONToControlPathsAsJSON(t *testing.T) {
	upstream := apitest.ScenarioServer(t)
	out := filepath.Join(t.TempDir(), "curl.yaml")
	proxy, err := sandbox.NewRecordingProxy(upstream.URL, out, nil)
	require.NoError(t, err)
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)

	curl := func(method, path, body string) int {
		req, err := http.NewRequest(method, ps.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(upstream.APIKey, "")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, curl(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", `{"duration":"10s"}`))
	curl(http.MethodPut, "/v3/account", `{"locale":"fr-FR"}`)

	doc, err := os.ReadFile(out)
	require.NoError(t, err)
	steps := strings.SplitAfter(string(doc), "  - request: ")
	require.Len(t, steps, 3, "%s", doc)
	assert.Contains(t, steps[1], "duration: 10s", "the control body is recorded as its JSON")
	assert.NotContains(t, steps[1], "form: true")
	assert.Contains(t, steps[2], "form: true", "an API body keeps the API's reading")
	assertNoCredentials(t, doc, worldCredentials(t, upstream, upstream.APIKey)...)
	res := runDoc(t, "curl.yaml", doc)
	assert.True(t, res.OK(), "%+v", res)
}
