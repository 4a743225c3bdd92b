package fax_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

type faxBody struct {
	Fax struct {
		FaxID         string `json:"fax_id"`
		Transmissions []struct {
			Recipient  string `json:"recipient"`
			StatusCode string `json:"status_code"`
		} `json:"transmissions"`
	} `json:"fax"`
}

func sendFax(t *testing.T, srv *sandboxtest.Server, recipient string) faxBody {
	t.Helper()
	pdf := apitest.File{Field: "files[0]", Name: "a.pdf", ContentType: "application/pdf", Data: pdftest.MakePDF(pdftest.Letter("fax"))}
	r := apitest.Multipart(t, srv, http.MethodPost, "/v3/fax/send", map[string]string{"recipient": recipient, "title": "T"}, pdf)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var f faxBody
	require.NoError(t, r.JSON(&f))
	return f
}

func statusOf(t *testing.T, srv *sandboxtest.Server, id string) string {
	t.Helper()
	r := srv.Do(http.MethodGet, "/v3/fax/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var f faxBody
	require.NoError(t, r.JSON(&f))
	require.Len(t, f.Fax.Transmissions, 1)
	return f.Fax.Transmissions[0].StatusCode
}

// TestSendTransmitDelete: a fax is transmitting until its job runs 30
// seconds later; the recipient's number decides the outcome; a deleted fax
// is gone.
func TestSendTransmitDelete(t *testing.T) {
	srv := apitest.NewServer(t)
	ok := sendFax(t, srv, "+1 669 000 0001")
	busy := sendFax(t, srv, "+16690000486")
	assert.Equal(t, "transmitting", statusOf(t, srv, ok.Fax.FaxID))
	srv.Advance(29 * time.Second)
	assert.Equal(t, "transmitting", statusOf(t, srv, ok.Fax.FaxID))
	srv.Advance(time.Second)
	assert.Equal(t, "success", statusOf(t, srv, ok.Fax.FaxID))
	assert.Equal(t, "error_busy", statusOf(t, srv, busy.Fax.FaxID))

	r := srv.Do(http.MethodGet, "/v3/fax/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), ok.Fax.FaxID)

	r = srv.Do(http.MethodDelete, "/v3/fax/"+ok.Fax.FaxID, nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	e := apitest.ErrorOf(t, srv.Do(http.MethodGet, "/v3/fax/"+ok.Fax.FaxID, nil))
	assert.Equal(t, "fax_id", e.Path)
}

// TestSendErrors name the parameter at fault.
func TestSendErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.File{Field: "files[0]", Name: "a.pdf", ContentType: "application/pdf", Data: pdftest.MakePDF(pdftest.Letter("fax"))}
	for _, tc := range []struct {
		fields map[string]string
		files  []apitest.File
		path   string
	}{
		{map[string]string{}, []apitest.File{pdf}, "recipient"},
		{map[string]string{"recipient": "call me"}, []apitest.File{pdf}, "recipient"},
		{map[string]string{"recipient": "+16690000001", "sender": "me"}, []apitest.File{pdf}, "sender"},
		{map[string]string{"recipient": "+16690000001"}, nil, "files"},
	} {
		e := apitest.ErrorOf(t, apitest.Multipart(t, srv, http.MethodPost, "/v3/fax/send", tc.fields, tc.files...))
		assert.Equal(t, "bad_request", e.Name, "%v", tc.fields)
		assert.Equal(t, tc.path, e.Path, "%v: %s", tc.fields, e.Msg)
	}
}

// TestLines: area codes by region, a line bought in one, found, listed
// and deleted; an area code without numbers names area_code.
func TestLines(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/fax_line/area_codes?country=US&state=CA", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var codes struct {
		AreaCodes []int `json:"area_codes"`
	}
	require.NoError(t, r.JSON(&codes))
	require.NotEmpty(t, codes.AreaCodes)

	r = srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"country": "US", "area_code": codes.AreaCodes[0]})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var line struct {
		FaxLine struct {
			Number string `json:"number"`
		} `json:"fax_line"`
	}
	require.NoError(t, r.JSON(&line))
	require.NotEmpty(t, line.FaxLine.Number)
	q := "?number=" + url.QueryEscape(line.FaxLine.Number)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/fax_line"+q, nil).Status)
	r = srv.Do(http.MethodGet, "/v3/fax_line/list", nil)
	assert.Contains(t, string(r.Body), line.FaxLine.Number)
	r = srv.Do(http.MethodDelete, "/v3/fax_line", map[string]any{"number": line.FaxLine.Number})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"country": "US", "area_code": 1}))
	assert.Equal(t, "area_code", e.Path)
	e = apitest.ErrorOf(t, srv.Do(http.MethodGet, "/v3/fax_line/area_codes?country=US&province=ON", nil))
	assert.Equal(t, "province", e.Path)
}
