package sigreq_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestEmbeddedSigning: embedded requests get no e-mails or reminders; sign
// URLs are served by the sandbox, act as the signer and expire on the
// world clock.
func TestEmbeddedSigning(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.CreateEmbeddedRequest(t, srv)
	id := sr["signature_request_id"].(string)
	assert.Nil(t, sr["signing_url"], "embedded requests have no signing_url")

	r := apitest.SignURL(t, srv, apitest.SignatureID(sr, 0))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	emb := r.Map()["embedded"].(map[string]any)
	signURL := emb["sign_url"].(string)
	assert.True(t, strings.HasPrefix(signURL, srv.URL+"/_sandbox/w/"), signURL)
	assert.EqualValues(t, srv.Now().Add(time.Hour).Unix(), emb["expires_at"])

	// Still processing: the page shows the request but cannot sign yet.
	status, page := apitest.FetchPage(t, http.MethodGet, signURL, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "still being processed")

	srv.Advance(2 * time.Second)
	assert.Empty(t, srv.Emails("signature_request_id", id), "embedded signers get no e-mails")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusBadRequest, "invalid_reminder", "")

	status, page = apitest.FetchPage(t, http.MethodGet, signURL, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "Sign as Jack")
	status, page = apitest.FetchPage(t, http.MethodPost, signURL, url.Values{"action": {"sign"}})
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "hellosign:userSignRequest")
	assert.Equal(t, []string{"signed", "awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	assert.Equal(t, []string{"signature_request_sent", "signature_request_viewed", "signature_request_signed"}, apitest.EventTypes(srv, id))
	ev := srv.Callbacks(sandboxtest.ObjectID(id))[0]
	assert.Equal(t, apitest.ClientID, ev.ClientID, "events go to the request's app too")

	// A signed signature gets no new URL.
	apitest.WantError(t, apitest.SignURL(t, srv, apitest.SignatureID(sr, 0)), http.StatusConflict, "conflict", "")

	// Jill's URL expires after an hour.
	r = apitest.SignURL(t, srv, apitest.SignatureID(sr, 1))
	require.Equal(t, http.StatusOK, r.Status)
	jill := r.Map()["embedded"].(map[string]any)["sign_url"].(string)
	srv.Advance(time.Hour)
	status, _ = apitest.FetchPage(t, http.MethodGet, jill, nil)
	assert.Equal(t, http.StatusGone, status)
	assert.Contains(t, apitest.EventTypes(srv, id), "sign_url_invalid")

	// A fresh URL declines.
	r = apitest.SignURL(t, srv, apitest.SignatureID(sr, 1))
	jill = r.Map()["embedded"].(map[string]any)["sign_url"].(string)
	status, page = apitest.FetchPage(t, http.MethodPost, jill, url.Values{"action": {"decline"}, "reason": {"Not me"}})
	require.Equal(t, http.StatusOK, status, page)
	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, got["is_declined"])
	assert.Equal(t, "Not me", apitest.Signatures(got)[1]["decline_reason"])
}

func TestEmbeddedSignURLErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	apitest.WantError(t, apitest.SignURL(t, srv, apitest.SignatureID(sr, 0)), http.StatusBadRequest, "bad_request", "signature_id")
	apitest.WantError(t, apitest.SignURL(t, srv, "ffffffffffffffffffffffffffffffff"), http.StatusNotFound, "not_found", "")
	emb := apitest.CreateEmbeddedRequest(t, srv)
	apitest.WantError(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/embedded/sign_url/"+apitest.SignatureID(emb, 0), nil), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(apitest.OutsiderKey, http.MethodPut, "/v3/signature_request/edit_embedded/"+emb["signature_request_id"].(string), map[string]any{}), http.StatusNotFound, "not_found", "")
	status, _ := apitest.FetchPage(t, http.MethodGet, srv.URL+"/_sandbox/w/default/sign/nope", nil)
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = apitest.FetchPage(t, http.MethodGet, srv.URL+"/_sandbox/w/nowhere/sign/nope", nil)
	assert.Equal(t, http.StatusNotFound, status)
}

// TestEmailLinksSign: the link of a signing e-mail opens the signing page
// of a non-embedded request; the details page shows the request.
func TestEmailLinksSign(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	mail := srv.Emails("signature_request_id", id)[0]
	status, page := apitest.FetchPage(t, http.MethodPost, mail.Link, url.Values{"action": {"sign"}})
	require.Equal(t, http.StatusOK, status, page)
	assert.Equal(t, []string{"signed", "awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	status, page = apitest.FetchPage(t, http.MethodGet, apitest.GetRequestOK(t, srv, id)["details_url"].(string), nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "jill@example.com")
}
