package sandbox

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// budgetSend uploads one PDF with a send and answers the status and the
// decoded body.
func budgetSend(t *testing.T, srv *httptest.Server, key string, pdf []byte) (int, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range map[string]string{"test_mode": "1", "signers[0][name]": "Ann", "signers[0][email_address]": "ann@example.com"} {
		require.NoError(t, mw.WriteField(k, v))
	}
	part, err := mw.CreateFormFile("files[0]", "a.pdf")
	require.NoError(t, err)
	_, _ = part.Write(pdf)
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/v3/signature_request/send", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(key, "")
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// The server-wide budget of stored file bytes: an upload that would go over
// it is refused with a 400 naming the parameter and the limit, nothing is
// stored by the refused write, an identical file costs nothing more, and a
// deleted world gives its bytes back.
func TestServerByteBudget(t *testing.T) {
	probe, err := New()
	require.NoError(t, err)
	fixtureBytes := probe.host.Budget().Used()
	probe.Close()

	a := pdftest.MakePDF(pdftest.Letter("first document"))
	b := pdftest.MakePDF(pdftest.Letter("second document, another one"))
	s, err := New(WithMaxStoredBytes(fixtureBytes + int64(len(a)) + int64(len(b))/2))
	require.NoError(t, err)
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	key := s.DefaultAPIKey()

	status, body := budgetSend(t, srv, key, a)
	require.Equal(t, http.StatusOK, status, "%v", body)
	used := s.host.Budget().Used()
	assert.Equal(t, fixtureBytes+int64(len(a)), used)

	status, body = budgetSend(t, srv, key, a)
	require.Equal(t, http.StatusOK, status, "the same bytes again are stored once: %v", body)
	assert.Equal(t, used, s.host.Budget().Used())

	status, body = budgetSend(t, srv, key, b)
	require.Equal(t, http.StatusBadRequest, status)
	e := body["error"].(map[string]any)
	assert.Equal(t, "bad_request", e["error_name"])
	assert.Equal(t, "files", e["error_path"])
	assert.Contains(t, e["error_msg"], "--max-stored-bytes")
	assert.Equal(t, used, s.host.Budget().Used(), "a refused write stores nothing")

	w, err := s.host.CreateWorld("fake", s.host.DefaultWorld().Now())
	require.NoError(t, err)
	assert.Equal(t, used+fixtureBytes, s.host.Budget().Used(), "a new world counts its fixtures")
	s.host.DropWorld(w)
	assert.Equal(t, used, s.host.Budget().Used(), "a deleted world gives its bytes back")
}
