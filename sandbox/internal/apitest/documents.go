package apitest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Documents: the bodies that carry files, and the download forms of a request.

// PostFiles posts a create body as multipart as the caller: scalars as text,
// objects and arrays as JSON parts, then the file parts.
func PostFiles(t *testing.T, srv *sandboxtest.Server, path string, fields map[string]any, parts ...File) *sandboxtest.Response {
	t.Helper()
	return SendMultipart(t, srv, srv.APIKey, http.MethodPost, path, fields, parts...)
}

// Downloads are the four download forms of a signature request: the
// merged PDF, the ZIP, the data URI and the file URL.
type Downloads struct {
	PDF, ZIP, DataURI, FileURL *sandboxtest.Response
}

// GetDownloads fetches every download form of a signature request.
func GetDownloads(srv *sandboxtest.Server, id string) Downloads {
	return Downloads{
		PDF:     srv.Do(http.MethodGet, "/v3/signature_request/files/"+id, nil),
		ZIP:     srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=zip", nil),
		DataURI: srv.Do(http.MethodGet, "/v3/signature_request/files_as_data_uri/"+id, nil),
		FileURL: srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil),
	}
}

// OneSignerBody is a test-mode send body with one signer and no documents.
func OneSignerBody() map[string]any {
	return map[string]any{
		"signers":   []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}},
		"test_mode": true,
	}
}

// OneSignerBodyWith is OneSignerBody with extra fields.
func OneSignerBodyWith(extra map[string]any) map[string]any {
	m := OneSignerBody()
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// All checks that every form answers with status and error_name.
func (d Downloads) All(t *testing.T, status int, name string) {
	t.Helper()
	for form, r := range map[string]*sandboxtest.Response{"pdf": d.PDF, "zip": d.ZIP, "data uri": d.DataURI, "file url": d.FileURL} {
		require.Equal(t, status, r.Status, "%s: %s", form, r.Body)
		if name != "" {
			n, msg, _ := ErrorParts(t, r.Body)
			assert.Equal(t, name, n, form)
			if status == http.StatusConflict {
				assert.Equal(t, apierr.MsgFilesNotReady, msg, form)
			}
		}
	}
}
