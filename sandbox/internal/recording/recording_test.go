package recording_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
)

// TestRecordStartStatusStop: a recording counts the world's calls and
// stops as a scenario file holding them, in JSON or YAML; a second start
// or a stop without a recording conflicts; a bad name is refused.
func TestRecordStartStatusStop(t *testing.T) {
	srv := apitest.NewServer(t)
	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/record/start", map[string]any{"name": "bad name!"}))
	assert.Equal(t, "name", e.Path)
	assert.Equal(t, http.StatusConflict, srv.Do(http.MethodPost, "/_sandbox/record/stop", nil).Status)

	r := srv.Do(http.MethodPost, "/_sandbox/record/start", map[string]any{"name": "session-1"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusConflict, srv.Do(http.MethodPost, "/_sandbox/record/start", map[string]any{}).Status)

	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "de-DE"}).Status)
	var st struct {
		Recording bool `json:"recording"`
		Calls     int  `json:"calls"`
	}
	srv.Control(http.MethodGet, "/record", nil, &st)
	assert.True(t, st.Recording)
	assert.Equal(t, 1, st.Calls)

	e = apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/record/stop?format=xml", nil))
	assert.Equal(t, "format", e.Path)
	srv.Control(http.MethodGet, "/record", nil, &st)
	assert.True(t, st.Recording, "a refused stop leaves the recording going")
	r = srv.Do(http.MethodPost, "/_sandbox/record/stop?format=yaml", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "application/yaml", r.Header.Get("Content-Type"))
	assert.Contains(t, string(r.Body), "session-1")
	assert.Contains(t, string(r.Body), "de-DE")
	assert.Contains(t, string(r.Body), "request: PUT /v3/account")

	srv.Control(http.MethodGet, "/record", nil, &st)
	assert.False(t, st.Recording)
}

// TestProxyRecordsWhatItForwards: the proxy answers as the upstream does
// and writes each exchange to its file.
func TestProxyRecordsWhatItForwards(t *testing.T) {
	srv := apitest.NewServer(t)
	out := filepath.Join(t.TempDir(), "proxy.json")
	p, err := recording.NewProxy(srv.URL, out, nil)
	require.NoError(t, err)
	front := httptest.NewServer(p)
	defer front.Close()

	req, err := http.NewRequest(http.MethodGet, front.URL+"/v3/account", nil)
	require.NoError(t, err)
	req.SetBasicAuth(srv.APIKey, "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, 1, p.Calls())
	require.NoError(t, p.Err())
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"request": "GET /v3/account"`)
	assert.Contains(t, string(data), `"status": 200`)
}
