package sigreq_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// The hold of an unconfirmed account (internal/sigreq/hold.go): an account
// made with account/create sends before confirming its e-mail address; its
// requests answer the official unconfirmed warning and stay on hold until
// the account is confirmed.

const msgUnconfirmedWarning = "This SignatureRequest will be placed on hold until the user confirms their email address."

// unconfirmedUser is an account created through the fixture app
// (account/create with its client credentials): its OAuth token acts for
// it at once, and it has not confirmed its e-mail address.
type unconfirmedUser struct {
	srv       *sandboxtest.Server
	AccountID string
	token     apitest.TokenResponse
	expires   time.Time
}

func newUnconfirmedUser(t *testing.T, srv *sandboxtest.Server, email string) *unconfirmedUser {
	t.Helper()
	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{
		"email_address": email, "client_id": apitest.ClientID, "client_secret": apitest.ClientSecret(t, srv)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Account struct {
			AccountID string `json:"account_id"`
		} `json:"account"`
		OAuthData apitest.TokenResponse `json:"oauth_data"`
	}
	require.NoError(t, r.JSON(&out))
	return &unconfirmedUser{srv: srv, AccountID: out.Account.AccountID, token: out.OAuthData,
		expires: srv.Now().Add(time.Duration(out.OAuthData.ExpiresIn) * time.Second)}
}

// bearer is the user's access token, refreshed when the world clock has
// passed its hour.
func (u *unconfirmedUser) bearer(t *testing.T) string {
	t.Helper()
	if now := u.srv.Now(); !now.Before(u.expires) {
		r := u.srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": u.token.RefreshToken})
		u.token = apitest.DecodeToken(t, r)
		u.expires = now.Add(time.Duration(u.token.ExpiresIn) * time.Second)
	}
	return u.token.AccessToken
}

// send sends a request as the user (multipart with a 1-page PDF, as the
// SDKs do) and answers the response.
func (u *unconfirmedUser) send(t *testing.T, fields map[string]any) *sandboxtest.Response {
	t.Helper()
	req := apitest.MultipartRequest(t, u.srv, http.MethodPost, "/v3/signature_request/send", fields, apitest.File{Name: "nda.pdf", Data: apitest.PDF(1)})
	req.Header.Set("Authorization", "Bearer "+u.bearer(t))
	return u.srv.Send(req)
}

func (u *unconfirmedUser) do(t *testing.T, method, path, body string) *sandboxtest.Response {
	t.Helper()
	return apitest.Bearer(t, u.srv, u.bearer(t), method, path, body)
}

func (u *unconfirmedUser) get(t *testing.T, id string) map[string]any {
	t.Helper()
	r := u.do(t, http.MethodGet, "/v3/signature_request/"+id, "")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)
}

func (u *unconfirmedUser) confirm(t *testing.T) {
	t.Helper()
	u.srv.Control(http.MethodPost, "/accounts/"+u.AccountID+"/confirm", nil, nil)
}

// unorderedSigners is a send body with two signers, each with a signature
// field (so no signature page is appended, and signers can be updated).
func unorderedSigners() map[string]any {
	body := apitest.TwoSigners()
	body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}}
	body["form_fields_per_document"] = []map[string]any{
		{"document_index": 0, "api_id": "sig1", "name": "Signature", "type": "signature", "x": 100, "y": 200, "width": 200, "height": 40, "required": true, "signer": "0", "page": 1},
		{"document_index": 0, "api_id": "sig2", "name": "Signature", "type": "signature", "x": 100, "y": 300, "width": 200, "height": 40, "required": true, "signer": "1", "page": 1},
	}
	return body
}

// TestUnconfirmedAccountRequestsAreHeldUntilConfirmed: the send answers the
// unconfirmed warning; once processed the request is on hold (signatures
// on_hold, nothing e-mailed, no event, signers, reminders and release_hold
// refused, no automatic reminders); confirming the account sends it
// (signature_request_sent after account_confirmed, the signing e-mails)
// and from then on it is like any other request.
func TestUnconfirmedAccountRequestsAreHeldUntilConfirmed(t *testing.T) {
	srv := apitest.NewServer(t)
	u := newUnconfirmedUser(t, srv, "new.user@example.com")

	r := u.send(t, unorderedSigners())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var sent struct {
		SignatureRequest map[string]any `json:"signature_request"`
		Warnings         []struct {
			WarningMsg  string `json:"warning_msg"`
			WarningName string `json:"warning_name"`
		} `json:"warnings"`
	}
	require.NoError(t, r.JSON(&sent))
	require.Len(t, sent.Warnings, 1)
	assert.Equal(t, "unconfirmed", sent.Warnings[0].WarningName)
	assert.Equal(t, msgUnconfirmedWarning, sent.Warnings[0].WarningMsg)
	sr := sent.SignatureRequest
	id := sr["signature_request_id"].(string)
	assert.Equal(t, "new.user@example.com", sr["requester_email_address"])

	srv.Advance(2 * time.Second)
	held := u.get(t, id)
	assert.Equal(t, []string{"on_hold", "on_hold"}, apitest.Statuses(held))
	assert.Equal(t, false, held["is_complete"])
	assert.Equal(t, false, held["has_error"])
	assert.Equal(t, false, held["is_declined"])
	assert.Empty(t, apitest.EventTypes(srv, id), "held: no signature_request_sent")
	assert.Empty(t, srv.Emails("signature_request_id", id), "held: nobody is e-mailed")

	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil), http.StatusConflict, "conflict", "")
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "view", nil), http.StatusConflict, "conflict", "")
	apitest.WantError(t, u.do(t, http.MethodPost, "/v3/signature_request/remind/"+id, `{"email_address":"jack@example.com"}`), http.StatusBadRequest, "invalid_reminder", "")
	apitest.WantError(t, u.do(t, http.MethodPost, "/v3/signature_request/release_hold/"+id, ""), http.StatusBadRequest, "bad_request", "signature_request_id")
	assert.Zero(t, ranKinds(srv.Advance(10*day), jobAutoRemind), "no automatic reminders while held")

	u.confirm(t)
	confirmedAt := srv.Now()
	var types []string
	for _, c := range srv.Callbacks() {
		if c.ObjectID == id || c.ObjectID == u.AccountID {
			types = append(types, c.EventType)
		}
	}
	assert.Equal(t, []string{"account_confirmed", "signature_request_sent"}, types)
	got := u.get(t, id)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(got))
	var to []string
	for _, e := range srv.Emails("kind", "signature_request", "signature_request_id", id) {
		to = append(to, e.To)
		assert.Equal(t, confirmedAt.Unix(), e.SentAt)
	}
	assert.Equal(t, []string{"jack@example.com", "jill@example.com"}, to)

	srv.Sign(apitest.SignatureID(sr, 0), nil)
	srv.Advance(3 * day)
	assert.Equal(t, []string{"jill@example.com@" + strconv.Itoa(int(confirmedAt.Add(3*day).Unix()))}, reminders(srv, id),
		"automatic reminders count from the confirmation, when the request went out")

	// Confirmed now: the next request goes out as any other.
	r = u.send(t, unorderedSigners())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.NotContains(t, string(r.Body), "warnings")
	next := r.Map()["signature_request"].(map[string]any)
	srv.Advance(2 * time.Second)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(u.get(t, next["signature_request_id"].(string))))
}

// TestUnconfirmedAccountHoldWithOtherMoves: a request confirmed while it
// is still processing is sent as usual; a held request can be canceled
// (no signer is told: nobody was asked), expires at expires_at, and takes
// signer updates without e-mailing anyone; the confirmation sends only the
// requests still held, oldest first.
func TestUnconfirmedAccountHoldWithOtherMoves(t *testing.T) {
	srv := apitest.NewServer(t)
	u := newUnconfirmedUser(t, srv, "busy.user@example.com")
	send := func(body map[string]any) map[string]any {
		t.Helper()
		r := u.send(t, body)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Contains(t, string(r.Body), `"warning_name":"unconfirmed"`)
		return r.Map()["signature_request"].(map[string]any)
	}
	idOf := func(sr map[string]any) string { return sr["signature_request_id"].(string) }

	canceled := send(unorderedSigners())
	expiring := unorderedSigners()
	expiring["expires_at"] = srv.Now().Add(25 * time.Hour).Unix()
	expires := send(expiring)
	updated := send(unorderedSigners())
	kept := send(unorderedSigners())
	srv.Advance(2 * time.Second)

	r := u.do(t, http.MethodPost, "/v3/signature_request/cancel/"+idOf(canceled), "")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = u.do(t, http.MethodPost, "/v3/signature_request/update/"+idOf(updated), `{"signature_id":"`+apitest.SignatureID(updated, 0)+`","email_address":"jacques@example.com"}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(26 * time.Hour)

	assert.Equal(t, []string{"signature_request_canceled"}, apitest.EventTypes(srv, idOf(canceled)))
	assert.Equal(t, http.StatusGone, u.do(t, http.MethodGet, "/v3/signature_request/"+idOf(canceled), "").Status)
	assert.Equal(t, []string{"signature_request_expired"}, apitest.EventTypes(srv, idOf(expires)))
	assert.Equal(t, []string{"expired", "expired"}, apitest.Statuses(u.get(t, idOf(expires))))
	for _, sr := range []map[string]any{canceled, expires, updated, kept} {
		assert.Empty(t, srv.Emails("signature_request_id", idOf(sr)), "nobody was e-mailed about a held request")
	}

	late := send(unorderedSigners()) // still processing when the account is confirmed
	u.confirm(t)
	srv.Advance(2 * time.Second)
	assert.Equal(t, []string{"signature_request_canceled"}, apitest.EventTypes(srv, idOf(canceled)), "a canceled request stays canceled")
	assert.Equal(t, []string{"signature_request_expired"}, apitest.EventTypes(srv, idOf(expires)), "an expired request stays expired")
	for _, sr := range []map[string]any{updated, kept, late} {
		assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, idOf(sr)))
		assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(u.get(t, idOf(sr))))
	}
	var to []string
	for _, e := range srv.Emails("kind", "signature_request", "signature_request_id", idOf(updated)) {
		to = append(to, e.To)
	}
	assert.Equal(t, []string{"jacques@example.com", "jill@example.com"}, to, "the updated signer is asked at the new address")

	var order []string
	for _, c := range srv.Callbacks(sandboxtest.EventType("signature_request_sent")) {
		order = append(order, c.ObjectID)
	}
	assert.Equal(t, []string{idOf(updated), idOf(kept), idOf(late)}, order, "held requests are sent oldest first, then the one processed after")
}

// TestUnconfirmedAccountBulkSendIsHeld: a bulk send by an unconfirmed
// account answers the warning too, and its requests are held until the
// confirmation like any other.
func TestUnconfirmedAccountBulkSendIsHeld(t *testing.T) {
	srv := apitest.NewServer(t)
	u := newUnconfirmedUser(t, srv, "bulk.user@example.com")
	tpl := apitest.BulkTemplateBody()
	tpl["test_mode"] = true
	req := apitest.MultipartRequest(t, srv, http.MethodPost, "/v3/template/create", tpl, apitest.File{Name: "po.pdf", Data: apitest.PDF(1)})
	req.Header.Set("Authorization", "Bearer "+u.bearer(t))
	r := srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	tid := r.Map()["template"].(map[string]any)["template_id"].(string)
	srv.Advance(apitest.TemplatePrepDelay)

	body := apitest.BulkBody(tid)
	body["test_mode"] = true
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	r = u.do(t, http.MethodPost, "/v3/signature_request/bulk_send_with_template", string(raw))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"warnings":[{"warning_msg":"`+msgUnconfirmedWarning+`","warning_name":"unconfirmed"}]`)
	jobID := r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"].(string)
	srv.Advance(10 * time.Second)

	requests := func() []map[string]any {
		r := u.do(t, http.MethodGet, "/v3/bulk_send_job/"+jobID, "")
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var out []map[string]any
		for _, sr := range r.Map()["signature_requests"].([]any) {
			out = append(out, sr.(map[string]any))
		}
		require.Len(t, out, 2)
		return out
	}
	for _, sr := range requests() {
		assert.Equal(t, []string{"on_hold"}, apitest.Statuses(sr))
	}
	assert.Empty(t, srv.Emails("kind", "signature_request"))
	u.confirm(t)
	for _, sr := range requests() {
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(sr))
	}
	assert.Len(t, srv.Emails("kind", "signature_request"), 2)
}
