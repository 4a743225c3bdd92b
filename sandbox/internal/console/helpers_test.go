package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// postFile makes an object through the API as key: a multipart body of
// fields and one one-page PDF named fileName, posted to path; it fails
// unless the answer is 200.
func postFile(t *testing.T, srv *sandboxtest.Server, key, path string, fields map[string]string, fileName string) []byte {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		require.NoError(t, mw.WriteField(k, v))
	}
	fw, err := mw.CreateFormFile("files[0]", fileName)
	require.NoError(t, err)
	_, err = fw.Write(pdftest.MakePDF(pdftest.Letter("Page 1")))
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, &b)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(key, "")
	r := srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Body
}

// sendRequest sends a signature request with one PDF named fileName as key
// does through the official API, and answers its id and signature ids.
func sendRequest(t *testing.T, srv *sandboxtest.Server, key string, fields map[string]string, fileName string) (string, []string) {
	t.Helper()
	body := postFile(t, srv, key, "/v3/signature_request/send", fields, fileName)
	var out struct {
		SignatureRequest struct {
			ID         string `json:"signature_request_id"`
			Signatures []struct {
				ID string `json:"signature_id"`
			} `json:"signatures"`
		} `json:"signature_request"`
	}
	require.NoError(t, json.Unmarshal(body, &out))
	var sigs []string
	for _, s := range out.SignatureRequest.Signatures {
		sigs = append(sigs, s.ID)
	}
	return out.SignatureRequest.ID, sigs
}

// simpleFields is a send body with one signer.
func simpleFields(title, signer string) map[string]string {
	return map[string]string{
		"title": title, "subject": "Subject of " + title, "message": "Please sign " + title, "test_mode": "1",
		"signers[0][name]": signer, "signers[0][email_address]": fmt.Sprintf("%s@example.com", signer),
	}
}

// getJSON reads a console or control answer as key ("" for none) and
// decodes it into out, failing unless the status is want.
func getJSON(t *testing.T, srv *sandboxtest.Server, key, path string, want int, out any) {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, path, nil)
	require.Equal(t, want, r.Status, "GET %s: %s", path, r.Body)
	if out != nil {
		require.NoError(t, json.Unmarshal(r.Body, out), "%s", r.Body)
	}
}

type requestPage struct {
	Items []struct {
		ID      string `json:"signature_request_id"`
		Title   string `json:"title"`
		Status  string `json:"status"`
		Signers []struct {
			Name   string `json:"name"`
			Status string `json:"status_code"`
		} `json:"signers"`
	} `json:"items"`
	Next string `json:"next"`
}

func (p requestPage) ids() []string {
	var ids []string
	for _, it := range p.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

// createTemplate creates a template with the signer role Client and one
// signature field on a one-page PDF, as key, and answers its id.
func createTemplate(t *testing.T, srv *sandboxtest.Server, key string) string {
	t.Helper()
	body := postFile(t, srv, key, "/v3/template/create", map[string]string{
		"title": "Template", "test_mode": "1", "signer_roles[0][name]": "Client",
		"form_fields_per_document": `[{"document_index":0,"api_id":"sig1","name":"","type":"signature","x":100,"y":100,"width":180,"height":40,"required":true,"signer":"Client","page":1}]`,
	}, "t.pdf")
	var out struct {
		Template struct {
			ID string `json:"template_id"`
		} `json:"template"`
	}
	require.NoError(t, json.Unmarshal(body, &out))
	return out.Template.ID
}
