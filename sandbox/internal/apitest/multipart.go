package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// File is one file part of a multipart request.
type File struct {
	Field       string // "files[i]" (i its index among the files) unless set
	Name        string
	ContentType string // no Content-Type header when empty
	Data        []byte
}

// Multipart sends text fields and files as multipart/form-data with the
// server's API key (SendMultipart).
func Multipart(t *testing.T, srv *sandboxtest.Server, method, path string, fields map[string]string, files ...File) *sandboxtest.Response {
	t.Helper()
	vals := make(map[string]any, len(fields))
	for k, v := range fields {
		vals[k] = v
	}
	return SendMultipart(t, srv, srv.APIKey, method, path, vals, files...)
}

// SendMultipart sends a body the way the official SDKs do: scalars as text,
// objects and arrays as one JSON part each (in key order), then the files.
func SendMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...File) *sandboxtest.Response {
	t.Helper()
	req := MultipartRequest(t, srv, method, path, fields, files...)
	req.SetBasicAuth(key, "")
	return srv.Send(req)
}

// MultipartRequest is the request SendMultipart sends, without credentials.
func MultipartRequest(t *testing.T, srv *sandboxtest.Server, method, path string, fields map[string]any, files ...File) *http.Request {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
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

// PDFFile is a named PDF to upload.
type PDFFile struct {
	Name string
	Data []byte
}

// SendPDFs is SendMultipart with PDF files as files[0], files[1], ...
func SendPDFs(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...PDFFile) *sandboxtest.Response {
	t.Helper()
	parts := make([]File, len(files))
	for i, f := range files {
		parts[i] = File{Name: f.Name, ContentType: "application/pdf", Data: f.Data}
	}
	return SendMultipart(t, srv, key, method, path, fields, parts...)
}

// Part is one part of a multipart body for SendParts: a file when
// filename is set.
type Part struct {
	name, value     string
	filename, ctype string
	data            []byte
	isFile          bool
}

// Field is a text part.
func Field(name, value string) Part { return Part{name: name, value: value} }

// FilePart is a file part.
func FilePart(name, filename, ctype string, data []byte) Part {
	return Part{name: name, filename: filename, ctype: ctype, data: data, isFile: true}
}

// SendParts sends a multipart/form-data request as the official SDKs do
// (through SendMultipart: the fields in key order, then the files).
func SendParts(t *testing.T, srv *sandboxtest.Server, key, method, path string, parts ...Part) *sandboxtest.Response {
	t.Helper()
	fields := map[string]any{}
	var files []File
	for _, p := range parts {
		if p.isFile {
			files = append(files, File{Field: p.name, Name: p.filename, ContentType: p.ctype, Data: p.data})
			continue
		}
		fields[p.name] = p.value
	}
	return SendMultipart(t, srv, key, method, path, fields, files...)
}

// PageAnswer is a page's answer with its headers.
type PageAnswer struct {
	Status int
	Header http.Header
	Body   string
}

// PageDo requests a sandbox page as a browser would (no credentials), with
// a form (when not nil) and extra headers.
func PageDo(t *testing.T, method, u string, form url.Values, header map[string]string) PageAnswer {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return PageAnswer{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// FetchPage fetches (form nil) or posts a form to a sandbox page without
// credentials, as a browser would, and returns the status and body.
func FetchPage(t *testing.T, method, u string, form url.Values) (int, string) {
	t.Helper()
	a := PageDo(t, method, u, form, nil)
	return a.Status, a.Body
}
