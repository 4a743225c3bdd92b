package sigreq_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestUpdateSigner: a new address gives a new signature_id and a new
// request e-mail; a new name keeps the id; requests with an appended
// signature page refuse updates.
func TestUpdateSigner(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.FieldsBody())
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	old := apitest.SignatureID(sr, 0)

	r := apitest.UpdateRequest(srv, id, map[string]any{"signature_id": old, "name": "Jack Renamed"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := r.Map()["signature_request"].(map[string]any)
	assert.Equal(t, old, apitest.SignatureID(got, 0))
	assert.Equal(t, "Jack Renamed", apitest.Signatures(got)[0]["signer_name"])

	srv.Bounce(old)
	mails := srv.Emails("signature_request_id", id, "to", "jack@example.com")
	require.Len(t, mails, 1)
	assert.True(t, mails[0].Bounced)
	assert.Contains(t, apitest.EventTypes(srv, id), "signature_request_email_bounce")

	r = apitest.UpdateRequest(srv, id, map[string]any{"signature_id": old, "email_address": "jack@elsewhere.example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got = r.Map()["signature_request"].(map[string]any)
	newID := apitest.SignatureID(got, 0)
	assert.NotEqual(t, old, newID)
	assert.Equal(t, "jack@elsewhere.example", apitest.Signatures(got)[0]["signer_email_address"])
	assert.Len(t, srv.Emails("to", "jack@elsewhere.example"), 1)
	apitest.WantError(t, srv.SignerAction(old, "sign", nil), http.StatusNotFound, "not_found", "")
	srv.Sign(newID, map[string]any{"f_text": "42"})

	exp := srv.Now().Add(48 * time.Hour).Unix()
	r = apitest.UpdateRequest(srv, id, map[string]any{"signature_id": apitest.SignatureID(got, 1), "expires_at": exp})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.EqualValues(t, exp-exp%3600, r.Map()["signature_request"].(map[string]any)["expires_at"])

	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"signature_id": newID, "name": "Late"}), http.StatusBadRequest, "bad_request", "signature_id")
	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"name": "X"}), http.StatusBadRequest, "bad_request", "signature_id")
	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"signature_id": newID}), http.StatusBadRequest, "bad_request", "email_address")
	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"signature_id": apitest.SignatureID(got, 1), "email_address": "bad"}), http.StatusBadRequest, "bad_request", "email_address")
	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"signature_id": "nope", "name": "X"}), http.StatusBadRequest, "bad_request", "signature_id")
	apitest.WantError(t, apitest.UpdateRequest(srv, id, map[string]any{"signature_id": apitest.SignatureID(got, 1), "expires_at": 1}), http.StatusBadRequest, "bad_request", "expires_at")

	plain := apitest.SendRequest(t, srv, apitest.TwoSigners())
	apitest.WantError(t, apitest.UpdateRequest(srv, plain["signature_request_id"].(string), map[string]any{"signature_id": apitest.SignatureID(plain, 0), "name": "X"}),
		http.StatusBadRequest, "bad_request", "signature_id")
}

// TestExpiry: unsigned signatures expire at expires_at on the world clock.
func TestExpiry(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	body["expires_at"] = srv.Now().Add(25*time.Hour + 30*time.Minute).Unix()
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	assert.EqualValues(t, srv.Now().Add(25*time.Hour).Unix(), sr["expires_at"], "rounded down to the hour")
	srv.Advance(2 * time.Second)
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	srv.Advance(25 * time.Hour)
	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, []string{"signed", "expired"}, apitest.Statuses(got))
	assert.Equal(t, "signature_request_expired", apitest.EventTypes(srv, id)[len(apitest.EventTypes(srv, id))-1])
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 1), "sign", nil), http.StatusBadRequest, "signature_request_expired", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": "jill@example.com"}), http.StatusBadRequest, "invalid_reminder", "")
}

// TestRemoveAccess: only fully executed requests; the caller loses access,
// the other parties keep it.
func TestRemoveAccess(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	body["signers"] = []map[string]any{{"name": "Mate", "email_address": apitest.TeammateMail}}
	body["allow_decline"] = true
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/remove/"+id, nil), http.StatusBadRequest, "signature_request_remove_failed", "")
	apitest.WantError(t, srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/signature_request/remove/"+id, nil), http.StatusNotFound, "not_found", "")

	ev := srv.Callbacks(sandboxtest.ObjectID(id))[0]
	assert.Equal(t, []string{apitest.OwnerID, apitest.TeammateID}, ev.AccountIDs, "sender, then signers with accounts")

	srv.Decline(apitest.SignatureID(sr, 0), "no")
	r := srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/signature_request/remove/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	apitest.WantError(t, apitest.GetRequest(t, srv, apitest.TeammateKey, id), http.StatusNotFound, "not_found", "")
	apitest.WantError(t, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/signature_request/remove/"+id, nil), http.StatusNotFound, "not_found", "")
	assert.Equal(t, http.StatusOK, apitest.GetRequest(t, srv, srv.APIKey, id).Status, "the sender keeps access")
	ids, _ := apitest.ListRequestIDs(t, srv, apitest.TeammateKey, nil)
	assert.NotContains(t, ids, id)
	destroyed := srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_destroyed"))
	require.Len(t, destroyed, 1)
	assert.Equal(t, []string{apitest.TeammateID}, destroyed[0].AccountIDs)
}

// TestDeclineAndReassign: decline needs allow_decline and ends the request;
// reassign needs allow_reassign and gives a new signature.
func TestDeclineAndReassign(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	srv.Advance(2 * time.Second)
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "decline", map[string]any{"reason": "no"}), http.StatusForbidden, "forbidden", "")
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "reassign", map[string]any{"name": "X", "email_address": "x@example.com"}), http.StatusForbidden, "forbidden", "")

	body := apitest.TwoSigners()
	body["allow_reassign"] = true
	body["allow_decline"] = true
	sr = apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "reassign", map[string]any{"name": "X", "email_address": "bad"}), http.StatusBadRequest, "bad_request", "email_address")
	got := srv.Reassign(apitest.SignatureID(sr, 0), "Joe", "joe@example.com", "on leave")
	joe := apitest.Signatures(got)[0]
	assert.Equal(t, "joe@example.com", joe["signer_email_address"])
	assert.Equal(t, "jack@example.com", joe["reassigned_by"])
	assert.Equal(t, "on leave", joe["reassignment_reason"])
	assert.Equal(t, apitest.SignatureID(sr, 0), joe["reassigned_from"])
	assert.Len(t, srv.Emails("to", "joe@example.com"), 1)
	assert.Contains(t, apitest.EventTypes(srv, id), "signature_request_reassigned")

	got = srv.Decline(joe["signature_id"].(string), "not for me")
	assert.Equal(t, true, got["is_declined"])
	assert.Equal(t, "signature_request_declined", apitest.EventTypes(srv, id)[len(apitest.EventTypes(srv, id))-1])
	declined := srv.Emails("signature_request_id", id, "kind", "declined")
	require.Len(t, declined, 1)
	assert.Equal(t, "owner@sandbox.example", declined[0].To)
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 1), "sign", nil), http.StatusConflict, "conflict", "")
}

// TestSignerValues: values are checked against each field, land in
// response_data with their official types, and defaults fill the rest.
func TestSignerValues(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.FieldsBody()
	body["field_options"] = map[string]any{"date_format": "YYYY - MM - DD"}
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	jack, jill := apitest.SignatureID(sr, 0), apitest.SignatureID(sr, 1)
	for _, tc := range []struct {
		name   string
		values map[string]any
		path   string
	}{
		{"text failing numbers_only", map[string]any{"f_text": "abc"}, "values[f_text]"},
		{"dropdown value not an option", map[string]any{"f_dd": "c"}, "values[f_dd]"},
		{"checkbox not a boolean", map[string]any{"f_chk1": "maybe"}, "values[f_chk1]"},
		{"two checked in a require_0-1 group", map[string]any{"f_chk1": true, "f_chk2": true}, "values[f_chk1]"},
		{"another signer's field", map[string]any{"f_radio1": true}, "values[f_radio1]"},
		{"unknown field", map[string]any{"f_none": "x"}, "values[f_none]"},
		{"date_signed is filled by the service", map[string]any{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == "" {
				apitest.WantError(t, srv.SignerAction(jill, "sign", map[string]any{"values": map[string]any{"f_date": "2020-01-01"}}), http.StatusBadRequest, "bad_request", "values[f_date]")
				return
			}
			apitest.WantError(t, srv.SignerAction(jack, "sign", map[string]any{"values": tc.values}), http.StatusBadRequest, "bad_request", tc.path)
		})
	}
	srv.Sign(jack, map[string]any{"f_text": "12", "f_chk2": true, "f_dd": "b"})
	got := srv.Sign(jill, nil)
	assert.Equal(t, true, got["is_complete"])
	byID := map[string]map[string]any{}
	for _, v := range apitest.GetRequestOK(t, srv, id)["response_data"].([]any) {
		m := v.(map[string]any)
		byID[m["api_id"].(string)] = m
	}
	assert.Equal(t, "12", byID["f_text"]["value"])
	assert.Equal(t, true, byID["f_chk2"]["value"])
	assert.Equal(t, false, byID["f_chk1"]["value"])
	assert.Equal(t, "b", byID["f_dd"]["value"])
	assert.Equal(t, true, byID["f_radio1"]["value"], "default of the radio group")
	assert.Equal(t, true, byID["f_sig0"]["is_signed"])
	assert.Equal(t, "2025 - 01 - 01", byID["f_date"]["value"])
	assert.Equal(t, jill, byID["f_date"]["signature_id"])
	assert.Equal(t, "date_signed", byID["f_date"]["type"])
}

// TestConditionalLogicHidesRequiredFields: a field hidden by a satisfied
// rule is not required.
func TestConditionalLogicHidesRequiredFields(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.FieldsBody()
	f := apitest.FormField(body, 0)
	f["required"] = true
	f["validation_type"] = "custom_regex"
	f["validation_custom_regex"] = "^[A-Z]{3}$"
	sr := apitest.SendRequest(t, srv, body)
	srv.Advance(2 * time.Second)
	jack := apitest.SignatureID(sr, 0)
	apitest.WantError(t, srv.SignerAction(jack, "sign", map[string]any{"values": map[string]any{"f_dd": "b"}}), http.StatusBadRequest, "bad_request", "values[f_text]")
	apitest.WantError(t, srv.SignerAction(jack, "sign", map[string]any{"values": map[string]any{"f_dd": "b", "f_text": "abc"}}), http.StatusBadRequest, "bad_request", "values[f_text]")
	srv.Sign(jack, map[string]any{"f_dd": "a"})
}

// TestGroupedSigners: one member signs for the group.
func TestGroupedSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	delete(body, "signers")
	body["grouped_signers"] = []map[string]any{
		{"group": "Parents", "order": 0, "signers": []map[string]any{
			{"name": "Mum", "email_address": "mum@example.com"}, {"name": "Dad", "email_address": "dad@example.com"}}},
		{"group": "School", "order": 1, "signers": []map[string]any{{"name": "Head", "email_address": "head@example.com"}}},
	}
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	sigs := apitest.Signatures(sr)
	require.Len(t, sigs, 3)
	assert.Equal(t, sigs[0]["signer_group_guid"], sigs[1]["signer_group_guid"])
	assert.NotNil(t, sigs[0]["signer_group_guid"])
	srv.Advance(2 * time.Second)
	assert.Len(t, srv.Emails("signature_request_id", id), 2, "both parents are asked")
	srv.Sign(apitest.SignatureID(sr, 1), nil)
	assert.Equal(t, []string{"signed", "signed", "awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	got := srv.Sign(apitest.SignatureID(sr, 2), nil)
	assert.Equal(t, true, got["is_complete"])
}

// TestEditAndResend: edit keeps the id, replaces the signers (those left
// out get signature_request_signer_removed), consumes the quota again and
// processes again; it is refused once someone signed.
func TestEditAndResend(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.TwoSigners()
	body["test_mode"] = false
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	quota := func() float64 {
		a := srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)
		return a["quotas"].(map[string]any)["api_signature_requests_left"].(float64)
	}
	before := quota()
	body["title"] = "Edited"
	body["signers"] = []map[string]any{{"name": "Joan", "email_address": "joan@example.com"}}
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, body, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(2)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := r.Map()["signature_request"].(map[string]any)
	assert.Equal(t, id, got["signature_request_id"])
	assert.Equal(t, "Edited", got["title"])
	require.Len(t, apitest.Signatures(got), 1)
	assert.NotEqual(t, apitest.SignatureID(sr, 0), apitest.SignatureID(got, 0))
	assert.Equal(t, before-1, quota(), "edit deducts quota")
	srv.Advance(2 * time.Second)
	// Jack and Jill are no longer signers: the edit removed them.
	assert.Equal(t, []string{"signature_request_sent", "signature_request_signer_removed", "signature_request_signer_removed",
		"signature_request_sent"}, apitest.EventTypes(srv, id))
	assert.Len(t, srv.Emails("to", "joan@example.com"), 1)

	apitest.WantError(t, apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit_embedded/"+id, body, apitest.PDFFile{Name: "v3.pdf", Data: apitest.PDF(1)}),
		http.StatusBadRequest, "bad_request", "signature_request_id")
	srv.Sign(apitest.SignatureID(got, 0), nil)
	apitest.WantError(t, apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, body, apitest.PDFFile{Name: "v3.pdf", Data: apitest.PDF(1)}),
		http.StatusBadRequest, "bad_request", "signature_request_id")
}

// TestTemplateOperationsValidate: the *_with_template operations check
// their bodies before any template is looked up.
func TestTemplateOperationsValidate(t *testing.T) {
	srv := apitest.NewServer(t)
	send := func(body map[string]any) *sandboxtest.Response {
		return srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", body)
	}
	apitest.WantError(t, send(map[string]any{"signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@example.com"}}}), http.StatusBadRequest, "bad_request", "template_ids")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}}), http.StatusBadRequest, "bad_request", "signers")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{{"name": "A", "email_address": "a@example.com"}}}), http.StatusBadRequest, "bad_request", "signers[0][role]")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{
		{"role": "Client", "name": "A", "email_address": "a@example.com"}, {"role": "Client", "name": "B", "email_address": "b@example.com"}}}),
		http.StatusBadRequest, "bad_request", "signers[1][role]")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@"}}}),
		http.StatusBadRequest, "invalid_recipient", "signers[0][email_address]")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@example.com"}},
		"ccs": []map[string]any{{"role": "Lawyer", "email_address": "l@example.com"}, {"role": "Lawyer", "email_address": "m@example.com"}}}),
		http.StatusBadRequest, "bad_request", "ccs[1][role]")
	apitest.WantError(t, send(map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@example.com"}},
		"title": string(make([]byte, 256))}), http.StatusBadRequest, "bad_request", "title")
	r := send(map[string]any{"template_ids": []string{"0000000000000000000000000000000000000000"}, "signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@example.com"}}})
	require.True(t, r.Status/100 == 4, "%d %s", r.Status, r.Body)
	_, _, path := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "template_ids[0]", path)
	emb := map[string]any{"template_ids": []string{"t"}, "signers": []map[string]any{{"role": "Client", "name": "A", "email_address": "a@example.com"}}}
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/create_embedded_with_template", emb), http.StatusBadRequest, "bad_request", "client_id")
}

// TestCorruptFileEndsInError: a document that cannot be read ends
// processing in error_file with file_error, not in a 4xx or 5xx.
func TestCorruptFileEndsInError(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", apitest.TwoSigners(),
		apitest.PDFFile{Name: "broken.pdf", Data: []byte("%PDF-1.4 not really")})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(2 * time.Second)
	assert.Equal(t, []string{"file_error"}, apitest.EventTypes(srv, id))
	got := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, got["has_error"])
	assert.Equal(t, []string{"error_file", "error_file"}, apitest.Statuses(got))
	assert.NotEmpty(t, apitest.Signatures(got)[0]["error"])
	assert.Empty(t, srv.Emails("signature_request_id", id))
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(got, 0), "sign", nil), http.StatusConflict, "conflict", "")
	apitest.WantError(t, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+id, nil), http.StatusBadRequest, "signature_request_cancel_failed", "")
}
