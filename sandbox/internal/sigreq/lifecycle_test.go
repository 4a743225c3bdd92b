package sigreq_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestSignatureRequestHappyPath: sent, viewed, signed by two ordered
// signers, completed, files downloadable after the preparation delay, with
// the events and e-mails of the real service in order.
func TestSignatureRequestHappyPath(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	require.Len(t, id, 40)
	assert.Equal(t, "NDA with Acme Co.", sr["title"])
	assert.Equal(t, "The NDA we talked about", sr["original_title"])
	assert.Equal(t, map[string]any{"custom_id": "1234", "custom_text": "NDA #9"}, sr["metadata"])
	assert.Equal(t, false, sr["is_complete"])
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	assert.Len(t, apitest.SignatureID(sr, 0), 32)
	assert.Empty(t, srv.Emails("signature_request_id", id), "nothing is sent while processing")

	// Processing: nothing may act yet.
	r := srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil)
	apitest.WantError(t, r, http.StatusConflict, "conflict", "")

	srv.Advance(2 * time.Second)
	assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, id))
	mails := srv.Emails("signature_request_id", id)
	require.Len(t, mails, 1, "ordered: only the first signer is asked")
	assert.Equal(t, "jack@example.com", mails[0].To)
	assert.Equal(t, "signature_request", mails[0].Kind)
	assert.NotEmpty(t, mails[0].Link)

	// Jill may not act before Jack.
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 1), "sign", nil), http.StatusConflict, "conflict", "")

	srv.View(apitest.SignatureID(sr, 0))
	after := srv.Sign(apitest.SignatureID(sr, 0), nil)
	assert.Equal(t, []any{"signed", "awaiting_signature"}, []any{apitest.Signatures(after)[0]["status_code"], apitest.Signatures(after)[1]["status_code"]})
	mails = srv.Emails("signature_request_id", id, "kind", "signature_request")
	require.Len(t, mails, 2)
	assert.Equal(t, "jill@example.com", mails[1].To)

	// Signing twice is refused.
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil), http.StatusConflict, "conflict", "")

	srv.Sign(apitest.SignatureID(sr, 1), nil)
	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, got["is_complete"])
	assert.Equal(t, []string{"signed", "signed"}, apitest.Statuses(got))
	assert.NotNil(t, apitest.Signatures(got)[0]["signed_at"])
	assert.NotNil(t, apitest.Signatures(got)[0]["last_viewed_at"])

	assert.Equal(t, []string{
		"signature_request_sent", "signature_request_viewed", "signature_request_signed",
		"signature_request_signed", "signature_request_all_signed",
	}, apitest.EventTypes(srv, id))
	completed := srv.Emails("signature_request_id", id, "kind", "completed")
	var to []string
	for _, m := range completed {
		to = append(to, m.To)
	}
	assert.Equal(t, []string{"owner@sandbox.example", "jack@example.com", "jill@example.com", "lawyer@example.com"}, to)

	// The final copy is being prepared: downloads answer 409 until the
	// preparation delay has passed, then signature_request_downloadable.
	apitest.WantError(t, srv.Do(http.MethodGet, "/v3/signature_request/files/"+id, nil), http.StatusConflict, "conflict", "")
	srv.Advance(5 * time.Second)
	assert.Equal(t, "signature_request_downloadable", apitest.EventTypes(srv, id)[5])
	f := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id, nil)
	assert.Equal(t, http.StatusOK, f.Status, "%.300s", f.Body)
	assert.Equal(t, "application/pdf", f.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(string(f.Body), "%PDF"))
	uri := srv.Do(http.MethodGet, "/v3/signature_request/files_as_data_uri/"+id, nil)
	assert.Equal(t, http.StatusOK, uri.Status, "%.300s", uri.Body)
}

// TestCancelThenGoneEverywhere: cancel is queued, completes after the
// cancel delay with signature_request_canceled, and then every access
// answers 410.
func TestCancelThenGoneEverywhere(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)

	r := srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	// Queued: still readable, signers can no longer act, a second cancel
	// conflicts.
	assert.Equal(t, http.StatusOK, apitest.GetRequest(t, srv, srv.APIKey, id).Status)
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil), http.StatusGone, "deleted", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+id, nil), http.StatusConflict, "conflict", "")

	srv.Advance(30 * time.Second)
	assert.Equal(t, "signature_request_canceled", apitest.EventTypes(srv, id)[1])
	canceled := srv.Emails("signature_request_id", id, "kind", "canceled")
	require.Len(t, canceled, 1)
	assert.Equal(t, "jack@example.com", canceled[0].To)

	gone := []struct{ method, path string }{
		{http.MethodGet, "/v3/signature_request/" + id},
		{http.MethodGet, "/v3/signature_request/files/" + id},
		{http.MethodGet, "/v3/signature_request/files_as_data_uri/" + id},
		{http.MethodGet, "/v3/signature_request/files_as_file_url/" + id},
		{http.MethodPost, "/v3/signature_request/cancel/" + id},
		{http.MethodPost, "/v3/signature_request/remove/" + id},
		{http.MethodPost, "/v3/signature_request/release_hold/" + id},
	}
	for _, g := range gone {
		t.Run(g.path, func(t *testing.T) {
			apitest.WantError(t, srv.Do(g.method, g.path, nil), http.StatusGone, "deleted", "")
		})
	}
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusGone, "deleted", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/update/"+id, map[string]any{"signature_id": apitest.SignatureID(sr, 0), "name": "X"}), http.StatusGone, "deleted", "")
	for _, action := range []string{"view", "sign", "decline"} {
		apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), action, nil), http.StatusGone, "deleted", "")
	}
	list := srv.Do(http.MethodGet, "/v3/signature_request/list", nil)
	require.Equal(t, http.StatusOK, list.Status)
	assert.EqualValues(t, 0, list.Map()["list_info"].(map[string]any)["num_results"], "a canceled request leaves the list")
}

// TestRemindersWithinTheHour: a reminder inside the hour after the last one
// is refused; after the clock moves an hour it is accepted.
func TestRemindersWithinTheHour(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	delete(body, "cc_email_addresses")
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	remind := func() *sandboxtest.Response {
		return srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"})
	}
	r := remind()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.NotNil(t, apitest.Signatures(r.Map()["signature_request"].(map[string]any))[0]["last_reminded_at"])

	srv.Advance(59 * time.Minute)
	apitest.WantError(t, remind(), http.StatusBadRequest, "invalid_reminder", "")
	srv.Advance(time.Minute)
	require.Equal(t, http.StatusOK, remind().Status)

	assert.Len(t, srv.Emails("signature_request_id", id, "kind", "reminder"), 2)
	assert.Equal(t, []string{"signature_request_sent", "signature_request_remind", "signature_request_remind"}, apitest.EventTypes(srv, id))

	// Not the signer's turn yet, and unknown addresses.
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jill@example.com"}), http.StatusBadRequest, "invalid_reminder", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "nobody@example.com"}), http.StatusBadRequest, "bad_request", "email_address")

	// Signed signers cannot be reminded.
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusBadRequest, "invalid_reminder", "")
}
