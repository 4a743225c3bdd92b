package unclaimed_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// udTemplateBody is the official create_embedded_with_template example for
// a template id.
func udTemplateBody(tid string) map[string]any {
	return map[string]any{
		"client_id":               apitest.ClientID,
		"template_ids":            []string{tid},
		"requester_email_address": "jack@dropboxsign.com",
		"signers":                 []map[string]any{{"role": "Client", "name": "George", "email_address": "george@example.com"}},
		"ccs":                     []map[string]any{{"role": "Accounting", "email_address": "accounting@dropboxsign.com"}},
		"test_mode":               false,
	}
}

// TestUnclaimedDraftEmbeddedWithTemplate: the official example makes a
// draft whose request has the template's documents, role, CC and texts.
func TestUnclaimedDraftEmbeddedWithTemplate(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded_with_template", udTemplateBody(tid))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	d := r.Map()["unclaimed_draft"].(map[string]any)
	assert.Equal(t, false, d["test_mode"])
	assert.Contains(t, d, "requesting_redirect_url")
	id := d["signature_request_id"].(string)

	var v map[string]any
	srv.Control(http.MethodGet, "/unclaimed_drafts/"+id, nil, &v)
	assert.Equal(t, []any{"Client"}, v["signer_roles"])
	assert.Equal(t, []any{"Accounting"}, v["cc_roles"])
	assert.Equal(t, "unclaimed", v["status"])

	sr := srv.ClaimDraft(id, nil)
	assert.Equal(t, "Purchase Order", sr["title"])
	assert.Equal(t, []any{tid}, sr["template_ids"])
	assert.Equal(t, []any{"accounting@dropboxsign.com"}, sr["cc_email_addresses"])
	assert.Equal(t, "jack@dropboxsign.com", sr["requester_email_address"])
	assert.Equal(t, "Client", apitest.Signatures(sr)[0]["signer_role"])
	srv.Advance(apitest.SendProcessDelay)
	assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, id))
}

// TestUnclaimedDraftTemplateRolesLeftOpen: a template draft may leave roles
// and CC roles to the user, who fills them by role when claiming.
func TestUnclaimedDraftTemplateRolesLeftOpen(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := udTemplateBody(tid)
	delete(body, "signers")
	delete(body, "ccs")
	body["test_mode"] = true
	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded_with_template", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)

	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, nil), http.StatusBadRequest, "bad_request", "signers")
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, map[string]any{"signers": []map[string]any{{"role": "client", "name": "G", "email_address": "g@example.com"}}}),
		http.StatusBadRequest, "bad_request", "signers[0][role]")
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, map[string]any{
		"signers": []map[string]any{{"role": "Client", "name": "G", "email_address": "g@example.com"}},
		"ccs":     []map[string]any{{"role": "Boss", "email_address": "b@example.com"}},
	}), http.StatusBadRequest, "bad_request", "ccs[0][role]")

	sr := srv.ClaimDraft(id, map[string]any{"signers": []map[string]any{{"role": "Client", "name": "G", "email_address": "g@example.com"}}})
	assert.Equal(t, "g@example.com", apitest.Signatures(sr)[0]["signer_email_address"])
	assert.Equal(t, []any{}, sr["cc_email_addresses"], "a CC role left open is dropped")
}

// TestUnclaimedDraftTemplateBadInput: the template variant's required
// parameters and the templates' own refusals.
func TestUnclaimedDraftTemplateBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	cases := []struct {
		name   string
		change func(m map[string]any)
		status int
		errN   string
		path   string
	}{
		{"no template_ids", func(m map[string]any) { delete(m, "template_ids") }, 400, "bad_request", "template_ids"},
		{"unknown template", func(m map[string]any) { m["template_ids"] = []string{"0000000000000000000000000000000000000000"} }, 404, "not_found", "template_ids[0]"},
		{"no client_id", func(m map[string]any) { delete(m, "client_id") }, 400, "bad_request", "client_id"},
		{"no requester", func(m map[string]any) { delete(m, "requester_email_address") }, 400, "bad_request", "requester_email_address"},
		{"role not in template", func(m map[string]any) {
			m["signers"] = []map[string]any{{"role": "Buyer", "name": "G", "email_address": "g@example.com"}}
		}, 400, "bad_request", "signers[0][role]"},
		{"signer without role", func(m map[string]any) {
			m["signers"] = []map[string]any{{"name": "G", "email_address": "g@example.com"}}
		}, 400, "bad_request", "signers[0][role]"},
		{"cc role not in template", func(m map[string]any) {
			m["ccs"] = []map[string]any{{"role": "Boss", "email_address": "b@example.com"}}
		}, 400, "bad_request", "ccs[0][role]"},
		{"title over 255", func(m map[string]any) { m["title"] = string(make([]byte, 256)) }, 400, "bad_request", "title"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := udTemplateBody(tid)
			tc.change(body)
			apitest.WantError(t, srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded_with_template", body), tc.status, tc.errN, tc.path)
		})
	}
}

// TestUnclaimedDraftEditAndResend: an embedded request becomes a new draft
// (new signature_request_id and claim URL) with the same documents,
// signers and texts; the original is left as it is. Only embedded requests
// qualify; canceled ones answer 410.
func TestUnclaimedDraftEditAndResend(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	body["client_id"] = apitest.ClientID
	r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	orig := r.Map()["signature_request"].(map[string]any)
	oid := orig["signature_request_id"].(string)
	srv.Advance(apitest.SendProcessDelay)

	path := "/v3/unclaimed_draft/edit_and_resend/"
	apitest.WantError(t, srv.Do(http.MethodPost, path+oid, map[string]any{}), http.StatusBadRequest, "bad_request", "client_id")
	apitest.WantError(t, srv.Do(http.MethodPost, path+oid, map[string]any{"client_id": apitest.ClientID, "requester_email_address": "x"}), http.StatusBadRequest, "bad_request", "requester_email_address")
	apitest.WantError(t, srv.Do(http.MethodPost, path+"0000000000000000000000000000000000000000", map[string]any{"client_id": apitest.ClientID}), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(apitest.OutsiderKey, http.MethodPost, path+oid, map[string]any{"client_id": apitest.ClientID}), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(apitest.TeammateKey, http.MethodPost, path+oid, map[string]any{"client_id": apitest.ClientID}), http.StatusForbidden, "forbidden", "")

	ok := srv.Do(http.MethodPost, path+oid, map[string]any{"client_id": apitest.ClientID, "test_mode": true, "requester_email_address": "boss@example.com"})
	require.Equal(t, http.StatusOK, ok.Status, "%s", ok.Body)
	d := ok.Map()["unclaimed_draft"].(map[string]any)
	nid := d["signature_request_id"].(string)
	assert.NotEqual(t, oid, nid)
	assert.Equal(t, true, d["test_mode"])
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, oid)), "the original is left as it is")

	page := apitest.OpenClaim(t, srv, d["claim_url"].(string))
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, string(page.Body), "jill@example.com")
	sr := srv.ClaimDraft(nid, map[string]any{"signers": []map[string]any{
		{"name": "Jack", "email_address": "jack@example.com", "order": 0}, {"name": "Joan", "email_address": "joan@example.com", "order": 1},
	}})
	assert.Equal(t, "boss@example.com", sr["requester_email_address"])
	assert.Equal(t, orig["title"], sr["title"])
	assert.Equal(t, orig["metadata"], sr["metadata"])
	assert.Equal(t, "joan@example.com", apitest.Signatures(sr)[1]["signer_email_address"])
	assert.Nil(t, sr["signing_url"], "the original was embedded, so is the new request")

	// A request that is not embedded cannot be edited this way.
	plain := apitest.SendRequest(t, srv, apitest.TwoSigners())
	apitest.WantError(t, srv.Do(http.MethodPost, path+plain["signature_request_id"].(string), map[string]any{"client_id": apitest.ClientID}),
		http.StatusBadRequest, "bad_request", "signature_request_id")

	// Canceled: 410.
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+oid, nil).Status)
	srv.Advance(30 * apitest.SendProcessDelay)
	apitest.WantError(t, srv.Do(http.MethodPost, path+oid, map[string]any{"client_id": apitest.ClientID}), http.StatusGone, "deleted", "")
}

// TestUnclaimedDraftEditAndResendFromEmbeddedRequesting: a request sent
// from an embedded draft counts as embedded for edit_and_resend even when
// it is signed by e-mail (is_for_embedded_signing false), and the new draft
// keeps that: its request is signed by e-mail too.
func TestUnclaimedDraftEditAndResendFromEmbeddedRequesting(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
	id := d["signature_request_id"].(string)
	srv.ClaimDraft(id, nil)
	srv.Advance(apitest.SendProcessDelay)
	require.NotNil(t, apitest.GetRequestOK(t, srv, id)["signing_url"], "signed by e-mail")

	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/edit_and_resend/"+id, map[string]any{"client_id": apitest.ClientID, "test_mode": true})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	nd := r.Map()["unclaimed_draft"].(map[string]any)
	sr := srv.ClaimDraft(nd["signature_request_id"].(string), nil)
	assert.Equal(t, "requester@example.com", sr["requester_email_address"])
	assert.NotNil(t, sr["signing_url"])
	assert.Equal(t, "jill@example.com", apitest.Signatures(sr)[0]["signer_email_address"])
}

// TestUnclaimedDraftTemplatePage: the claim page of a template draft has
// one line per role; the form fills the roles left open and CCs when the
// draft allows them.
func TestUnclaimedDraftTemplatePage(t *testing.T) {
	srv := apitest.NewServer(t)
	tid := apitest.BulkTemplate(t, srv)
	body := udTemplateBody(tid)
	delete(body, "signers")
	body["allow_ccs"] = true
	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/create_embedded_with_template", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	d := r.Map()["unclaimed_draft"].(map[string]any)
	page := apitest.OpenClaim(t, srv, d["claim_url"].(string))
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, string(page.Body), `value="Client"`)
	assert.Contains(t, string(page.Body), "cc_email_addresses")

	bad := apitest.SubmitClaim(t, srv, d["claim_url"].(string), url.Values{"signer_role": {"Client"}, "signer_name": {"G"}, "signer_email": {""}})
	assert.Equal(t, http.StatusBadRequest, bad.Status, "the open role must be filled")
	ok := apitest.SubmitClaim(t, srv, d["claim_url"].(string), url.Values{
		"signer_role": {"Client"}, "signer_name": {"Gina"}, "signer_email": {"gina@example.com"},
		"cc_email_addresses": {"extra@example.com\n"},
	})
	require.Equal(t, http.StatusOK, ok.Status, "%s", ok.Body)
	sr := apitest.GetRequestOK(t, srv, d["signature_request_id"].(string))
	assert.Equal(t, "gina@example.com", apitest.Signatures(sr)[0]["signer_email_address"])
	assert.Equal(t, []any{"accounting@dropboxsign.com", "extra@example.com"}, sr["cc_email_addresses"])
}
