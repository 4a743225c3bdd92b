package signpage_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// embMessage is one hellosign-embedded postMessage a page posts on load.
type embMessage struct {
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

var (
	embListRE   = regexp.MustCompile(`var msgs = (\[.*\]);`)
	embAnswerRE = regexp.MustCompile(`post\(\{type: "([^"]+)"\}\)`)
)

// embeddedMessages reads the messages a sandbox page posts to the
// hellosign-embedded library on load, in order, and the message it answers
// the library's hellosign:userCancelRequest with.
func embeddedMessages(t *testing.T, page string) (msgs []embMessage, cancelAnswer string) {
	t.Helper()
	m := embListRE.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has the hellosign-embedded script:\n%s", page)
	require.NoError(t, json.Unmarshal([]byte(m[1]), &msgs))
	a := embAnswerRE.FindStringSubmatch(page)
	require.NotNil(t, a, "the page answers the library's cancel request")
	return msgs, a[1]
}

// pageURL adds the query parameters hellosign-embedded appends to every URL
// it opens; the pages must ignore them.
func pageURL(u string) string {
	return u + "?client_id=" + apitest.ClientID + "&debug=0&parent_url=http%3A%2F%2F127.0.0.1%3A1%2F&skip_domain_verification=1&ux_version=2&js_version=2.12.4"
}

// TestEmbeddedProtocolSignPage pins what the signing page tells the
// hellosign-embedded library (found by the browser e2e tests with the
// official library): one initialize (one "ready"), then sign or decline
// followed by finish (the library emits "finish" and closes the iframe), an
// error message instead of initialize for an expired or used link, and a
// cancel answer to the modal's close button while the signer can still act.
func TestEmbeddedProtocolSignPage(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.CreateEmbeddedRequest(t, srv)
	srv.Advance(2 * time.Second)
	jack, jill := apitest.SignatureID(sr, 0), apitest.SignatureID(sr, 1)
	signURL := apitest.SignURL(t, srv, jack).Map()["embedded"].(map[string]any)["sign_url"].(string)

	status, page := apitest.FetchPage(t, http.MethodGet, pageURL(signURL), nil)
	require.Equal(t, http.StatusOK, status, page)
	msgs, answer := embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:initialize", Payload: map[string]any{"signatureId": jack}}}, msgs)
	assert.Equal(t, "hellosign:userCancelRequest", answer, "the close button cancels while the signer can act")

	status, page = apitest.FetchPage(t, http.MethodPost, pageURL(signURL), url.Values{"action": {"sign"}})
	require.Equal(t, http.StatusOK, status, page)
	msgs, answer = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{
		{Type: "hellosign:userSignRequest", Payload: map[string]any{"signatureId": jack}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs, "no second initialize after signing; finish closes the iframe")
	assert.Equal(t, "hellosign:userFinishRequest", answer)

	// The used link: an error, no initialize.
	status, page = apitest.FetchPage(t, http.MethodGet, pageURL(signURL), nil)
	assert.Equal(t, http.StatusOK, status)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:error", Payload: map[string]any{"signatureId": jack, "code": float64(http.StatusConflict)}}}, msgs)

	// Declining posts the reason, then finish. The reason stays inside the
	// script's JSON.
	jillURL := apitest.SignURL(t, srv, jill).Map()["embedded"].(map[string]any)["sign_url"].(string)
	reason := `</script><script>alert(1)</script> "quoted" & more`
	status, page = apitest.FetchPage(t, http.MethodPost, pageURL(jillURL), url.Values{"action": {"decline"}, "reason": {reason}})
	require.Equal(t, http.StatusOK, status, page)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{
		{Type: "hellosign:userDeclineRequest", Payload: map[string]any{"signatureId": jill, "reason": reason}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs)
	assert.NotContains(t, page, "<script>alert(1)")

	// An expired link: 410 and an error with the signature.
	sr2 := apitest.CreateEmbeddedRequest(t, srv)
	srv.Advance(2 * time.Second)
	expiring := apitest.SignURL(t, srv, apitest.SignatureID(sr2, 0)).Map()["embedded"].(map[string]any)["sign_url"].(string)
	srv.Advance(time.Hour)
	status, page = apitest.FetchPage(t, http.MethodGet, pageURL(expiring), nil)
	assert.Equal(t, http.StatusGone, status)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:error", Payload: map[string]any{"signatureId": apitest.SignatureID(sr2, 0), "code": float64(http.StatusGone)}}}, msgs)

	// An unknown link: 404, an error without a signature.
	status, page = apitest.FetchPage(t, http.MethodGet, srv.URL+"/_sandbox/w/default/sign/"+"00", nil)
	assert.Equal(t, http.StatusNotFound, status)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:error", Payload: map[string]any{"code": float64(http.StatusNotFound)}}}, msgs)
}

// TestEmbeddedProtocolEditorPage: the template editor initializes (the
// library's "ready", with the template id), a save posts createTemplate with
// the template's id, title, message and role names and then finish, and a
// used link posts an error.
func TestEmbeddedProtocolEditorPage(t *testing.T) {
	srv := apitest.NewServer(t)
	id, editURL := embeddedTemplateEditURL(t, srv)

	status, page := apitest.FetchPage(t, http.MethodGet, pageURL(editURL), nil)
	require.Equal(t, http.StatusOK, status, page)
	msgs, answer := embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:initialize", Payload: map[string]any{"templateId": id}}}, msgs)
	assert.Equal(t, "hellosign:userCancelRequest", answer)

	status, page = apitest.FetchPage(t, http.MethodPost, pageURL(editURL), url.Values{"title": {"NDA v3"}, "message": {"Read it"}})
	require.Equal(t, http.StatusOK, status, page)
	msgs, answer = embeddedMessages(t, page)
	roles := []any{}
	for _, r := range apitest.GetTemplate(t, srv, srv.APIKey, id)["signer_roles"].([]any) {
		roles = append(roles, r.(map[string]any)["name"])
	}
	require.NotEmpty(t, roles)
	assert.Equal(t, []embMessage{
		{Type: "hellosign:userCreateTemplate", Payload: map[string]any{"templateId": id, "title": "NDA v3", "message": "Read it", "signerRoles": roles}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs)
	assert.Equal(t, "hellosign:userFinishRequest", answer)

	status, page = apitest.FetchPage(t, http.MethodGet, pageURL(editURL), nil)
	assert.Equal(t, http.StatusGone, status)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:error", Payload: map[string]any{"code": float64(http.StatusGone)}}}, msgs)
}

// TestEmbeddedProtocolClaimPage: the claim page initializes with the draft's
// id, sending posts send (request and first signature) and then finish, and
// the claimed link posts an error.
func TestEmbeddedProtocolClaimPage(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
	claimURL := d["claim_url"].(string)
	draftID := d["signature_request_id"].(string)

	status, page := apitest.FetchPage(t, http.MethodGet, pageURL(claimURL), nil)
	require.Equal(t, http.StatusOK, status, page)
	msgs, answer := embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:initialize", Payload: map[string]any{"signatureRequestId": draftID}}}, msgs)
	assert.Equal(t, "hellosign:userCancelRequest", answer)

	status, page = apitest.FetchPage(t, http.MethodPost, pageURL(claimURL), url.Values{"signer_name": {"Jill"}, "signer_email": {"jill@example.com"}})
	require.Equal(t, http.StatusOK, status, page)
	msgs, _ = embeddedMessages(t, page)
	sr := apitest.GetRequestOK(t, srv, draftID)
	sigID := apitest.SignatureID(sr, 0)
	assert.Equal(t, []embMessage{
		{Type: "hellosign:userSendRequest", Payload: map[string]any{"signatureRequestId": draftID, "signatureId": sigID}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs)

	status, page = apitest.FetchPage(t, http.MethodGet, pageURL(claimURL), nil)
	assert.Equal(t, http.StatusNotFound, status)
	msgs, _ = embeddedMessages(t, page)
	assert.Equal(t, []embMessage{{Type: "hellosign:error", Payload: map[string]any{"code": float64(http.StatusNotFound)}}}, msgs)
}
