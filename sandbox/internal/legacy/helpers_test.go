package legacy_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// lgField is one form field of an older client's body, in the order the
// client writes it; a field with File set is an uploaded PDF.
type lgField struct {
	Name, Value string
	File        []byte
}

// lgForm sends fields urlencoded, in their order, as key.
func lgForm(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields ...lgField) *sandboxtest.Response {
	t.Helper()
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		require.Nil(t, f.File, "files go in multipart bodies")
		parts = append(parts, url.QueryEscape(f.Name)+"="+url.QueryEscape(f.Value))
	}
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(strings.Join(parts, "&")))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(key, "")
	return srv.Send(req)
}

// lgMultipart sends fields as multipart parts, in their order, as key: text
// fields as text parts, files as file parts with a filename.
func lgMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields ...lgField) *sandboxtest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for i, f := range fields {
		if f.File == nil {
			require.NoError(t, mw.WriteField(f.Name, f.Value))
			continue
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename="doc%d.pdf"`, f.Name, i))
		h.Set("Content-Type", "application/pdf")
		w, err := mw.CreatePart(h)
		require.NoError(t, err)
		_, _ = w.Write(f.File)
	}
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(method, srv.URL+path, &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(key, "")
	return srv.Send(req)
}

// lgEncodings send the same fields urlencoded and as multipart; bodies with
// files use multipart only.
var lgEncodings = map[string]func(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields ...lgField) *sandboxtest.Response{
	"urlencoded": lgForm,
	"multipart":  lgMultipart,
}
