package sigreq_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func fsigner(m map[string]any, i int) map[string]any { return m["signers"].([]map[string]any)[i] }

// TestSendBadInput: every validation rule of a send body, each broken by
// one case, answered with its error_name and error_path.
func TestSendBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	in90 := srv.Now().Add(91 * 24 * time.Hour).Unix()
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name   string
		mutate func(m map[string]any)
		status int
		err    string
		path   string
	}{
		{"signers and grouped_signers", func(m map[string]any) {
			m["grouped_signers"] = []map[string]any{{"group": "G", "signers": []map[string]any{{"name": "A", "email_address": "a@example.com"}}}}
		}, 400, "bad_request", "grouped_signers"},
		{"no signers", func(m map[string]any) { delete(m, "signers") }, 400, "bad_request", "signers"},
		{"signer without name", func(m map[string]any) { delete(fsigner(m, 1), "name") }, 400, "bad_request", "signers[1][name]"},
		{"signer without email", func(m map[string]any) { delete(fsigner(m, 0), "email_address") }, 400, "bad_request", "signers[0][email_address]"},
		{"signer with bad email", func(m map[string]any) { fsigner(m, 1)["email_address"] = "jill@" }, 400, "invalid_recipient", "signers[1][email_address]"},
		{"order on one signer only", func(m map[string]any) { fsigner(m, 0)["order"] = 0 }, 400, "bad_request", "signers[1][order]"},
		{"negative order", func(m map[string]any) { fsigner(m, 0)["order"] = -1; fsigner(m, 1)["order"] = 0 }, 400, "bad_request", "signers[0][order]"},
		{"pin too short", func(m map[string]any) { fsigner(m, 0)["pin"] = "123" }, 400, "bad_request", "signers[0][pin]"},
		{"pin too long", func(m map[string]any) { fsigner(m, 0)["pin"] = long(13) }, 400, "bad_request", "signers[0][pin]"},
		{"sms number not E.164", func(m map[string]any) { fsigner(m, 0)["sms_phone_number"] = "555-1234" }, 400, "bad_request", "signers[0][sms_phone_number]"},
		{"sms type unknown", func(m map[string]any) {
			fsigner(m, 0)["sms_phone_number"] = "+14155550123"
			fsigner(m, 0)["sms_phone_number_type"] = "fax"
		}, 400, "bad_request", "signers[0][sms_phone_number_type]"},
		{"group without name", func(m map[string]any) {
			delete(m, "signers")
			m["grouped_signers"] = []map[string]any{{"signers": []map[string]any{{"name": "A", "email_address": "a@example.com"}}}}
		}, 400, "bad_request", "grouped_signers[0][group]"},
		{"group without signers", func(m map[string]any) {
			delete(m, "signers")
			m["grouped_signers"] = []map[string]any{{"group": "G"}}
		}, 400, "bad_request", "grouped_signers[0][signers]"},
		{"group member with bad email", func(m map[string]any) {
			delete(m, "signers")
			m["grouped_signers"] = []map[string]any{{"group": "G", "signers": []map[string]any{
				{"name": "A", "email_address": "a@example.com"}, {"name": "B", "email_address": "b.example.com"}}}}
		}, 400, "invalid_recipient", "grouped_signers[0][signers][1][email_address]"},
		{"blank cc", func(m map[string]any) { m["cc_email_addresses"] = []string{""} }, 400, "bad_request", "cc_email_addresses[0]"},
		{"bad cc", func(m map[string]any) { m["cc_email_addresses"] = []string{"ok@example.com", "nope"} }, 400, "bad_request", "cc_email_addresses[1]"},
		{"title too long", func(m map[string]any) { m["title"] = long(256) }, 400, "bad_request", "title"},
		{"subject too long", func(m map[string]any) { m["subject"] = long(256) }, 400, "bad_request", "subject"},
		{"message too long", func(m map[string]any) { m["message"] = long(5001) }, 400, "bad_request", "message"},
		{"metadata with 11 keys", func(m map[string]any) {
			md := map[string]any{}
			for i := 0; i < 11; i++ {
				md["k"+strconv.Itoa(i)] = "v"
			}
			m["metadata"] = md
		}, 400, "bad_request", "metadata"},
		{"metadata key too long", func(m map[string]any) { m["metadata"] = map[string]any{long(41): "v"} }, 400, "bad_request", "metadata[" + long(41) + "]"},
		{"metadata value too long", func(m map[string]any) { m["metadata"] = map[string]any{"k": long(1001)} }, 400, "bad_request", "metadata[k]"},
		{"expires_at in the past", func(m map[string]any) { m["expires_at"] = srv.Now().Add(-time.Hour).Unix() }, 400, "bad_request", "expires_at"},
		{"expires_at under a day", func(m map[string]any) { m["expires_at"] = srv.Now().Add(23 * time.Hour).Unix() }, 400, "bad_request", "expires_at"},
		{"expires_at beyond 90 days", func(m map[string]any) { m["expires_at"] = in90 }, 400, "bad_request", "expires_at"},
		{"default signature type not enabled", func(m map[string]any) {
			m["signing_options"] = map[string]any{"default_type": "draw", "type": true}
		}, 400, "bad_request", "signing_options[default_type]"},
		{"unknown default signature type", func(m map[string]any) {
			m["signing_options"] = map[string]any{"default_type": "stamp", "type": true}
		}, 400, "bad_request", "signing_options[default_type]"},
		{"unknown date format", func(m map[string]any) { m["field_options"] = map[string]any{"date_format": "DD.MM.YYYY"} }, 400, "bad_request", "field_options[date_format]"},
		{"bad signing_redirect_url", func(m map[string]any) { m["signing_redirect_url"] = "not a url" }, 400, "bad_request", "signing_redirect_url"},
		{"unknown client_id", func(m map[string]any) { m["client_id"] = "00000000000000000000000000000000" }, 400, "bad_request", "client_id"},
		{"attachment for no signer", func(m map[string]any) {
			m["attachments"] = []map[string]any{{"name": "ID", "signer_index": 2}}
		}, 400, "bad_request", "attachments[0][signer_index]"},
		{"attachment without name", func(m map[string]any) {
			m["attachments"] = []map[string]any{{"signer_index": 0}}
		}, 400, "bad_request", "attachments[0][name]"},
		{"required custom field without editor", func(m map[string]any) {
			m["custom_fields"] = []map[string]any{{"name": "Cost", "value": "10", "required": true}}
		}, 400, "bad_request", "custom_fields[0][editor]"},
		{"field without api_id", func(m map[string]any) { delete(apitest.FormField(m, 0), "api_id") }, 400, "bad_request", "form_fields_per_document[0][api_id]"},
		{"duplicate api_id", func(m map[string]any) { apitest.FormField(m, 1)["api_id"] = "f_text" }, 400, "bad_request", "form_fields_per_document[1][api_id]"},
		{"unknown field type", func(m map[string]any) { apitest.FormField(m, 0)["type"] = "textarea" }, 400, "bad_request", "form_fields_per_document[0][type]"},
		{"document_index beyond the documents", func(m map[string]any) { apitest.FormField(m, 0)["document_index"] = 1 }, 400, "bad_request", "form_fields_per_document[0][document_index]"},
		{"page beyond the document", func(m map[string]any) { apitest.FormField(m, 6)["page"] = 2 }, 400, "bad_request", "form_fields_per_document[6][page]"},
		{"signer index beyond the signers", func(m map[string]any) { apitest.FormField(m, 6)["signer"] = 2 }, 400, "bad_request", "form_fields_per_document[6][signer]"},
		{"signer not an index", func(m map[string]any) { apitest.FormField(m, 6)["signer"] = "jack" }, 400, "bad_request", "form_fields_per_document[6][signer]"},
		{"sender on a text field", func(m map[string]any) { apitest.FormField(m, 0)["signer"] = "sender" }, 400, "bad_request", "form_fields_per_document[0][signer]"},
		{"me_now on a signature field", func(m map[string]any) { apitest.FormField(m, 6)["signer"] = "me_now" }, 400, "bad_request", "form_fields_per_document[6][signer]"},
		{"zero width", func(m map[string]any) { apitest.FormField(m, 0)["width"] = 0 }, 400, "bad_request", "form_fields_per_document[0][width]"},
		{"no x", func(m map[string]any) { delete(apitest.FormField(m, 0), "x") }, 400, "bad_request", "form_fields_per_document[0][x]"},
		{"no required", func(m map[string]any) { delete(apitest.FormField(m, 0), "required") }, 400, "bad_request", "form_fields_per_document[0][required]"},
		{"unknown validation_type", func(m map[string]any) { apitest.FormField(m, 0)["validation_type"] = "roman_numerals" }, 400, "bad_request", "form_fields_per_document[0][validation_type]"},
		{"custom_regex without a regex", func(m map[string]any) { apitest.FormField(m, 0)["validation_type"] = "custom_regex" }, 400, "bad_request", "form_fields_per_document[0][validation_custom_regex]"},
		{"custom_regex that does not compile", func(m map[string]any) {
			apitest.FormField(m, 0)["validation_type"] = "custom_regex"
			apitest.FormField(m, 0)["validation_custom_regex"] = "([a-z"
		}, 400, "bad_request", "form_fields_per_document[0][validation_custom_regex]"},
		{"unknown auto_fill_type", func(m map[string]any) { apitest.FormField(m, 0)["auto_fill_type"] = "nickname" }, 400, "bad_request", "form_fields_per_document[0][auto_fill_type]"},
		{"text content failing its validation", func(m map[string]any) {
			apitest.FormField(m, 0)["signer"] = "me_now"
			apitest.FormField(m, 0)["content"] = "abc"
			delete(m, "form_field_rules")
		}, 400, "bad_request", "form_fields_per_document[0][content]"},
		{"dropdown without options", func(m map[string]any) { delete(apitest.FormField(m, 5), "options") }, 400, "bad_request", "form_fields_per_document[5][options]"},
		{"dropdown content not an option", func(m map[string]any) { apitest.FormField(m, 5)["content"] = "c" }, 400, "bad_request", "form_fields_per_document[5][content]"},
		{"hyperlink without content_url", func(m map[string]any) {
			apitest.FormField(m, 0)["type"] = "hyperlink"
			apitest.FormField(m, 0)["content"] = "Terms"
			delete(m, "form_field_rules")
		}, 400, "bad_request", "form_fields_per_document[0][content_url]"},
		{"checkbox without is_checked", func(m map[string]any) { delete(apitest.FormField(m, 1), "is_checked") }, 400, "bad_request", "form_fields_per_document[1][is_checked]"},
		{"radio without group", func(m map[string]any) { delete(apitest.FormField(m, 3), "group") }, 400, "bad_request", "form_fields_per_document[3][group]"},
		{"field in an undefined group", func(m map[string]any) { apitest.FormField(m, 1)["group"] = "g_none" }, 400, "bad_request", "form_fields_per_document[1][group]"},
		{"font_size out of range", func(m map[string]any) { apitest.FormField(m, 0)["font_size"] = 50 }, 400, "bad_request", "form_fields_per_document[0][font_size]"},
		{"unknown font_family", func(m map[string]any) { apitest.FormField(m, 0)["font_family"] = "comic" }, 400, "bad_request", "form_fields_per_document[0][font_family]"},
		{"radio group with a checkbox requirement", func(m map[string]any) {
			m["form_field_groups"].([]map[string]any)[1]["requirement"] = "require_1-ormore"
		}, 400, "bad_request", "form_field_groups[1][requirement]"},
		{"group defined twice", func(m map[string]any) {
			m["form_field_groups"].([]map[string]any)[1]["group_id"] = "g_chk"
		}, 400, "bad_request", "form_field_groups[1][group_id]"},
		{"group across signers", func(m map[string]any) { apitest.FormField(m, 2)["signer"] = 1 }, 400, "bad_request", "form_field_groups[0]"},
		{"two radios checked", func(m map[string]any) { apitest.FormField(m, 4)["is_checked"] = true }, 400, "bad_request", "form_field_groups[1]"},
		{"rule with OR", func(m map[string]any) { apitest.FormRule(m, 0)["trigger_operator"] = "OR" }, 400, "bad_request", "form_field_rules[0][trigger_operator]"},
		{"rule with two triggers", func(m map[string]any) {
			apitest.FormRule(m, 0)["triggers"] = []map[string]any{{"id": "f_dd", "operator": "is", "value": "a"}, {"id": "f_chk1", "operator": "is", "value": "1"}}
		}, 400, "bad_request", "form_field_rules[0][triggers]"},
		{"rule without actions", func(m map[string]any) { delete(apitest.FormRule(m, 0), "actions") }, 400, "bad_request", "form_field_rules[0][actions]"},
		{"trigger on an unknown field", func(m map[string]any) {
			apitest.FormRule(m, 0)["triggers"] = []map[string]any{{"id": "f_none", "operator": "is", "value": "a"}}
		}, 400, "bad_request", "form_field_rules[0][triggers][0][id]"},
		{"operator not for the trigger type", func(m map[string]any) {
			apitest.FormRule(m, 0)["triggers"] = []map[string]any{{"id": "f_chk1", "operator": "match", "value": "1"}}
		}, 400, "bad_request", "form_field_rules[0][triggers][0][operator]"},
		{"checkbox trigger value not 0 or 1", func(m map[string]any) {
			apitest.FormRule(m, 0)["triggers"] = []map[string]any{{"id": "f_chk1", "operator": "is", "value": "2"}}
		}, 400, "bad_request", "form_field_rules[0][triggers][0][value]"},
		{"any without values", func(m map[string]any) {
			apitest.FormRule(m, 0)["triggers"] = []map[string]any{{"id": "f_dd", "operator": "any", "value": "a"}}
		}, 400, "bad_request", "form_field_rules[0][triggers][0][values]"},
		{"action with field_id and group_id", func(m map[string]any) {
			apitest.FormRule(m, 0)["actions"] = []map[string]any{{"field_id": "f_text", "group_id": "g_chk", "hidden": true, "type": "change-field-visibility"}}
		}, 400, "bad_request", "form_field_rules[0][actions][0]"},
		{"action type not matching its target", func(m map[string]any) {
			apitest.FormRule(m, 0)["actions"] = []map[string]any{{"group_id": "g_chk", "hidden": true, "type": "change-field-visibility"}}
		}, 400, "bad_request", "form_field_rules[0][actions][0][type]"},
		{"action without hidden", func(m map[string]any) {
			apitest.FormRule(m, 0)["actions"] = []map[string]any{{"field_id": "f_text", "type": "change-field-visibility"}}
		}, 400, "bad_request", "form_field_rules[0][actions][0][hidden]"},
		{"action on another signer's field", func(m map[string]any) {
			apitest.FormRule(m, 0)["actions"] = []map[string]any{{"field_id": "f_sig1", "hidden": true, "type": "change-field-visibility"}}
		}, 400, "bad_request", "form_field_rules[0][actions][0]"},
		{"field targeted twice", func(m map[string]any) {
			m["form_field_rules"] = append(m["form_field_rules"].([]map[string]any), map[string]any{
				"id": "r2", "trigger_operator": "AND",
				"triggers": []map[string]any{{"id": "f_chk1", "operator": "is", "value": "1"}},
				"actions":  []map[string]any{{"field_id": "f_text", "hidden": false, "type": "change-field-visibility"}},
			})
		}, 400, "bad_request", "form_field_rules[1][actions][0]"},
		{"rule id used twice", func(m map[string]any) {
			m["form_field_rules"] = append(m["form_field_rules"].([]map[string]any), map[string]any{
				"id": "r1", "trigger_operator": "AND",
				"triggers": []map[string]any{{"id": "f_chk1", "operator": "is", "value": "1"}},
				"actions":  []map[string]any{{"field_id": "f_dd", "hidden": true, "type": "change-field-visibility"}},
			})
		}, 400, "bad_request", "form_field_rules[1][id]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := apitest.FieldsBody()
			tc.mutate(body)
			r := apitest.CreateRequest(t, srv, srv.APIKey, "send", body)
			apitest.WantError(t, r, tc.status, tc.err, tc.path)
		})
	}
	// The body itself is valid, and nothing above created anything.
	r := apitest.CreateRequest(t, srv, srv.APIKey, "send", apitest.FieldsBody())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	list := srv.Do(http.MethodGet, "/v3/signature_request/list", nil)
	require.EqualValues(t, 1, list.Map()["list_info"].(map[string]any)["num_results"])
}

// TestSendDocumentsBadInput: files and file_urls, neither or both.
func TestSendDocumentsBadInput(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	body := apitest.TwoSigners()
	r := srv.Do(http.MethodPost, "/v3/signature_request/send", body)
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "files")
	body["file_urls"] = []string{"https://example.com/a.pdf"}
	r = apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", body, apitest.PDFFile{Name: "a.pdf", Data: apitest.PDF(1)})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "file_urls")
}

// TestQuotaAndApps: requests outside test_mode consume the quota (402 when
// exhausted); embedded requests need an API app of the caller's account or
// team.
func TestQuotaAndApps(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	body["test_mode"] = false
	r := apitest.CreateRequest(t, srv, apitest.OutsiderKey, "send", body)
	apitest.WantError(t, r, http.StatusPaymentRequired, "payment_required", "")
	_, msg, _ := apitest.ErrorParts(t, r.Body)
	require.Equal(t, "You must upgrade to make additional requests.", msg)

	quota := func() float64 {
		a := srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)
		return a["quotas"].(map[string]any)["api_signature_requests_left"].(float64)
	}
	before := quota()
	require.Equal(t, http.StatusOK, apitest.CreateRequest(t, srv, srv.APIKey, "send", body).Status)
	require.Equal(t, before-1, quota())
	body["test_mode"] = true
	require.Equal(t, http.StatusOK, apitest.CreateRequest(t, srv, srv.APIKey, "send", body).Status)
	require.Equal(t, before-1, quota(), "test_mode requests are free")

	emb := apitest.TwoSigners()
	apitest.WantError(t, apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", emb), http.StatusBadRequest, "bad_request", "client_id")
	emb["client_id"] = apitest.ClientID
	apitest.WantError(t, apitest.CreateRequest(t, srv, apitest.OutsiderKey, "create_embedded", emb), http.StatusForbidden, "forbidden", "client_id")
	require.Equal(t, http.StatusOK, apitest.CreateRequest(t, srv, apitest.TeammateKey, "create_embedded", emb).Status, "a teammate's app works")
}

// TestWrongStateAndStrangers: actions in the wrong state, and on requests
// of another account or world, get the official error and change nothing.
func TestWrongStateAndStrangers(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)

	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remove/"+id, nil), http.StatusBadRequest, "signature_request_remove_failed", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/release_hold/"+id, nil), http.StatusBadRequest, "bad_request", "")

	// Another account sees nothing; another world neither.
	apitest.WantError(t, apitest.GetRequest(t, srv, apitest.OutsiderKey, id), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/signature_request/cancel/"+id, nil), http.StatusNotFound, "not_found", "")
	w := srv.NewWorld()
	apitest.WantError(t, apitest.GetRequest(t, srv, w.APIKey, id), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(w.APIKey, http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusNotFound, "not_found", "")

	// A teammate sees the request but cannot cancel it.
	require.Equal(t, http.StatusOK, apitest.GetRequest(t, srv, apitest.TeammateKey, id).Status)
	apitest.WantError(t, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/signature_request/cancel/"+id, nil), http.StatusBadRequest, "signature_request_cancel_failed", "")

	srv.Sign(apitest.SignatureID(sr, 0), nil)
	srv.Sign(apitest.SignatureID(sr, 1), nil)
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+id, nil), http.StatusBadRequest, "signature_request_cancel_failed", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jack@example.com"}), http.StatusBadRequest, "invalid_reminder", "")
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 1), "sign", nil), http.StatusConflict, "conflict", "")
	apitest.WantError(t, srv.SignerAction("0000", "sign", nil), http.StatusNotFound, "not_found", "")
	got := apitest.GetRequestOK(t, srv, id)
	require.Equal(t, true, got["is_complete"])
}
