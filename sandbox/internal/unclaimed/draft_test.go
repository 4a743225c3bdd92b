package unclaimed_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestUnclaimedDraftClaimURLLifecycle: a request_signature draft answers
// the official UnclaimedDraftResponse; its request does not exist until the
// draft is sent; the claim URL is a page of the sandbox that claims the
// draft on first access and answers 404 afterwards; sending from the page
// creates the request under the draft's signature_request_id, which is then
// processed and sent like any other.
func TestUnclaimedDraftClaimURLLifecycle(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create", apitest.DraftBody())
	id := d["signature_request_id"].(string)
	require.Len(t, id, 40)
	assert.Equal(t, true, d["test_mode"])
	assert.Nil(t, d["signing_redirect_url"])
	assert.NotContains(t, d, "requesting_redirect_url", "create has no requesting_redirect_url: the key is not applicable")
	assert.Equal(t, float64(srv.Now().Add(time.Hour).Unix()), d["expires_at"], "claim URLs live for the world's claim_url_ttl (1 hour)")
	claim := d["claim_url"].(string)

	apitest.WantError(t, apitest.GetRequest(t, srv, srv.APIKey, id), http.StatusNotFound, "not_found", "")

	page := apitest.OpenClaim(t, srv, claim)
	require.Equal(t, http.StatusOK, page.Status, "%s", page.Body)
	assert.Contains(t, page.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, string(page.Body), "jack@example.com")

	again := apitest.OpenClaim(t, srv, claim)
	assert.Equal(t, http.StatusNotFound, again.Status, "a claim URL is single-use")

	sent := apitest.SubmitClaim(t, srv, claim, url.Values{"signer_name": {"Jack", ""}, "signer_email": {"jack@example.com", ""}})
	require.Equal(t, http.StatusOK, sent.Status, "%s", sent.Body)
	assert.Contains(t, string(sent.Body), "hellosign:userSendRequest")

	sr := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, "Lease", sr["subject"])
	assert.Equal(t, "owner@sandbox.example", sr["requester_email_address"])
	assert.Equal(t, map[string]any{"ref": "L-7"}, sr["metadata"])
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(sr))
	assert.Empty(t, apitest.EventTypes(srv, id))

	srv.Advance(apitest.SendProcessDelay)
	assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, id))
	mails := srv.Emails("signature_request_id", id, "kind", "signature_request")
	require.Len(t, mails, 1)
	assert.Equal(t, "jack@example.com", mails[0].To)

	// Sent: the page and the control plane refuse it.
	assert.Equal(t, http.StatusNotFound, apitest.SubmitClaim(t, srv, claim, url.Values{}).Status)
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, nil), http.StatusConflict, "conflict", "")
}

// TestUnclaimedDraftClaimURLExpires: an unclaimed claim URL stops working
// at expires_at on the world clock (404); the control plane says 410.
func TestUnclaimedDraftClaimURLExpires(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create", apitest.DraftBody())
	srv.Advance(59 * time.Minute)
	d2 := apitest.Draft(t, srv, "create", apitest.DraftBody())
	srv.Advance(time.Minute)

	assert.Equal(t, http.StatusNotFound, apitest.OpenClaim(t, srv, d["claim_url"].(string)).Status)
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, d["signature_request_id"].(string), nil), http.StatusGone, "deleted", "")
	assert.Equal(t, http.StatusOK, apitest.OpenClaim(t, srv, d2["claim_url"].(string)).Status, "the later draft is still valid")

	// Claimed before expiry, a draft can still be sent afterwards.
	srv.Advance(2 * time.Hour)
	sr := srv.ClaimDraft(d2["signature_request_id"].(string), nil)
	assert.Equal(t, d2["signature_request_id"], sr["signature_request_id"])
}

// TestUnclaimedDraftWithoutSigners: request_signature drafts may leave the
// signers to the user (the official form fields example names signers 0
// and 1 without giving any); the claim must then give enough of them.
func TestUnclaimedDraftWithoutSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	body := map[string]any{
		"type": "request_signature", "test_mode": true,
		"form_fields_per_document": []map[string]any{
			{"document_index": 0, "api_id": "f1", "name": "", "type": "text", "x": 112, "y": 328, "width": 100, "height": 16, "required": true, "signer": 1, "page": 1},
			{"document_index": 0, "api_id": "f2", "name": "", "type": "signature", "x": 530, "y": 415, "width": 120, "height": 30, "required": true, "signer": 0, "page": 1},
		},
	}
	d := apitest.Draft(t, srv, "create", body)
	id := d["signature_request_id"].(string)

	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, nil), http.StatusBadRequest, "bad_request", "signers")
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, map[string]any{"signers": []map[string]any{{"name": "A", "email_address": "a@example.com"}}}),
		http.StatusBadRequest, "bad_request", "signers")
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, map[string]any{"signers": []map[string]any{{"name": "A"}}}),
		http.StatusBadRequest, "bad_request", "signers[0][email_address]")

	sr := srv.ClaimDraft(id, map[string]any{"signers": []map[string]any{
		{"name": "A", "email_address": "a@example.com"}, {"name": "B", "email_address": "b@example.com"},
	}})
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(sr))
	assert.Equal(t, "b@example.com", apitest.Signatures(sr)[1]["signer_email_address"])
	srv.Advance(apitest.SendProcessDelay)
	assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, id))
}

// TestUnclaimedDraftSendDocument: the requester signs a send_document
// draft alone; the signature is recorded once the request is processed,
// with the events of a completed request and no signing e-mail.
func TestUnclaimedDraftSendDocument(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create", map[string]any{"type": "send_document", "test_mode": true})
	id := d["signature_request_id"].(string)
	page := apitest.OpenClaim(t, srv, d["claim_url"].(string))
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, string(page.Body), ">Sign<")
	signed := apitest.SubmitClaim(t, srv, d["claim_url"].(string), url.Values{})
	require.Equal(t, http.StatusOK, signed.Status, "%s", signed.Body)
	assert.Contains(t, string(signed.Body), "hellosign:userSignRequest")

	sr := apitest.GetRequestOK(t, srv, id)
	require.Len(t, apitest.Signatures(sr), 1)
	assert.Equal(t, "owner@sandbox.example", apitest.Signatures(sr)[0]["signer_email_address"])
	assert.Equal(t, "Sandbox Owner", apitest.Signatures(sr)[0]["signer_name"])

	srv.Advance(apitest.SendProcessDelay)
	sr = apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, sr["is_complete"])
	assert.Equal(t, []string{"signature_request_sent", "signature_request_signed", "signature_request_all_signed"}, apitest.EventTypes(srv, id))
	assert.Empty(t, srv.Emails("signature_request_id", id, "kind", "signature_request"))
	srv.Advance(5 * time.Second)
	assert.Contains(t, apitest.EventTypes(srv, id), "signature_request_downloadable")
}

// TestUnclaimedDraftEmbeddedHoldAndRelease: an embedded draft with
// hold_request is held after sending (on_hold_by_requester,
// signature_request_prepared, no e-mail) until release_hold sends it.
func TestUnclaimedDraftEmbeddedHoldAndRelease(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.EmbeddedDraftBody()
	body["hold_request"] = true
	body["requesting_redirect_url"] = "https://example.com/requested"
	d := apitest.Draft(t, srv, "create_embedded", body)
	id := d["signature_request_id"].(string)
	assert.Equal(t, "https://example.com/requested", d["requesting_redirect_url"])
	assert.True(t, strings.HasPrefix(d["claim_url"].(string), srv.URL+"/_sandbox/w/"))

	sr := srv.ClaimDraft(id, nil)
	assert.Equal(t, "requester@example.com", sr["requester_email_address"])
	srv.Advance(apitest.SendProcessDelay)
	sr = apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, []string{"on_hold_by_requester"}, apitest.Statuses(sr))
	assert.Equal(t, []string{"signature_request_prepared"}, apitest.EventTypes(srv, id))
	assert.Empty(t, srv.Emails("signature_request_id", id))

	r := srv.Do(http.MethodPost, "/v3/signature_request/release_hold/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(r.Map()["signature_request"].(map[string]any)))
	assert.Equal(t, []string{"signature_request_prepared", "signature_request_sent"}, apitest.EventTypes(srv, id))
	mails := srv.Emails("signature_request_id", id, "kind", "signature_request")
	require.Len(t, mails, 1)
	assert.Equal(t, "jill@example.com", mails[0].To)

	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/release_hold/"+id, nil), http.StatusBadRequest, "bad_request", "signature_request_id")
}

// TestUnclaimedDraftEmbeddedPageUnchangedSigners: sending the page's form
// back unchanged is not an edit of the signers, so drafts that forbid
// editing them are sent.
func TestUnclaimedDraftEmbeddedPageUnchangedSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
	claim := d["claim_url"].(string)
	require.Equal(t, http.StatusOK, apitest.OpenClaim(t, srv, claim).Status)
	r := apitest.SubmitClaim(t, srv, claim, url.Values{"signer_name": {"Jill", "", ""}, "signer_email": {"jill@example.com", "", ""}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	changed := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
	require.Equal(t, http.StatusOK, apitest.OpenClaim(t, srv, changed["claim_url"].(string)).Status)
	r = apitest.SubmitClaim(t, srv, changed["claim_url"].(string), url.Values{"signer_name": {"Bob"}, "signer_email": {"bob@example.com"}})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, string(r.Body), "allow_edit_signers")
}
