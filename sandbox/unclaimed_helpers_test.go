package sandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// udProcess is the default SendProcessingDelay.
const udProcess = 2 * time.Second

// udCreate posts a draft body with one 1-page PDF (multipart, as the SDK
// sends it) to an unclaimed_draft operation ("create", "create_embedded").
func udCreate(t *testing.T, srv *sandboxtest.Server, key, op string, fields map[string]any) *sandboxtest.Response {
	t.Helper()
	return srMultipart(t, srv, key, http.MethodPost, "/v3/unclaimed_draft/"+op, fields, srFile{Name: "contract.pdf", Data: srPDF(1)})
}

// udDraft creates a draft and answers its unclaimed_draft object.
func udDraft(t *testing.T, srv *sandboxtest.Server, op string, fields map[string]any) map[string]any {
	t.Helper()
	r := udCreate(t, srv, srv.APIKey, op, fields)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["unclaimed_draft"].(map[string]any)
}

// udRequestSignature is a create body for a request_signature draft.
func udRequestSignature() map[string]any {
	return map[string]any{
		"type":      "request_signature",
		"subject":   "Lease",
		"message":   "Please sign the lease.",
		"signers":   []map[string]any{{"name": "Jack", "email_address": "jack@example.com", "order": 0}},
		"metadata":  map[string]any{"ref": "L-7"},
		"test_mode": true,
	}
}

// udEmbedded is a create_embedded body.
func udEmbedded() map[string]any {
	return map[string]any{
		"client_id":               srClientID,
		"requester_email_address": "requester@example.com",
		"signers":                 []map[string]any{{"name": "Jill", "email_address": "jill@example.com"}},
		"test_mode":               true,
	}
}

// udPath turns a URL the sandbox handed out into a path on srv.
func udPath(t *testing.T, srv *sandboxtest.Server, u string) string {
	t.Helper()
	require.True(t, strings.HasPrefix(u, srv.URL+"/"), "URL %s is not served by the sandbox at %s", u, srv.URL)
	return strings.TrimPrefix(u, srv.URL)
}

// udOpen opens a claim URL without credentials, as a browser does.
func udOpen(t *testing.T, srv *sandboxtest.Server, claimURL string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs("", http.MethodGet, udPath(t, srv, claimURL), nil)
}

// udSubmit posts the claim page's form.
func udSubmit(t *testing.T, srv *sandboxtest.Server, claimURL string, form url.Values) *sandboxtest.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, claimURL, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Sandboxtest-No-Auth", "1")
	return srv.Send(req)
}

// udClaim claims and sends a draft through the control plane as key.
func udClaim(t *testing.T, srv *sandboxtest.Server, key, id string, body map[string]any) *sandboxtest.Response {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return srv.DoAs(key, http.MethodPost, sandbox.ControlPrefix+"/unclaimed_drafts/"+id+"/claim", body)
}
