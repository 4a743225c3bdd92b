package apitest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Unclaimed drafts: bodies, claim pages and the official examples.

// CreateDraft posts a draft body with one 1-page PDF (multipart, as the SDK
// sends it) to an unclaimed_draft operation ("create", "create_embedded").
func CreateDraft(t *testing.T, srv *sandboxtest.Server, key, op string, fields map[string]any) *sandboxtest.Response {
	t.Helper()
	return SendPDFs(t, srv, key, http.MethodPost, "/v3/unclaimed_draft/"+op, fields, PDFFile{Name: "contract.pdf", Data: PDF(1)})
}

// Draft creates a draft and returns its unclaimed_draft object.
func Draft(t *testing.T, srv *sandboxtest.Server, op string, fields map[string]any) map[string]any {
	t.Helper()
	r := CreateDraft(t, srv, srv.APIKey, op, fields)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["unclaimed_draft"].(map[string]any)
}

// DraftBody is a create body for a request_signature draft.
func DraftBody() map[string]any {
	return map[string]any{
		"type":      "request_signature",
		"subject":   "Lease",
		"message":   "Please sign the lease.",
		"signers":   []map[string]any{{"name": "Jack", "email_address": "jack@example.com", "order": 0}},
		"metadata":  map[string]any{"ref": "L-7"},
		"test_mode": true,
	}
}

// EmbeddedDraftBody is a create_embedded body.
func EmbeddedDraftBody() map[string]any {
	return map[string]any{
		"client_id":               ClientID,
		"requester_email_address": "requester@example.com",
		"signers":                 []map[string]any{{"name": "Jill", "email_address": "jill@example.com"}},
		"test_mode":               true,
	}
}

// PathOf turns a URL the sandbox handed out into a path on srv.
func PathOf(t *testing.T, srv *sandboxtest.Server, u string) string {
	t.Helper()
	require.True(t, strings.HasPrefix(u, srv.URL+"/"), "URL %s is not served by the sandbox at %s", u, srv.URL)
	return strings.TrimPrefix(u, srv.URL)
}

// OpenClaim opens a claim URL without credentials, as a browser does.
func OpenClaim(t *testing.T, srv *sandboxtest.Server, claimURL string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs("", http.MethodGet, PathOf(t, srv, claimURL), nil)
}

// SubmitClaim posts the claim page's form.
func SubmitClaim(t *testing.T, srv *sandboxtest.Server, claimURL string, form url.Values) *sandboxtest.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, claimURL, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Sandboxtest-No-Auth", "1")
	return srv.Send(req)
}

// Claim claims and sends a draft through the control plane as key.
func Claim(t *testing.T, srv *sandboxtest.Server, key, id string, body map[string]any) *sandboxtest.Response {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return srv.DoAs(key, http.MethodPost, sandbox.ControlPrefix+"/unclaimed_drafts/"+id+"/claim", body)
}

// OfficialExample reads an official request example, or skips the test when the
// reference material is not beside the repository.
func OfficialExample(t *testing.T, name string) map[string]any {
	t.Helper()
	p := filepath.Join(filepath.Dir(conformance.Path()), "examples", "json", name)
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("official example %s not available: %v", p, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}
