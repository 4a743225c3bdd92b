package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// mpFile is one file part of a multipart body.
type mpFile struct {
	Field       string // "files[i]" (i its index among the files) unless set
	Name        string
	ContentType string // no Content-Type header when empty
	Data        []byte
}

// sendMultipart sends a body the way the official SDKs do: scalars as text,
// objects and arrays as one JSON part each (in key order), then the files.
// The signature request, template and documents tests share it.
func sendMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...mpFile) *sandboxtest.Response {
	t.Helper()
	req := multipartRequest(t, srv, method, path, fields, files...)
	req.SetBasicAuth(key, "")
	return srv.Send(req)
}

// multipartRequest is the request sendMultipart sends, without credentials.
func multipartRequest(t *testing.T, srv *sandboxtest.Server, method, path string, fields map[string]any, files ...mpFile) *http.Request {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var v string
		switch x := fields[k].(type) {
		case string:
			v = x
		case bool, int, int64:
			v = fmt.Sprint(x)
		default:
			raw, err := json.Marshal(x)
			require.NoError(t, err)
			v = string(raw)
		}
		require.NoError(t, mw.WriteField(k, v))
	}
	for i, f := range files {
		field := f.Field
		if field == "" {
			field = fmt.Sprintf("files[%d]", i)
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, f.Name))
		if f.ContentType != "" {
			h.Set("Content-Type", f.ContentType)
		}
		w, err := mw.CreatePart(h)
		require.NoError(t, err)
		_, _ = w.Write(f.Data)
	}
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(method, srv.URL+path, &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

// pdfFile is a named PDF to upload.
type pdfFile struct {
	Name string
	Data []byte
}

// sendPDFs is sendMultipart with PDF files as files[0], files[1], ...
func sendPDFs(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...pdfFile) *sandboxtest.Response {
	t.Helper()
	parts := make([]mpFile, len(files))
	for i, f := range files {
		parts[i] = mpFile{Name: f.Name, ContentType: "application/pdf", Data: f.Data}
	}
	return sendMultipart(t, srv, key, method, path, fields, parts...)
}

// fetchPage fetches (form nil) or posts a form to a sandbox page without
// credentials, as a browser would, and answers the status and body.
func fetchPage(t *testing.T, method, u string, form url.Values) (int, string) {
	t.Helper()
	a := pageDo(t, method, u, form, nil)
	return a.Status, a.Body
}
