package sandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func srEmbedded(t *testing.T, srv *sandboxtest.Server) map[string]any {
	t.Helper()
	body := srTwoSigners()
	body["client_id"] = srClientID
	body["allow_decline"] = true
	r := srCreate(t, srv, srv.APIKey, "create_embedded", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

func srSignURL(t *testing.T, srv *sandboxtest.Server, sigID string) *sandboxtest.Response {
	t.Helper()
	return srv.Do(http.MethodGet, "/v3/embedded/sign_url/"+sigID, nil)
}

// TestEmbeddedSigning: embedded requests get no e-mails or reminders; sign
// URLs are served by the sandbox, act as the signer and expire on the
// world clock.
func TestEmbeddedSigning(t *testing.T) {
	srv := newServer(t)
	sr := srEmbedded(t, srv)
	id := sr["signature_request_id"].(string)
	assert.Nil(t, sr["signing_url"], "embedded requests have no signing_url")

	r := srSignURL(t, srv, srSigID(sr, 0))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	emb := r.Map()["embedded"].(map[string]any)
	signURL := emb["sign_url"].(string)
	assert.True(t, strings.HasPrefix(signURL, srv.URL+"/_sandbox/w/"), signURL)
	assert.EqualValues(t, srv.Now().Add(time.Hour).Unix(), emb["expires_at"])

	// Still processing: the page shows the request but cannot sign yet.
	status, page := fetchPage(t, http.MethodGet, signURL, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "still being processed")

	srv.Advance(2 * time.Second)
	assert.Empty(t, srv.Emails("signature_request_id", id), "embedded signers get no e-mails")
	srErr(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusBadRequest, "invalid_reminder", "")

	status, page = fetchPage(t, http.MethodGet, signURL, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "Sign as Jack")
	status, page = fetchPage(t, http.MethodPost, signURL, url.Values{"action": {"sign"}})
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "hellosign:userSignRequest")
	assert.Equal(t, []string{"signed", "awaiting_signature"}, srStatuses(srGetOK(t, srv, id)))
	assert.Equal(t, []string{"signature_request_sent", "signature_request_viewed", "signature_request_signed"}, srEvents(srv, id))
	ev := srv.Callbacks(sandboxtest.ObjectID(id))[0]
	assert.Equal(t, srClientID, ev.ClientID, "events go to the request's app too")

	// A signed signature gets no new URL.
	srErr(t, srSignURL(t, srv, srSigID(sr, 0)), http.StatusConflict, "conflict", "")

	// Jill's URL expires after an hour.
	r = srSignURL(t, srv, srSigID(sr, 1))
	require.Equal(t, http.StatusOK, r.Status)
	jill := r.Map()["embedded"].(map[string]any)["sign_url"].(string)
	srv.Advance(time.Hour)
	status, _ = fetchPage(t, http.MethodGet, jill, nil)
	assert.Equal(t, http.StatusGone, status)
	assert.Contains(t, srEvents(srv, id), "sign_url_invalid")

	// A fresh URL declines.
	r = srSignURL(t, srv, srSigID(sr, 1))
	jill = r.Map()["embedded"].(map[string]any)["sign_url"].(string)
	status, page = fetchPage(t, http.MethodPost, jill, url.Values{"action": {"decline"}, "reason": {"Not me"}})
	require.Equal(t, http.StatusOK, status, page)
	got := srGetOK(t, srv, id)
	assert.Equal(t, true, got["is_declined"])
	assert.Equal(t, "Not me", srSigs(got)[1]["decline_reason"])
}

func TestEmbeddedSignURLErrors(t *testing.T) {
	srv := newServer(t)
	sr := srSend(t, srv, srTwoSigners())
	srErr(t, srSignURL(t, srv, srSigID(sr, 0)), http.StatusBadRequest, "bad_request", "signature_id")
	srErr(t, srSignURL(t, srv, "ffffffffffffffffffffffffffffffff"), http.StatusNotFound, "not_found", "")
	emb := srEmbedded(t, srv)
	srErr(t, srv.DoAs(srOutsiderKey, http.MethodGet, "/v3/embedded/sign_url/"+srSigID(emb, 0), nil), http.StatusNotFound, "not_found", "")
	srErr(t, srv.DoAs(srOutsiderKey, http.MethodPut, "/v3/signature_request/edit_embedded/"+emb["signature_request_id"].(string), map[string]any{}), http.StatusNotFound, "not_found", "")
	status, _ := fetchPage(t, http.MethodGet, srv.URL+"/_sandbox/w/default/sign/nope", nil)
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = fetchPage(t, http.MethodGet, srv.URL+"/_sandbox/w/nowhere/sign/nope", nil)
	assert.Equal(t, http.StatusNotFound, status)
}

// TestEmailLinksSign: the link of a signing e-mail opens the signing page
// of a non-embedded request; the details page shows the request.
func TestEmailLinksSign(t *testing.T) {
	srv := newServer(t)
	sr := srSend(t, srv, srTwoSigners())
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	mail := srv.Emails("signature_request_id", id)[0]
	status, page := fetchPage(t, http.MethodPost, mail.Link, url.Values{"action": {"sign"}})
	require.Equal(t, http.StatusOK, status, page)
	assert.Equal(t, []string{"signed", "awaiting_signature"}, srStatuses(srGetOK(t, srv, id)))
	status, page = fetchPage(t, http.MethodGet, srGetOK(t, srv, id)["details_url"].(string), nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "jill@example.com")
}
