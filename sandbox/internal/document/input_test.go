package document_test

import (
	"bytes"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func flConfig(t *testing.T, srv *sandboxtest.Server, cfg map[string]any) {
	t.Helper()
	srv.Control(http.MethodPatch, "/config", cfg, nil)
}

func TestDocumentsRefusedAtOnce(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PDF(1)
	cases := []struct {
		name   string
		fields map[string]any
		parts  []apitest.File
		path   string
	}{
		{"both files and file_urls", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{"https://example.com/a.pdf"}}), []apitest.File{{Name: "a.pdf", Data: pdf}}, "file_urls"},
		{"neither files nor file_urls", apitest.OneSignerBody(), nil, "files"},
		{"empty upload", apitest.OneSignerBody(), []apitest.File{{Name: "a.pdf", Data: pdf}, {Name: "empty.pdf"}}, "files[1]"},
		{"empty upload, legacy field", apitest.OneSignerBody(), []apitest.File{{Field: "file[0]", Name: "empty.pdf"}}, "file[0]"},
		{"file_urls entry not a URL", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{"not a url"}}), nil, "file_urls[0]"},
		{"file_urls entry relative", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{"https://example.com/a.pdf", "/files/a.pdf"}}), nil, "file_urls[1]"},
		{"file_urls entry ftp", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{"ftp://example.com/a.pdf"}}), nil, "file_urls[0]"},
		{"file_urls entry without host", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{"http://"}}), nil, "file_urls[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := apitest.PostFiles(t, srv, "/v3/signature_request/send", tc.fields, tc.parts...)
			apitest.WantError(t, r, http.StatusBadRequest, "bad_request", tc.path)
		})
	}
}

func TestDocumentsSizeLimits(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PDF(1)
	flConfig(t, srv, map[string]any{"max_file_bytes": len(pdf) - 1})
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBody(), apitest.File{Name: "a.pdf", Data: pdf})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "files[0]")

	flConfig(t, srv, map[string]any{"max_file_bytes": 1 << 20, "max_world_bytes": 3*len(pdf) + 10})
	for i := 0; i < 3; i++ {
		r = apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBody(), apitest.File{Name: "a.pdf", Data: pdf})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	r = apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBody(), apitest.File{Name: "a.pdf", Data: pdf})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "files")
}

func encryptedPDF(t *testing.T) []byte {
	conf := model.NewDefaultConfiguration()
	conf.UserPW, conf.OwnerPW = "user", "owner"
	var out bytes.Buffer
	require.NoError(t, api.Encrypt(bytes.NewReader(apitest.PDF(1)), &out, conf))
	return out.Bytes()
}

// flStatus sends, lets processing happen and answers the first signature's
// status_code and the request's events.
func flStatus(t *testing.T, srv *sandboxtest.Server, fields map[string]any, parts ...apitest.File) (string, []string) {
	t.Helper()
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", fields, parts...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	sr := apitest.GetRequestOK(t, srv, id)
	return apitest.Statuses(sr)[0], apitest.EventTypes(srv, id)
}

func TestDocumentsUnreadableEndInErrorFile(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PDF(2)
	zeroPages := []byte("%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[]/Count 0>>\nendobj\n" +
		"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000056 00000 n \ntrailer\n<</Size 3/Root 1 0 R>>\nstartxref\n104\n%%EOF\n")
	cases := []struct {
		name string
		part apitest.File
	}{
		{"truncated PDF", apitest.File{Name: "cut.pdf", Data: pdf[:len(pdf)/2]}},
		{"encrypted PDF", apitest.File{Name: "locked.pdf", Data: encryptedPDF(t)}},
		{"zero-page PDF", apitest.File{Name: "empty.pdf", Data: zeroPages}},
		{"not a PDF", apitest.File{Name: "fake.pdf", Data: []byte("this is not a pdf")}},
		{"unsupported type", apitest.File{Name: "setup.exe", Data: []byte("MZ\x90\x00\x03")}},
		{"office name, not an office file", apitest.File{Name: "letter.docx", Data: []byte("plain text")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, events := flStatus(t, srv, apitest.OneSignerBody(), apitest.File{Name: "ok.pdf", Data: pdf}, tc.part)
			assert.Equal(t, "error_file", status)
			assert.Contains(t, events, "file_error")
		})
	}
}

func TestDocumentsConverted(t *testing.T) {
	srv := apitest.NewServer(t)
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 40, 30))))
	docx := append([]byte("PK\x03\x04"), make([]byte, 64)...)
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBodyWith(map[string]any{"title": "Mixed"}),
		apitest.File{Field: "file[0]", Name: "scan.png", ContentType: "image/png", Data: img.Bytes()},
		apitest.File{Field: "file[1]", Name: "notes.txt", ContentType: "text/plain", Data: []byte("Some notes.")},
		apitest.File{Field: "file[2]", Name: "offer.docx", Data: docx},
		apitest.File{Field: "file[3]", Name: "contract.pdf", Data: apitest.PDF(2)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	d := apitest.GetDownloads(srv, id)
	d.All(t, http.StatusOK, "")
	assert.Equal(t, 1+1+1+2+2, pdftest.Validate(t, d.PDF.Body), "image, text and placeholder pages, the PDF, signature page and audit trail")
	names, _ := pdftest.Unzip(t, d.ZIP.Body)
	assert.Equal(t, []string{"scan.pdf", "notes.pdf", "offer.pdf", "contract.pdf"}, names)
	if pdftest.HavePdftoppm() {
		assert.Equal(t, 7, pdftest.Render(t, d.PDF.Body))
		text := pdftest.Text(t, d.PDF.Body)
		assert.Contains(t, text, "Some notes.")
		assert.Contains(t, text, "Placeholder page")
		assert.Contains(t, text, "offer.docx")
	}
}

func TestDocumentsFileURLs(t *testing.T) {
	pdf := apitest.PDF(3)
	fileServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/contract.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write(pdf)
		case "/download":
			w.Header().Set("Content-Disposition", `attachment; filename="named.pdf"`)
			_, _ = w.Write(pdf)
		case "/moved":
			http.Redirect(w, r, "/contract.pdf", http.StatusFound)
		case "/empty.pdf":
		case "/big.pdf":
			_, _ = w.Write(bytes.Repeat([]byte("x"), 5000))
		default:
			http.NotFound(w, r)
		}
	}))
	defer fileServer.Close()
	srv := apitest.NewServer(t)
	flConfig(t, srv, map[string]any{"max_file_bytes": 4096})

	ok := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBodyWith(map[string]any{
		"file_urls": []string{fileServer.URL + "/contract.pdf", fileServer.URL + "/download", fileServer.URL + "/moved"}}))
	require.Equal(t, http.StatusOK, ok.Status, "%s", ok.Body)
	id := ok.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	d := apitest.GetDownloads(srv, id)
	d.All(t, http.StatusOK, "")
	assert.Equal(t, 3*3+2, pdftest.Validate(t, d.PDF.Body))
	names, _ := pdftest.Unzip(t, d.ZIP.Body)
	assert.Len(t, names, 3, "one ZIP entry per fetched document")

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for name, u := range map[string]string{
		"404":         fileServer.URL + "/missing.pdf",
		"empty":       fileServer.URL + "/empty.pdf",
		"too large":   fileServer.URL + "/big.pdf",
		"unreachable": closed.URL + "/a.pdf",
	} {
		t.Run(name, func(t *testing.T) {
			status, events := flStatus(t, srv, apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{u}}))
			assert.Equal(t, "error_file", status)
			assert.Contains(t, events, "file_error")
		})
	}
}

func TestDocumentsFileURLsOffline(t *testing.T) {
	srv := apitest.NewServer(t)
	flConfig(t, srv, map[string]any{"fetch_file_urls": false})
	u := "https://files.invalid/agreement.pdf"
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{u}}))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	d := apitest.GetDownloads(srv, id)
	d.All(t, http.StatusOK, "")
	assert.Equal(t, 3, pdftest.Validate(t, d.PDF.Body), "placeholder page, signature page, audit trail")
	if pdftest.HavePdftoppm() {
		text := pdftest.Text(t, d.PDF.Body)
		assert.Contains(t, text, u)
		assert.Contains(t, text, "fetch_file_urls")
	}
}

// TestDocumentsFileURLTitle pins the default title of a request sent from
// file_urls without title or subject: the document's name, which is the
// server's Content-Disposition filename when it sends one, else the URL's
// last path segment (never the query).
func TestDocumentsFileURLTitle(t *testing.T) {
	pdf := apitest.PDF(1)
	fileServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/export" {
			w.Header().Set("Content-Disposition", `attachment; filename="Master Services Agreement.pdf"`)
		}
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(pdf)
	}))
	defer fileServer.Close()
	srv := apitest.NewServer(t)
	for name, tc := range map[string]struct{ url, title string }{
		"Content-Disposition": {fileServer.URL + "/export?id=42&format=pdf", "Master Services Agreement.pdf"},
		"URL path":            {fileServer.URL + "/docs/lease.pdf?sig=abc", "lease.pdf"},
	} {
		t.Run(name, func(t *testing.T) {
			r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{tc.url}}))
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			sr := r.Map()["signature_request"].(map[string]any)
			assert.Equal(t, tc.title, sr["title"])
			assert.Equal(t, tc.title, sr["original_title"])
		})
	}
}
