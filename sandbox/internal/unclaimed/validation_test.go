package unclaimed_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestUnclaimedDraftBadInput: each case breaks one rule of the create
// operations and gets a 4xx naming the field; nothing is stored.
func TestUnclaimedDraftBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	field := func(id string, signer any) map[string]any {
		return map[string]any{"document_index": 0, "api_id": id, "name": "", "type": "text", "x": 10, "y": 10, "width": 100, "height": 16, "required": true, "signer": signer, "page": 1}
	}
	cases := []struct {
		name   string
		op     string
		change func(m map[string]any)
		status int
		errN   string
		path   string
	}{
		{"no type", "create", func(m map[string]any) { delete(m, "type") }, 400, "bad_request", "type"},
		{"unknown type", "create", func(m map[string]any) { m["type"] = "sign_now" }, 400, "bad_request", "type"},
		{"subject over 200", "create", func(m map[string]any) { m["subject"] = strings.Repeat("s", 201) }, 400, "bad_request", "subject"},
		{"message over 5000", "create", func(m map[string]any) { m["message"] = strings.Repeat("m", 5001) }, 400, "bad_request", "message"},
		{"signer without name", "create", func(m map[string]any) {
			m["signers"] = []map[string]any{{"email_address": "a@example.com"}}
		}, 400, "bad_request", "signers[0][name]"},
		{"signer with bad email", "create", func(m map[string]any) {
			m["signers"] = []map[string]any{{"name": "A", "email_address": "a@"}}
		}, 400, "invalid_recipient", "signers[0][email_address]"},
		{"order on some signers only", "create", func(m map[string]any) {
			m["signers"] = []map[string]any{{"name": "A", "email_address": "a@example.com", "order": 0}, {"name": "B", "email_address": "b@example.com"}}
		}, 400, "bad_request", "signers[1][order]"},
		{"bad cc", "create", func(m map[string]any) { m["cc_email_addresses"] = []string{"x"} }, 400, "bad_request", "cc_email_addresses[0]"},
		{"field for a signer not given", "create", func(m map[string]any) {
			m["form_fields_per_document"] = []map[string]any{field("f", 1)}
		}, 400, "bad_request", "form_fields_per_document[0][signer]"},
		{"field without api_id", "create", func(m map[string]any) {
			f := field("", 0)
			m["form_fields_per_document"] = []map[string]any{f}
		}, 400, "bad_request", "form_fields_per_document[0][api_id]"},
		{"send_document field for signer 1", "create", func(m map[string]any) {
			m["type"] = "send_document"
			delete(m, "signers")
			m["form_fields_per_document"] = []map[string]any{field("f", 1)}
		}, 400, "bad_request", "form_fields_per_document[0][signer]"},
		{"group without fields", "create", func(m map[string]any) {
			m["form_field_groups"] = []map[string]any{{"group_id": "g", "group_label": "G", "requirement": "require_1"}}
		}, 400, "bad_request", "form_field_groups"},
		{"attachment for a signer not given", "create", func(m map[string]any) {
			m["attachments"] = []map[string]any{{"name": "ID", "signer_index": 3}}
		}, 400, "bad_request", "attachments[0][signer_index]"},
		{"text tags and preexisting fields", "create", func(m map[string]any) {
			m["use_text_tags"], m["use_preexisting_fields"] = true, true
		}, 400, "bad_request", "use_preexisting_fields"},
		{"expiry too soon", "create", func(m map[string]any) { m["expires_at"] = srv.Now().Add(time.Hour).Unix() }, 400, "bad_request", "expires_at"},
		{"eleven metadata keys", "create", func(m map[string]any) {
			md := map[string]any{}
			for i := 0; i < 11; i++ {
				md["k"+strconv.Itoa(i)] = "v"
			}
			m["metadata"] = md
		}, 400, "bad_request", "metadata"},
		{"unknown client_id", "create", func(m map[string]any) { m["client_id"] = "00000000000000000000000000000000" }, 400, "bad_request", "client_id"},
		{"bad signing_redirect_url", "create", func(m map[string]any) { m["signing_redirect_url"] = "example.com/done" }, 400, "bad_request", "signing_redirect_url"},
		{"date format", "create", func(m map[string]any) { m["field_options"] = map[string]any{"date_format": "YY"} }, 400, "bad_request", "field_options[date_format]"},

		{"embedded without client_id", "create_embedded", func(m map[string]any) { delete(m, "client_id") }, 400, "bad_request", "client_id"},
		{"embedded without requester", "create_embedded", func(m map[string]any) { delete(m, "requester_email_address") }, 400, "bad_request", "requester_email_address"},
		{"embedded bad requester", "create_embedded", func(m map[string]any) { m["requester_email_address"] = "requester" }, 400, "bad_request", "requester_email_address"},
		{"embedded unknown type", "create_embedded", func(m map[string]any) { m["type"] = "x" }, 400, "bad_request", "type"},
		{"embedded bad requesting_redirect_url", "create_embedded", func(m map[string]any) { m["requesting_redirect_url"] = "ftp://x" }, 400, "bad_request", "requesting_redirect_url"},
		{"embedded unknown client_id", "create_embedded", func(m map[string]any) { m["client_id"] = "00000000000000000000000000000000" }, 400, "bad_request", "client_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := apitest.DraftBody()
			if tc.op == "create_embedded" {
				body = apitest.EmbeddedDraftBody()
			}
			tc.change(body)
			apitest.WantError(t, apitest.CreateDraft(t, srv, srv.APIKey, tc.op, body), tc.status, tc.errN, tc.path)
		})
	}

	t.Run("files and file_urls", func(t *testing.T) {
		body := apitest.DraftBody()
		body["file_urls"] = []string{"https://example.com/a.pdf"}
		apitest.WantError(t, apitest.CreateDraft(t, srv, srv.APIKey, "create", body), 400, "bad_request", "file_urls")
	})
	t.Run("no documents", func(t *testing.T) {
		apitest.WantError(t, srv.Do(http.MethodPost, "/v3/unclaimed_draft/create", apitest.DraftBody()), 400, "bad_request", "files")
	})
	t.Run("no credentials", func(t *testing.T) {
		r := srv.DoAs("", http.MethodPost, "/v3/unclaimed_draft/create", apitest.DraftBody())
		assert.Equal(t, http.StatusUnauthorized, r.Status)
	})
	var ws struct {
		Tables map[string][]any `json:"tables"`
	}
	srv.Control(http.MethodGet, "/state", nil, &ws)
	assert.Empty(t, ws.Tables["unclaimed_drafts"], "refused drafts are not stored")
}

// TestUnclaimedDraftQuotaAndApps: outside test_mode an account without
// signature requests left gets 402 (the quota is consumed when the draft
// is sent); embedded drafts need an API app of the caller's account or
// team, approved unless in test_mode.
func TestUnclaimedDraftQuotaAndApps(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.DraftBody()
	body["test_mode"] = false
	apitest.WantError(t, apitest.CreateDraft(t, srv, apitest.OutsiderKey, "create", body), http.StatusPaymentRequired, "payment_required", "")
	body["test_mode"] = true
	r := apitest.CreateDraft(t, srv, apitest.OutsiderKey, "create", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	// An app of another account (outside the team) is refused for
	// embedded drafts.
	app := srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "Outsider app", "domains": []string{"example.com"}})
	require.Equal(t, http.StatusCreated, app.Status, "%s", app.Body)
	other := app.Map()["api_app"].(map[string]any)["client_id"].(string)
	emb := apitest.EmbeddedDraftBody()
	emb["client_id"] = other
	apitest.WantError(t, apitest.CreateDraft(t, srv, srv.APIKey, "create_embedded", emb), http.StatusForbidden, "forbidden", "client_id")
	// The outsider's own app is not approved: production needs approval.
	emb["test_mode"] = false
	apitest.WantError(t, apitest.CreateDraft(t, srv, apitest.OutsiderKey, "create_embedded", emb), http.StatusForbidden, "forbidden", "client_id")

	// Sending a production draft consumes one request of the quota.
	before := apitest.Quotas(t, srv, srv.APIKey)["api_signature_requests_left"]
	body["test_mode"] = false
	d := apitest.Draft(t, srv, "create", body)
	assert.Equal(t, before, apitest.Quotas(t, srv, srv.APIKey)["api_signature_requests_left"], "creating a draft costs nothing")
	srv.ClaimDraft(d["signature_request_id"].(string), nil)
	assert.Equal(t, before.(float64)-1, apitest.Quotas(t, srv, srv.APIKey)["api_signature_requests_left"])
}

// TestUnclaimedDraftSendDocumentIgnoresSigners: signers of a send_document
// draft are ignored with the parameter_ignored warning.
func TestUnclaimedDraftSendDocumentIgnoresSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.DraftBody()
	body["type"] = "send_document"
	r := apitest.CreateDraft(t, srv, srv.APIKey, "create", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	w := r.Map()["warnings"].([]any)
	require.Len(t, w, 1)
	assert.Equal(t, "parameter_ignored", w[0].(map[string]any)["warning_name"])
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, id, map[string]any{"signers": []map[string]any{{"name": "A", "email_address": "a@example.com"}}}),
		http.StatusBadRequest, "bad_request", "signers")
	sr := srv.ClaimDraft(id, nil)
	assert.Equal(t, "owner@sandbox.example", apitest.Signatures(sr)[0]["signer_email_address"])
}

// TestUnclaimedDraftClaimRules: what the user may change when claiming an
// embedded draft follows its editor settings; the control plane names
// unknown drafts.
func TestUnclaimedDraftClaimRules(t *testing.T) {
	srv := apitest.NewServer(t)
	other := map[string]any{"signers": []map[string]any{{"name": "Other", "email_address": "other@example.com"}}}

	locked := apitest.Draft(t, srv, "create_embedded", apitest.EmbeddedDraftBody())
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, locked["signature_request_id"].(string), other), http.StatusBadRequest, "bad_request", "signers")

	body := apitest.EmbeddedDraftBody()
	body["editor_options"] = map[string]any{"allow_edit_signers": true}
	body["allow_ccs"] = false
	open := apitest.Draft(t, srv, "create_embedded", body)
	oid := open["signature_request_id"].(string)
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, oid, map[string]any{"cc_email_addresses": []string{"cc@example.com"}}),
		http.StatusBadRequest, "bad_request", "cc_email_addresses")
	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, oid, map[string]any{"signer": "typo"}), http.StatusBadRequest, "bad_request", "")
	sr := srv.ClaimDraft(oid, other)
	assert.Equal(t, "other@example.com", apitest.Signatures(sr)[0]["signer_email_address"])

	plain := apitest.Draft(t, srv, "create", apitest.DraftBody())
	sr = srv.ClaimDraft(plain["signature_request_id"].(string), map[string]any{"cc_email_addresses": []string{"cc@example.com"}})
	assert.Equal(t, []any{"cc@example.com"}, sr["cc_email_addresses"])

	apitest.WantError(t, apitest.Claim(t, srv, srv.APIKey, strings.Repeat("a", 40), nil), http.StatusNotFound, "not_found", "")
}

// TestUnclaimedDraftClaimedByAnotherAccount: a non-embedded draft belongs
// to the account that claims it: the request is sent from that account,
// consumes its quota and appears in its list.
func TestUnclaimedDraftClaimedByAnotherAccount(t *testing.T) {
	srv := apitest.NewServer(t)
	d := apitest.Draft(t, srv, "create", apitest.DraftBody())
	id := d["signature_request_id"].(string)
	r := apitest.Claim(t, srv, apitest.TeammateKey, id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr := r.Map()["signature_request"].(map[string]any)
	assert.Equal(t, apitest.TeammateMail, sr["requester_email_address"])
	l := srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/signature_request/list", nil)
	require.Equal(t, http.StatusOK, l.Status)
	assert.Contains(t, string(l.Body), id)

	var v map[string]any
	srv.Control(http.MethodGet, "/unclaimed_drafts/"+id, nil, &v)
	assert.Equal(t, "sent", v["status"])
	assert.Equal(t, "request_signature", v["type"])
}

// TestUnclaimedDraftUnusedCustomFields: custom_fields that fill no merge
// field are dropped with a parameter_ignored warning, as
// signature_request/send does.
func TestUnclaimedDraftUnusedCustomFields(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.DraftBody()
	body["custom_fields"] = []map[string]any{{"name": "nothing", "value": "x"}}
	r := apitest.CreateDraft(t, srv, srv.APIKey, "create", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	w, _ := r.Map()["warnings"].([]any)
	require.NotEmpty(t, w)
	assert.Equal(t, "parameter_ignored", w[0].(map[string]any)["warning_name"])
	sr := srv.ClaimDraft(r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string), nil)
	assert.Empty(t, sr["custom_fields"])
}
