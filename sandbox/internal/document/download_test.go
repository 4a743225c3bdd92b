package document_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// flRequest sends a signature request with two signers (no form fields, so
// the signature page is appended) and the given documents.
func flRequest(t *testing.T, srv *sandboxtest.Server, testMode bool, parts ...apitest.File) map[string]any {
	t.Helper()
	fields := map[string]any{
		"title": "Files test",
		"signers": []map[string]any{
			{"name": "Jack", "email_address": "jack@example.com"},
			{"name": "Jill", "email_address": "jill@example.com"},
		},
		"test_mode": testMode,
	}
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", fields, parts...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

// flFetch downloads a file URL without credentials, as a browser would.
func flFetch(t *testing.T, u string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

func TestFilesLifecycle(t *testing.T) {
	srv := apitest.NewServer(t)
	docA, docB := apitest.PDF(2), apitest.PDF(1)
	sr := flRequest(t, srv, true, apitest.File{Name: "contract.pdf", Data: docA}, apitest.File{Name: "annex.pdf", Data: docB})
	id := sr["signature_request_id"].(string)

	// Files are prepared FilePreparationDelay (5s) after creation.
	apitest.GetDownloads(srv, id).All(t, http.StatusConflict, "conflict")
	srv.Advance(4 * time.Second)
	apitest.GetDownloads(srv, id).All(t, http.StatusConflict, "conflict")
	srv.Advance(time.Second)
	d := apitest.GetDownloads(srv, id)
	d.All(t, http.StatusOK, "")

	// The merged PDF: 3 document pages + signature page + audit trail.
	assert.Equal(t, "application/pdf", d.PDF.Header.Get("Content-Type"))
	assert.Equal(t, `attachment; filename="Files test.pdf"`, d.PDF.Header.Get("Content-Disposition"))
	assert.Equal(t, 5, pdftest.Validate(t, d.PDF.Body))
	if pdftest.HavePdftoppm() {
		assert.Equal(t, 5, pdftest.Render(t, d.PDF.Body), "pdftoppm renders every page")
		text := pdftest.Text(t, d.PDF.Body)
		assert.Contains(t, text, "Signature page")
		assert.Contains(t, text, "Audit trail")
		assert.Equal(t, 5, strings.Count(text, "TEST MODE"), "test-mode marking on every page")
	}

	// The ZIP: one PDF per document, safe unique names.
	assert.Equal(t, "application/zip", d.ZIP.Header.Get("Content-Type"))
	assert.Equal(t, `attachment; filename="Files test.zip"`, d.ZIP.Header.Get("Content-Disposition"))
	names, contents := pdftest.Unzip(t, d.ZIP.Body)
	assert.Equal(t, []string{"contract.pdf", "annex.pdf"}, names)
	assert.Equal(t, 2, pdftest.Validate(t, contents[0]))
	assert.Equal(t, 1, pdftest.Validate(t, contents[1]))

	// The data URI is the binary PDF.
	uri := d.DataURI.Map()["data_uri"].(string)
	require.True(t, strings.HasPrefix(uri, "data:application/pdf;base64,"), uri)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, "data:application/pdf;base64,"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(d.PDF.Body, raw), "data URI decodes to the binary download")

	// The file URL serves the same PDF until expires_at (FileURLTTL, 1h).
	fu := d.FileURL.Map()
	u := fu["file_url"].(string)
	assert.Equal(t, srv.Now().Add(time.Hour).Unix(), int64(fu["expires_at"].(float64)))
	assert.True(t, strings.HasPrefix(u, srv.URL+"/_sandbox/w/"), u)
	status, hdr, body := flFetch(t, u)
	require.Equal(t, http.StatusOK, status, "%s", body)
	assert.Equal(t, "application/pdf", hdr.Get("Content-Type"))
	assert.Equal(t, `attachment; filename="Files test.pdf"`, hdr.Get("Content-Disposition"))
	assert.True(t, bytes.Equal(d.PDF.Body, body))
	inline := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id+"?force_download=0", nil)
	require.Equal(t, http.StatusOK, inline.Status, "%s", inline.Body)
	_, hdr, _ = flFetch(t, inline.Map()["file_url"].(string))
	assert.Equal(t, `inline; filename="Files test.pdf"`, hdr.Get("Content-Disposition"))

	// A signature makes the files "being prepared" again; the new version
	// shows the signer as signed.
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	apitest.GetDownloads(srv, id).All(t, http.StatusConflict, "conflict")
	status, _, _ = flFetch(t, u)
	assert.Equal(t, http.StatusOK, status, "a file URL keeps serving the version it was issued for")
	srv.Advance(5 * time.Second)
	after := apitest.GetDownloads(srv, id)
	after.All(t, http.StatusOK, "")
	assert.False(t, bytes.Equal(d.PDF.Body, after.PDF.Body))
	if pdftest.HavePdftoppm() {
		assert.Contains(t, pdftest.Text(t, after.PDF.Body), "Signed ")
	}

	// expires_at on the world clock ends the URL.
	srv.Advance(time.Hour)
	status, _, body = flFetch(t, u)
	assert.Equal(t, http.StatusGone, status, "%s", body)

	// Cancelation: once it completed, every form answers 410, file URLs too.
	fresh := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil).Map()["file_url"].(string)
	r := srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	apitest.GetDownloads(srv, id).All(t, http.StatusGone, "deleted")
	status, _, _ = flFetch(t, fresh)
	assert.Equal(t, http.StatusGone, status)
}

func TestFilesSameStateSameBytes(t *testing.T) {
	get := func() []byte {
		srv := apitest.NewServer(t)
		sr := flRequest(t, srv, false, apitest.File{Name: "a.pdf", Data: apitest.PDF(1)})
		srv.Advance(5 * time.Second)
		r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+sr["signature_request_id"].(string), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return r.Body
	}
	assert.True(t, bytes.Equal(get(), get()), "two servers, same calls, same PDF bytes")
}

func TestFilesQueryAndAccess(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := flRequest(t, srv, true, apitest.File{Name: "a.pdf", Data: apitest.PDF(1)})
	id := sr["signature_request_id"].(string)
	srv.Advance(5 * time.Second)

	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=docx", nil)
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "file_type")
	r = srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=pdf", nil)
	assert.Equal(t, http.StatusOK, r.Status)
	r = srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id+"?force_download=yes", nil)
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "force_download")

	for _, path := range []string{"/v3/signature_request/files/", "/v3/signature_request/files_as_data_uri/", "/v3/signature_request/files_as_file_url/"} {
		r = srv.Do(http.MethodGet, path+"0123456789abcdef0123456789abcdef01234567", nil)
		apitest.WantError(t, r, http.StatusNotFound, "not_found", "")
		r = srv.DoAs(apitest.OutsiderKey, http.MethodGet, path+id, nil)
		apitest.WantError(t, r, http.StatusNotFound, "not_found", "")
	}

	status, _, _ := flFetch(t, srv.URL+"/_sandbox/w/default/files/"+strings.Repeat("ab", 32))
	assert.Equal(t, http.StatusNotFound, status)
	status, _, _ = flFetch(t, srv.URL+"/_sandbox/w/nowhere/files/"+strings.Repeat("ab", 32))
	assert.Equal(t, http.StatusNotFound, status)
}

func TestFilesSampleDocuments(t *testing.T) {
	sample := pdftest.Sample(t, "pdf-sample.pdf")
	sample2 := pdftest.Sample(t, "pdf-sample-2.pdf")
	srv := apitest.NewServer(t)
	sr := flRequest(t, srv, false, apitest.File{Name: "pdf-sample.pdf", Data: sample}, apitest.File{Name: "pdf-sample.pdf", Data: sample2})
	srv.Advance(5 * time.Second)
	id := sr["signature_request_id"].(string)
	d := apitest.GetDownloads(srv, id)
	d.All(t, http.StatusOK, "")
	assert.Equal(t, 4, pdftest.Validate(t, d.PDF.Body), "2 sample pages + signature page + audit trail")
	if pdftest.HavePdftoppm() {
		assert.Equal(t, 4, pdftest.Render(t, d.PDF.Body))
		assert.NotContains(t, pdftest.Text(t, d.PDF.Body), "TEST MODE", "no test-mode marking outside test_mode")
	}
	names, contents := pdftest.Unzip(t, d.ZIP.Body)
	assert.Equal(t, []string{"pdf-sample.pdf", "pdf-sample (2).pdf"}, names)
	for _, c := range contents {
		assert.Equal(t, 1, pdftest.Validate(t, c))
	}
}

func TestFilesOfTemplates(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "nda.pdf", Data: apitest.PDF(2)})
	paths := []string{"/v3/template/files/", "/v3/template/files/%s?file_type=zip", "/v3/template/files_as_data_uri/", "/v3/template/files_as_file_url/"}
	get := func(p string) *sandboxtest.Response {
		if strings.Contains(p, "%s") {
			return srv.Do(http.MethodGet, fmt.Sprintf(p, id), nil)
		}
		return srv.Do(http.MethodGet, p+id, nil)
	}
	for _, p := range paths {
		apitest.WantError(t, get(p), http.StatusConflict, "conflict", "")
	}
	srv.Advance(apitest.TemplatePrepDelay)
	pdf := get(paths[0])
	require.Equal(t, http.StatusOK, pdf.Status, "%s", pdf.Body)
	assert.Equal(t, 2, pdftest.Validate(t, pdf.Body), "a template's PDF is its documents: no signature page, no audit trail")
	names, _ := pdftest.Unzip(t, get(paths[1]).Body)
	assert.Equal(t, []string{"nda.pdf"}, names)
	uri := get(paths[2]).Map()["data_uri"].(string)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, "data:application/pdf;base64,"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(pdf.Body, raw))
	status, _, body := flFetch(t, get(paths[3]).Map()["file_url"].(string))
	assert.Equal(t, http.StatusOK, status)
	assert.True(t, bytes.Equal(pdf.Body, body))
	if pdftest.HavePdftoppm() {
		assert.Equal(t, 2, pdftest.Render(t, pdf.Body))
	}
}

func TestFileURLExpiresOnTheWorldClock(t *testing.T) {
	srv := apitest.NewServer(t)
	flConfig(t, srv, map[string]any{"file_url_ttl": "10m", "file_preparation_delay": "1s"})
	sr := flRequest(t, srv, false, apitest.File{Name: "a.pdf", Data: apitest.PDF(1)})
	id := sr["signature_request_id"].(string)
	srv.Advance(999 * time.Millisecond)
	apitest.WantError(t, srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil), http.StatusConflict, "conflict", "")
	srv.Advance(time.Millisecond)
	r := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	u := r.Map()["file_url"].(string)
	assert.Equal(t, srv.Now().Add(10*time.Minute).Unix(), int64(r.Map()["expires_at"].(float64)))
	srv.Advance(10*time.Minute - time.Second)
	status, _, _ := flFetch(t, u)
	assert.Equal(t, http.StatusOK, status, "valid until expires_at")
	srv.Advance(time.Second)
	status, _, body := flFetch(t, u)
	assert.Equal(t, http.StatusGone, status, "%s", body)
	n, _, _ := apitest.ErrorParts(t, body)
	assert.Equal(t, "deleted", n)
}

// TestFilesStayThoseOfTheirPreparation: downloads are rendered when asked,
// yet they show the request as it was when its files were prepared, as the
// real service's prepared files do: a reminder (which adds to the audit
// trail but prepares nothing) changes no download, in any form, and a file
// URL issued afterwards serves the same PDF.
func TestFilesStayThoseOfTheirPreparation(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := flRequest(t, srv, false, apitest.File{Name: "a.pdf", Data: apitest.PDF(1)})
	id := sr["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	before := apitest.GetDownloads(srv, id)
	before.All(t, http.StatusOK, "")

	srv.Advance(time.Minute)
	r := srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)

	after := apitest.GetDownloads(srv, id)
	after.All(t, http.StatusOK, "")
	assert.True(t, bytes.Equal(before.PDF.Body, after.PDF.Body), "PDF")
	assert.True(t, bytes.Equal(before.ZIP.Body, after.ZIP.Body), "ZIP")
	assert.Equal(t, before.DataURI.Map()["data_uri"], after.DataURI.Map()["data_uri"], "data URI")
	status, _, body := flFetch(t, after.FileURL.Map()["file_url"].(string))
	require.Equal(t, http.StatusOK, status, "%s", body)
	assert.True(t, bytes.Equal(before.PDF.Body, body), "file URL")
}
