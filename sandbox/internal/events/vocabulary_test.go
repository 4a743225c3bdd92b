package events_test

// The event types and signature statuses that only failures and rare signer
// paths reach: error_component_position (a field off its page),
// error_unknown / error_invalid_email and the other failures injected by
// scenario rules (fail_processing) or the fail control call,
// signature_request_signer_removed (an edit drops a signer) and
// signature_request_incomplete_qes (an eID signer does not finish).

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// evWarnings lists the warning names of an answer.
func evWarnings(r *sandboxtest.Response) []string {
	var out []string
	ws, _ := r.Map()["warnings"].([]any)
	for _, w := range ws {
		out = append(out, w.(map[string]any)["warning_name"].(string))
	}
	return out
}

// evOnly returns the single event of a type for an object.
func evOnly(t *testing.T, srv *sandboxtest.Server, id, typ string) sandboxtest.Callback {
	t.Helper()
	cbs := srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType(typ))
	require.Len(t, cbs, 1, "one %s for %s", typ, id)
	return cbs[0]
}

// TestFieldPlacement: a field running over its page's edge gives the
// official form_fields_placement warning and the request goes out; a field
// entirely outside its page (letter: 612 x 792 points) is accepted with the
// warning, and processing ends in error_component_position with
// signature_request_invalid. A page beyond the document stays a 400.
func TestFieldPlacement(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	send := func(fields ...map[string]any) *sandboxtest.Response {
		return apitest.CreateRequest(t, srv, srv.APIKey, "send", apitest.PlacementBody(fields...))
	}

	inside := send(apitest.SignatureField("sig", 100, 600, 120, 30))
	require.Equal(t, http.StatusOK, inside.Status, "%s", inside.Body)
	assert.Empty(t, evWarnings(inside))

	partly := send(apitest.SignatureField("sig", 550, 600, 120, 30))
	require.Equal(t, http.StatusOK, partly.Status, "%s", partly.Body)
	assert.Equal(t, []string{"form_fields_placement"}, evWarnings(partly))

	outside := send(apitest.SignatureField("ok", 100, 100, 120, 30), apitest.SignatureField("lost", 100, 800, 120, 30))
	require.Equal(t, http.StatusOK, outside.Status, "%s", outside.Body)
	assert.Equal(t, []string{"form_fields_placement"}, evWarnings(outside))

	apitest.WantError(t, send(map[string]any{"document_index": 0, "api_id": "p2", "type": "signature", "x": 1, "y": 1,
		"width": 10, "height": 10, "required": true, "signer": 0, "page": 2}), http.StatusBadRequest, "bad_request", "form_fields_per_document[0][page]")

	srv.AdvanceAndWait(time.Minute)
	for _, r := range []*sandboxtest.Response{inside, partly} {
		id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
	}
	id := outside.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	sr := apitest.GetRequestOK(t, srv, id)
	assert.Equal(t, true, sr["has_error"])
	assert.Equal(t, []string{"error_component_position"}, apitest.Statuses(sr))
	assert.Contains(t, apitest.Signatures(sr)[0]["error"], `"lost"`, "the error names the field")
	assert.Equal(t, []string{"signature_request_invalid"}, apitest.EventTypes(srv, id))
	got := rcv.Events("signature_request_invalid")
	require.Len(t, got, 1)
	assert.Contains(t, got[0].Metadata()["event_message"], `"lost"`)
	assert.Empty(t, srv.Emails("signature_request_id", id), "nobody is asked to sign")
}

// TestFailProcessingRules: a fail_processing rule ends processing with its
// status code and that status's event; fail_file keeps working; with
// error_invalid_email and a signer glob only that signer's signature
// carries the status.
func TestFailProcessingRules(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: failures
rules:
  - match: {fields: {title: Unknown}}
    fail_processing: {status_code: error_unknown}
  - match: {fields: {title: Position}}
    fail_processing: {status_code: error_component_position, message: "Field off the page."}
  - match: {fields: {title: Tags}}
    fail_processing: {status_code: error_text_tag}
  - match: {fields: {title: File}}
    fail_processing: {status_code: error_file, message: "Cannot convert."}
  - match: {fields: {title: Legacy}}
    fail_file: {}
  - match: {signer: "*@invalid.example"}
    fail_processing: {status_code: error_invalid_email, message: "Mailbox does not exist."}
`)
	cases := []struct {
		title, status, event, message string
	}{
		{"Unknown", "error_unknown", "unknown_error", "An unknown error occurred while processing the signature request."},
		{"Position", "error_component_position", "signature_request_invalid", "Field off the page."},
		{"Tags", "error_text_tag", "signature_request_invalid", "The file contains invalid text tags."},
		{"File", "error_file", "file_error", "Cannot convert."},
		{"Legacy", "error_file", "file_error", "The file could not be converted."},
	}
	ids := map[string]string{}
	for _, c := range cases {
		ids[c.title], _ = apitest.QuickSend(t, srv, srv.APIKey, c.title, "a@example.com", "b@example.com")
	}
	mixed, _ := apitest.QuickSend(t, srv, srv.APIKey, "Mixed", "a@example.com", "x@invalid.example")
	fine, _ := apitest.QuickSend(t, srv, srv.APIKey, "Fine", "a@example.com")
	srv.AdvanceAndWait(time.Minute)

	for _, c := range cases {
		t.Run(c.title, func(t *testing.T) {
			sr := apitest.GetRequestOK(t, srv, ids[c.title])
			assert.Equal(t, true, sr["has_error"])
			assert.Equal(t, []string{c.status, c.status}, apitest.Statuses(sr))
			assert.Equal(t, []string{c.event}, apitest.EventTypes(srv, ids[c.title]))
			assert.Equal(t, c.message, evOnly(t, srv, ids[c.title], c.event).EventMessage)
		})
	}
	sr := apitest.GetRequestOK(t, srv, mixed)
	assert.Equal(t, true, sr["has_error"])
	assert.Equal(t, []string{"awaiting_signature", "error_invalid_email"}, apitest.Statuses(sr), "only the address at fault")
	assert.Equal(t, []string{"signature_request_invalid"}, apitest.EventTypes(srv, mixed))
	assert.Equal(t, "Mailbox does not exist.", apitest.Signatures(sr)[1]["error"])
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(sr, 0), "sign", nil), http.StatusConflict, "conflict", "")
	assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, fine))

	assert.Len(t, rcv.Events("unknown_error"), 1)
	assert.Len(t, rcv.Events("file_error"), 2)
	assert.Len(t, rcv.Events("signature_request_invalid"), 3)
	for _, d := range rcv.Events() {
		assert.True(t, d.VerifyHash(srv.APIKey), d.EventType())
	}
}

// TestFailProcessingIsValidatedStrictly: the new keys are checked at load.
func TestFailProcessingIsValidatedStrictly(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	for name, doc := range map[string]string{
		"unknown status":  "name: x\nrules:\n  - fail_processing: {status_code: error_nope}\n",
		"missing status":  "name: x\nrules:\n  - fail_processing: {message: hi}\n",
		"unknown key":     "name: x\nrules:\n  - fail_processing: {status_code: error_unknown, detail: hi}\n",
		"two effects":     "name: x\nrules:\n  - fail_processing: {status_code: error_unknown}\n    fail_file: {}\n",
		"match not valid": "name: x\nrules:\n  - match: {operation: accountGet}\n    fail_processing: {status_code: error_unknown}\n",
		"seed state":      "name: x\nseed:\n  signature_requests:\n    - ref: r\n      state: error_bogus\n      body: {signers: [{name: A, email_address: a@example.com}]}\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := apitest.LoadScenario(t, srv, srv.APIKey, doc)
			assert.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
		})
	}
}

// TestFailControlCall: POST /_sandbox/signature_requests/{id}/fail makes a
// processing (or sent, untouched) request fail with any error status, and
// refuses what a real failure could not reach.
func TestFailControlCall(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)

	processing := apitest.SendRequest(t, srv, apitest.TwoSigners())
	pid := processing["signature_request_id"].(string)
	sr := srv.FailRequest(pid, "error_unknown", "")
	assert.Equal(t, true, sr["has_error"])
	assert.Equal(t, []string{"error_unknown", "error_unknown"}, apitest.Statuses(sr))
	srv.AdvanceAndWait(time.Minute)
	assert.Equal(t, []string{"unknown_error"}, apitest.EventTypes(srv, pid), "processing does not run again")
	assert.Equal(t, []string{"error_unknown", "error_unknown"}, apitest.Statuses(apitest.GetRequestOK(t, srv, pid)))
	require.Len(t, rcv.Events("unknown_error"), 1)

	sent := apitest.SendRequest(t, srv, apitest.TwoSigners())
	sid := sent["signature_request_id"].(string)
	srv.Advance(time.Minute)
	bad := apitest.SignatureID(sent, 1)
	r := srv.FailRequestRaw(sid, map[string]any{"status_code": "error_invalid_email", "signature_id": bad, "message": "Bounced for good."})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []string{"awaiting_signature", "error_invalid_email"}, apitest.Statuses(apitest.GetRequestOK(t, srv, sid)))
	assert.Equal(t, "Bounced for good.", evOnly(t, srv, sid, "signature_request_invalid").EventMessage)

	signed := apitest.SendRequest(t, srv, apitest.TwoSigners())
	gid := signed["signature_request_id"].(string)
	srv.Advance(time.Minute)
	srv.Sign(apitest.SignatureID(signed, 0), nil)
	canceled := apitest.SendRequest(t, srv, apitest.TwoSigners())
	cid := canceled["signature_request_id"].(string)
	srv.Advance(time.Minute)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+cid, nil).Status)
	fresh := apitest.SendRequest(t, srv, apitest.TwoSigners())
	fid := fresh["signature_request_id"].(string)
	srv.Advance(time.Hour)

	for _, c := range []struct {
		name, id    string
		body        map[string]any
		status      int
		errName, at string
	}{
		{"missing status_code", pid, map[string]any{}, 400, "bad_request", "status_code"},
		{"unknown status_code", sid, map[string]any{"status_code": "declined"}, 400, "bad_request", "status_code"},
		{"signature_id with another status", gid, map[string]any{"status_code": "error_file", "signature_id": "x"}, 400, "bad_request", "signature_id"},
		{"unknown field", gid, map[string]any{"status_code": "error_file", "bogus": 1}, 400, "bad_request", ""},
		{"unknown request", "0000000000000000000000000000000000000000", map[string]any{"status_code": "error_file"}, 404, "not_found", ""},
		{"unknown signature", fid, map[string]any{"status_code": "error_invalid_email", "signature_id": "nope"}, 404, "not_found", "signature_id"},
		{"already in error", pid, map[string]any{"status_code": "error_file"}, 409, "conflict", ""},
		{"a signer signed", gid, map[string]any{"status_code": "error_unknown"}, 409, "conflict", ""},
		{"canceled", cid, map[string]any{"status_code": "error_unknown"}, 410, "deleted", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			apitest.WantError(t, srv.FailRequestRaw(c.id, c.body), c.status, c.errName, c.at)
		})
	}
	assert.Equal(t, []string{"signed", "awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, gid)), "refusals change nothing")
}

// TestEditRemovesSigners: editing a request so that a signer is no longer
// on it emits signature_request_signer_removed for that signer, with
// related_signature_id their old signature id, after commit and carrying
// the edited request as GET shows it. Signers kept are not reported.
func TestEditRemovesSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	jill := apitest.SignatureID(sr, 1)
	srv.AdvanceAndWait(time.Minute)

	body := apitest.TwoSigners()
	body["signers"] = []map[string]any{
		{"name": "Jack", "email_address": "JACK@example.com", "order": 0},
		{"name": "Joan", "email_address": "joan@example.com", "order": 1},
	}
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, body, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	edited := r.Map()["signature_request"].(map[string]any)
	srv.WaitCallbacks()

	ev := evOnly(t, srv, id, "signature_request_signer_removed")
	assert.Equal(t, jill, ev.RelatedSignatureID)
	assert.Contains(t, ev.EventMessage, "jill@example.com")
	got := rcv.Events("signature_request_signer_removed")
	require.Len(t, got, 1)
	assert.Equal(t, jill, got[0].Metadata()["related_signature_id"])
	obj := got[0].Payload["signature_request"].(map[string]any)
	assert.Equal(t, edited["signatures"], obj["signatures"], "the edited request, as the edit answered it")
	srv.AdvanceAndWait(time.Minute)
	assert.Equal(t, []string{"signature_request_sent", "signature_request_signer_removed", "signature_request_sent"}, apitest.EventTypes(srv, id))
}

// TestEIDIncomplete: the signer of an is_eid request who leaves the eID
// step unfinished gives signature_request_incomplete_qes (their signature
// stays awaiting, and they can still sign); other requests refuse the
// action; is_eid keeps the limits of its official description.
func TestEIDIncomplete(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	body := apitest.PlacementBody()
	body["test_mode"], body["is_eid"] = false, true
	sr := apitest.SendRequest(t, srv, body)
	id, sig := sr["signature_request_id"].(string), apitest.SignatureID(sr, 0)

	apitest.WantError(t, srv.SignerAction(sig, "eid_incomplete", nil), http.StatusConflict, "conflict", "")
	srv.AdvanceAndWait(time.Minute)
	got := srv.EIDIncomplete(sig, "")
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(got))
	srv.WaitCallbacks()
	ev := evOnly(t, srv, id, "signature_request_incomplete_qes")
	assert.Equal(t, sig, ev.RelatedSignatureID)
	d := rcv.Events("signature_request_incomplete_qes")
	require.Len(t, d, 1)
	assert.Equal(t, sig, d[0].Metadata()["related_signature_id"])
	assert.True(t, d[0].VerifyHash(srv.APIKey))

	srv.EIDIncomplete(sig, "Provider timed out.")
	assert.Equal(t, "Provider timed out.", srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_incomplete_qes"))[1].EventMessage)
	done := srv.Sign(sig, nil)
	assert.Equal(t, true, done["is_complete"], "the signer came back and signed")
	apitest.WantError(t, srv.SignerAction(sig, "eid_incomplete", nil), http.StatusConflict, "conflict", "")

	plain := apitest.SendRequest(t, srv, apitest.PlacementBody())
	srv.Advance(time.Minute)
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(plain, 0), "eid_incomplete", nil), http.StatusForbidden, "forbidden", "")
	apitest.WantError(t, srv.SignerAction(apitest.SignatureID(plain, 0), "eid_incomplete", map[string]any{"bogus": true}), http.StatusBadRequest, "bad_request", "")
	apitest.WantError(t, srv.SignerAction("ffffffffffffffffffffffffffffffff", "eid_incomplete", nil), http.StatusNotFound, "not_found", "")

	inTestMode := apitest.PlacementBody()
	inTestMode["is_eid"] = true
	apitest.WantError(t, apitest.CreateRequest(t, srv, srv.APIKey, "send", inTestMode), http.StatusBadRequest, "bad_request", "is_eid")
	two := apitest.TwoSigners()
	two["test_mode"], two["is_eid"] = false, true
	apitest.WantError(t, apitest.CreateRequest(t, srv, srv.APIKey, "send", two), http.StatusBadRequest, "bad_request", "is_eid")

	tpl := apitest.ReadyTemplate(t, srv) // two roles
	r := srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", map[string]any{
		"template_ids": []string{tpl}, "is_eid": true, "test_mode": false,
		"signers": []map[string]any{{"role": "Client", "name": "C", "email_address": "c@example.com"},
			{"role": "Witness", "name": "W", "email_address": "w@example.com"}},
		"ccs":           []map[string]any{{"role": "Manager", "email_address": "m@example.com"}},
		"custom_fields": []map[string]any{{"name": "Full Name", "value": "C"}},
	})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "is_eid")
}

// TestDocumentStatusReportShowsFailures: a request whose processing failed
// with an unknown error is an error in the document status report, as
// file errors and invalid requests are.
func TestDocumentStatusReportShowsFailures(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	srv.FailRequest(id, "error_unknown", "")
	srv.Advance(time.Minute)
	r := srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "01/01/2025", "end_date": "01/02/2025", "report_type": []string{"document_status"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	mails := apitest.Emails(t, srv, "kind=report")
	require.Len(t, mails, 1)
	status, rows := apitest.FetchCSV(t, mails[0]["link"].(string))
	require.Equal(t, http.StatusOK, status)
	require.Len(t, rows, 2)
	assert.Equal(t, []string{id, "Error", "unknown_error"}, []string{rows[1][0], rows[1][3], rows[1][4]})
}

// TestTemplateFieldPlacement: a template field entirely outside its page
// ends preparation in template_error (each request made from the template
// would otherwise end in error_component_position).
func TestTemplateFieldPlacement(t *testing.T) {
	srv := apitest.NewServer(t)
	body := apitest.BulkTemplateBody()
	body["form_fields_per_document"] = []map[string]any{
		{"document_index": 0, "api_id": "client_sig", "name": "Signature", "type": "signature", "x": 700, "y": 100, "width": 200, "height": 30, "required": true, "signer": 0, "page": 1},
	}
	id := apitest.CreateTemplate(t, srv, srv.APIKey, body, apitest.PDFFile{Name: "letter.pdf", Data: apitest.PDF(1)})
	ok := apitest.BulkTemplate(t, srv)
	assert.Equal(t, []string{"template_error"}, apitest.EventTypes(srv, id))
	assert.Contains(t, evOnly(t, srv, id, "template_error").EventMessage, `"client_sig"`)
	assert.Equal(t, []string{"template_created"}, apitest.EventTypes(srv, ok))
}
