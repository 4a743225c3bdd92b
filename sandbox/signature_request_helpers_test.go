package sandbox_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Fixture credentials (fixtures/world.json).
const (
	srOwnerKey     = "0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c"
	srTeammateKey  = "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	srOutsiderKey  = "015dd024c558991375ddaaba75d97325af798a76720da2e21864f705e7153115"
	srOwnerID      = "4dc1d0601aba5f470c97af030a257f883daf663d"
	srTeammateID   = "6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0"
	srOutsiderID   = "9bebb60aeacd74239d65616bbe584509cb5ea24a"
	srClientID     = "7d1043473d55bfa90e8530d35801d4e3"
	srTeammateMail = "teammate@sandbox.example"
	srOutsiderMail = "outsider@elsewhere.example"
)

// srPDF is a valid PDF of n letter pages.
func srPDF(n int) []byte {
	pages := make([]pdftest.Page, n)
	for i := range pages {
		pages[i] = pdftest.Letter(fmt.Sprintf("Page %d", i+1))
	}
	return pdftest.MakePDF(pages...)
}

type srFile = pdfFile

// srMultipart sends a body as the official SDKs do (sendPDFs).
func srMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, fields map[string]any, files ...srFile) *sandboxtest.Response {
	t.Helper()
	return sendPDFs(t, srv, key, method, path, fields, files...)
}

// srTwoSigners is a send body with two ordered signers and a CC.
func srTwoSigners() map[string]any {
	return map[string]any{
		"title":   "NDA with Acme Co.",
		"subject": "The NDA we talked about",
		"message": "Please sign.",
		"signers": []map[string]any{
			{"name": "Jack", "email_address": "jack@example.com", "order": 0},
			{"name": "Jill", "email_address": "jill@example.com", "order": 1},
		},
		"cc_email_addresses": []string{"lawyer@example.com"},
		"metadata":           map[string]any{"custom_id": 1234, "custom_text": "NDA #9"},
		"test_mode":          true,
	}
}

// srCreate sends a create body with one 1-page PDF and answers the status
// and the decoded response.
func srCreate(t *testing.T, srv *sandboxtest.Server, key, path string, fields map[string]any) *sandboxtest.Response {
	t.Helper()
	return srMultipart(t, srv, key, http.MethodPost, "/v3/signature_request/"+path, fields, srFile{Name: "nda.pdf", Data: srPDF(1)})
}

// srSend sends a request and fails unless it is accepted.
func srSend(t *testing.T, srv *sandboxtest.Server, fields map[string]any) map[string]any {
	t.Helper()
	r := srCreate(t, srv, srv.APIKey, "send", fields)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

// srGet reads a request as key.
func srGet(t *testing.T, srv *sandboxtest.Server, key, id string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs(key, http.MethodGet, "/v3/signature_request/"+id, nil)
}

// srGetOK reads a request and fails unless it is answered.
func srGetOK(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
	t.Helper()
	r := srGet(t, srv, srv.APIKey, id)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

// srSigs lists the signatures of a request.
func srSigs(sr map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range sr["signatures"].([]any) {
		out = append(out, s.(map[string]any))
	}
	return out
}

// srSigID is the signature_id of the i-th signer.
func srSigID(sr map[string]any, i int) string { return srSigs(sr)[i]["signature_id"].(string) }

// srStatuses lists the status codes of a request's signatures.
func srStatuses(sr map[string]any) []string {
	var out []string
	for _, s := range srSigs(sr) {
		out = append(out, s["status_code"].(string))
	}
	return out
}

// srEvents lists the event types emitted for an object, in order.
func srEvents(srv *sandboxtest.Server, id string) []string {
	var out []string
	for _, c := range srv.Callbacks(sandboxtest.ObjectID(id)) {
		out = append(out, c.EventType)
	}
	return out
}

// srErr checks an error answer's status, error_name and (when not "")
// error_path.
func srErr(t *testing.T, r *sandboxtest.Response, status int, name, path string) {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	n, _, p := errorOf(t, r.Body)
	require.Equal(t, name, n, "%s", r.Body)
	if path != "" {
		require.Equal(t, path, p, "%s", r.Body)
	}
}
