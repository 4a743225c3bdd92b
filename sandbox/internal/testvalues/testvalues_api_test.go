package testvalues_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/internal/testvalues"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// tvDelay is the default test_values_delay; tvProcessing the default
// send_processing_delay.
const (
	tvDelay      = 3 * time.Second
	tvProcessing = 2 * time.Second
)

// tvBody is a send body for signers (name, address pairs) that allows
// declining and reassigning; no fields, so the request has an appended
// signature page.
func tvBody(signers ...string) map[string]any {
	var list []map[string]any
	for i := 0; i+1 < len(signers); i += 2 {
		list = append(list, map[string]any{"name": signers[i], "email_address": signers[i+1]})
	}
	return map[string]any{"title": "Test values", "subject": "Please sign", "message": "Thanks.", "test_mode": true,
		"allow_decline": true, "allow_reassign": true, "signers": list}
}

// tvTimeline lists a request's events as "type@seconds" since t0.
func tvTimeline(srv *sandboxtest.Server, id string, t0 int64) []string {
	var out []string
	for _, c := range srv.Callbacks(sandboxtest.ObjectID(id)) {
		out = append(out, fmt.Sprintf("%s@%d", strings.TrimPrefix(c.EventType, "signature_request_"), c.EventTime-t0))
	}
	return out
}

// tvReceived lists the event types a receiver got about a request, in
// the order received.
func tvReceived(rcv *sandboxtest.Receiver, id string) []string {
	var out []string
	for _, d := range rcv.Deliveries() {
		if sr, ok := d.Payload["signature_request"].(map[string]any); ok && sr["signature_request_id"] == id {
			out = append(out, d.EventType())
		}
	}
	return out
}

// tvMails lists a request's e-mails as "kind to", with " (bounced)".
func tvMails(srv *sandboxtest.Server, id string) []string {
	var out []string
	for _, e := range srv.Emails("signature_request_id", id) {
		s := e.Kind + " " + e.To
		if e.Bounced {
			s += " (bounced)"
		}
		out = append(out, s)
	}
	return out
}

// TestTestValueSignerAddresses: each reserved address, sent to with the
// API on a fake clock: the signer acts exactly test_values_delay after
// the signing e-mail went out (invalid fails processing), with the events
// (delivered to the account callback as emitted), e-mails and statuses a
// person's action gives.
func TestTestValueSignerAddresses(t *testing.T) {
	owner := "owner@sandbox.example"
	cases := []struct {
		action   testvalues.Action
		timeline []string
		statuses []string
		mails    []string
		check    func(t *testing.T, srv *sandboxtest.Server, sr map[string]any, t0 int64)
	}{
		{
			action:   testvalues.Sign,
			timeline: []string{"sent@2", "viewed@5", "signed@5", "all_signed@5", "downloadable@10"},
			statuses: []string{"signed"},
			mails:    []string{"signature_request jack@sign.signsandbox.test", "completed " + owner, "completed jack@sign.signsandbox.test"},
			check: func(t *testing.T, srv *sandboxtest.Server, sr map[string]any, _ int64) {
				rd := apitest.ResponseData(sr)
				assert.Equal(t, map[string]any{"api_id": "signature_page_1", "signature_id": apitest.SignatureID(sr, 0), "name": "Signature", "type": "signature",
					"required": true, "value": "Jack", "is_signed": true}, rd["signature_page_1"], "signed in the signer's box as the control plane's sign does")
				assert.NotNil(t, apitest.Signatures(sr)[0]["last_viewed_at"])
				f := srv.Do(http.MethodGet, "/v3/signature_request/files/"+sr["signature_request_id"].(string)+"?file_type=pdf", nil)
				require.Equal(t, http.StatusOK, f.Status, "%s", f.Body)
				merged := apitest.PDFText(t, f.Body)
				require.Contains(t, merged, "Signature page")
				sigPage := merged[strings.Index(merged, "Signature page"):]
				assert.Contains(t, sigPage, "Status: signed")
				assert.NotContains(t, sigPage, "(not signed)")
			},
		},
		{
			action:   testvalues.View,
			timeline: []string{"sent@2", "viewed@5"},
			statuses: []string{"awaiting_signature"},
			mails:    []string{"signature_request jack@view.signsandbox.test"},
			check: func(t *testing.T, _ *sandboxtest.Server, sr map[string]any, t0 int64) {
				assert.EqualValues(t, t0+5, apitest.Signatures(sr)[0]["last_viewed_at"])
			},
		},
		{
			action:   testvalues.Decline,
			timeline: []string{"sent@2", "viewed@5", "declined@5"},
			statuses: []string{"declined"},
			mails:    []string{"signature_request jack@decline.signsandbox.test", "declined " + owner},
			check: func(t *testing.T, _ *sandboxtest.Server, sr map[string]any, _ int64) {
				assert.Equal(t, testvalues.DeclineReason, apitest.Signatures(sr)[0]["decline_reason"])
				assert.Equal(t, true, sr["is_declined"])
			},
		},
		{
			action:   testvalues.Reassign,
			timeline: []string{"sent@2", "viewed@5", "reassigned@5", "viewed@8", "signed@8", "all_signed@8", "downloadable@13"},
			statuses: []string{"signed"},
			mails: []string{"signature_request jack@reassign.signsandbox.test", "reassigned jack@reassign.signsandbox.test",
				"signature_request jack@sign.signsandbox.test", "completed " + owner, "completed jack@sign.signsandbox.test"},
			check: func(t *testing.T, _ *sandboxtest.Server, sr map[string]any, _ int64) {
				sg := apitest.Signatures(sr)[0]
				assert.Equal(t, "jack@sign.signsandbox.test", sg["signer_email_address"])
				assert.Equal(t, "Jack (reassigned)", sg["signer_name"])
				assert.Equal(t, "Jack (reassigned)", apitest.ResponseData(sr)["signature_page_1"]["value"])
			},
		},
		{
			action:   testvalues.Bounce,
			timeline: []string{"sent@2", "email_bounce@5"},
			statuses: []string{"awaiting_signature"},
			mails:    []string{"signature_request jack@bounce.signsandbox.test (bounced)"},
		},
		{
			action:   testvalues.Expire,
			timeline: []string{"sent@2", "expired@5"},
			statuses: []string{"expired"},
			mails:    []string{"signature_request jack@expire.signsandbox.test"},
			check: func(t *testing.T, _ *sandboxtest.Server, sr map[string]any, t0 int64) {
				assert.EqualValues(t, t0+5, sr["expires_at"], "expires_at becomes the instant it expired")
			},
		},
		{
			action:   testvalues.Invalid,
			timeline: []string{"invalid@2"},
			statuses: []string{"error_invalid_email"},
			mails:    nil,
			check: func(t *testing.T, _ *sandboxtest.Server, sr map[string]any, _ int64) {
				assert.Equal(t, true, sr["has_error"])
			},
		},
	}
	require.Len(t, cases, len(testvalues.Actions), "every action has a row")
	for _, tc := range cases {
		t.Run(string(tc.action), func(t *testing.T) {
			srv := apitest.NewServer(t)
			rcv := apitest.NewReceiver(t)
			apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
			t0 := srv.Now().Unix()
			sr := apitest.SendRequest(t, srv, tvBody("Jack", testvalues.Address(tc.action, "jack")))
			id := sr["signature_request_id"].(string)

			srv.Advance(tvProcessing + tvDelay - time.Second)
			before := tvTimeline(srv, id, t0)
			assert.Equal(t, tc.timeline[:1], before, "nothing but processing before the delay has passed")
			srv.Advance(time.Second)
			srv.Advance(10 * time.Minute)
			srv.WaitCallbacks()

			assert.Equal(t, tc.timeline, tvTimeline(srv, id, t0))
			assert.Equal(t, apitest.EventTypes(srv, id), tvReceived(rcv, id), "the account callback receives every event, in order")
			got := apitest.GetRequestOK(t, srv, id)
			assert.Equal(t, tc.statuses, apitest.Statuses(got))
			assert.Equal(t, tc.mails, tvMails(srv, id))
			if tc.check != nil {
				tc.check(t, srv, got, t0)
			}
		})
	}
}

// tvSettle moves the clock far enough for every test value and file
// preparation to have happened.
func tvSettle(srv *sandboxtest.Server) { srv.Advance(time.Hour) }

// TestTestValueSignerFillsFieldsAsControlSign: a reserved signer fills
// their fields with the values the control plane's sign without values
// gives (validation samples, group requirements, conditional rules,
// dates), so response_data is identical to that of a request whose
// signers were signed through the control plane at the same instants.
func TestTestValueSignerFillsFieldsAsControlSign(t *testing.T) {
	body := func(a, b string) map[string]any {
		m := apitest.FieldsBody()
		m["signers"] = []map[string]any{{"name": "Jack", "email_address": a}, {"name": "Jill", "email_address": b}}
		ffs := m["form_fields_per_document"].([]map[string]any)
		ffs[0]["required"] = true // numbers_only text
		m["form_field_groups"].([]map[string]any)[0]["requirement"] = "require_1"
		ffs = append(ffs, map[string]any{"api_id": "f_zip", "name": "ZIP", "type": "text", "document_index": 0, "page": 1,
			"x": 100, "y": 300, "width": 100, "height": 20, "required": true, "signer": 1, "validation_type": "zip_code"})
		m["form_fields_per_document"] = ffs
		return m
	}
	values := func(sr map[string]any) map[string]any {
		out := map[string]any{}
		for id, rd := range apitest.ResponseData(sr) {
			out[id] = []any{rd["type"], rd["value"], rd["is_signed"], rd["required"]}
		}
		return out
	}

	reserved := apitest.NewServer(t)
	sr := apitest.SendRequest(t, reserved, body("jack@sign.signsandbox.test", "jill@sign.signsandbox.test"))
	id := sr["signature_request_id"].(string)
	tvSettle(reserved)
	got := apitest.GetRequestOK(t, reserved, id)
	require.Equal(t, []string{"signed", "signed"}, apitest.Statuses(got))

	control := apitest.NewServer(t)
	sr = apitest.SendRequest(t, control, body("jack@example.com", "jill@example.com"))
	control.Advance(tvProcessing + tvDelay)
	control.Sign(apitest.SignatureID(sr, 0), nil)
	control.Sign(apitest.SignatureID(sr, 1), nil)
	want := apitest.GetRequestOK(t, control, sr["signature_request_id"].(string))

	assert.Equal(t, values(want), values(got))
	assert.Equal(t, []any{"text", "94105", nil, true}, values(got)["f_zip"], "a sample valid for zip_code")
}

// TestTestValueOrderedSigners: an ordered reserved signer acts only when
// their turn comes, test_values_delay after the signer before them signed.
func TestTestValueOrderedSigners(t *testing.T) {
	srv := apitest.NewServer(t)
	t0 := srv.Now().Unix()
	body := tvBody()
	body["signers"] = []map[string]any{
		{"name": "Jack", "email_address": "jack@example.com", "order": 0},
		{"name": "Jill", "email_address": "jill@sign.signsandbox.test", "order": 1},
	}
	sr := apitest.SendRequest(t, srv, body)
	id := sr["signature_request_id"].(string)
	srv.Advance(time.Hour)
	assert.Equal(t, []string{"sent@2"}, tvTimeline(srv, id, t0), "Jill waits for her turn")
	srv.Sign(apitest.SignatureID(sr, 0), nil) // at t0+1h
	srv.Advance(tvDelay)
	assert.Equal(t, []string{"sent@2", "signed@3600", "viewed@3603", "signed@3603", "all_signed@3603"}, tvTimeline(srv, id, t0))

	// Two reserved ordered signers: one after the other.
	t0 = srv.Now().Unix()
	body["signers"] = []map[string]any{
		{"name": "Jack", "email_address": "jack@sign.signsandbox.test", "order": 0},
		{"name": "Jill", "email_address": "jill@decline.signsandbox.test", "order": 1},
	}
	sr = apitest.SendRequest(t, srv, body)
	tvSettle(srv)
	assert.Equal(t, []string{"sent@2", "viewed@5", "signed@5", "viewed@8", "declined@8"}, tvTimeline(srv, sr["signature_request_id"].(string), t0))
}

// TestTestValuesActEverywhereASignerAppears: reserved signers act on
// requests sent with templates, embedded requests, requests from claimed
// drafts and held drafts once released, bulk sends, edited requests, after
// a reassignment or an update to a reserved address, and in signer groups.
func TestTestValuesActEverywhereASignerAppears(t *testing.T) {
	signed := func(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
		t.Helper()
		tvSettle(srv)
		got := apitest.GetRequestOK(t, srv, id)
		assert.Equal(t, true, got["is_complete"], "%v %v", apitest.Statuses(got), apitest.EventTypes(srv, id))
		return got
	}

	t.Run("send_with_template", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.TemplateSendBody(apitest.ReadyTemplate(t, srv))
		body["signers"] = []map[string]any{
			{"role": "Witness", "name": "Wanda Witness", "email_address": "wanda@sign.signsandbox.test"},
			{"role": "Client", "name": "Carl Client", "email_address": "carl@sign.signsandbox.test"},
		}
		sr := apitest.SendWithTemplate(t, srv, srv.APIKey, body)["signature_request"].(map[string]any)
		got := signed(t, srv, sr["signature_request_id"].(string))
		assert.Equal(t, "Sample", apitest.ResponseData(got)["wit_name"]["value"], "letters_only sample")
	})

	t.Run("create_embedded", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := tvBody("Jack", "jack@sign.signsandbox.test", "Jill", "jill@bounce.signsandbox.test")
		body["client_id"] = apitest.ClientID
		r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", body)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
		tvSettle(srv)
		got := apitest.GetRequestOK(t, srv, id)
		assert.Equal(t, []string{"signed", "awaiting_signature"}, apitest.Statuses(got), "an embedded signer gets no e-mail, so nothing bounces")
		assert.NotContains(t, apitest.EventTypes(srv, id), "signature_request_email_bounce")
		assert.Empty(t, srv.Emails("signature_request_id", id))
	})

	t.Run("claimed unclaimed draft", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.EmbeddedDraftBody()
		body["signers"] = []map[string]any{{"name": "Jill", "email_address": "jill@sign.signsandbox.test"}}
		d := apitest.Draft(t, srv, "create_embedded", body)
		r := apitest.Claim(t, srv, srv.APIKey, d["signature_request_id"].(string), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signed(t, srv, d["signature_request_id"].(string))
	})

	t.Run("held draft released", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.EmbeddedDraftBody()
		body["signers"] = []map[string]any{{"name": "Jill", "email_address": "jill@sign.signsandbox.test"}}
		body["hold_request"] = true
		d := apitest.Draft(t, srv, "create_embedded", body)
		id := d["signature_request_id"].(string)
		require.Equal(t, http.StatusOK, apitest.Claim(t, srv, srv.APIKey, id, nil).Status)
		tvSettle(srv)
		assert.Equal(t, []string{"on_hold_by_requester"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)), "held: nobody is asked yet")
		r := srv.Do(http.MethodPost, "/v3/signature_request/release_hold/"+id, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signed(t, srv, id)
	})

	t.Run("bulk_send_with_template", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.BulkBody(apitest.BulkTemplate(t, srv))
		body["signer_list"] = []map[string]any{
			apitest.BulkEntry("George", "george@sign.signsandbox.test", "ABC Corp"),
			apitest.BulkEntry("Mary", "mary@view.signsandbox.test", "123 LLC"),
		}
		job := apitest.BulkJob(t, srv, "bulk_send_with_template", body)
		tvSettle(srv)
		var statuses []string
		for _, sr := range apitest.BulkRequests(apitest.BulkGetOK(t, srv, job["bulk_send_job_id"].(string), "")) {
			statuses = append(statuses, apitest.Statuses(sr)...)
		}
		assert.ElementsMatch(t, []string{"signed", "awaiting_signature"}, statuses)
	})

	t.Run("edit and resend", func(t *testing.T) {
		srv := apitest.NewServer(t)
		sr := apitest.SendRequest(t, srv, tvBody("Jack", "jack@sign.signsandbox.test"))
		id := sr["signature_request_id"].(string)
		srv.Advance(tvProcessing) // Jack's action is queued
		edit := tvBody("Joan", "joan@example.com")
		r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, edit, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(1)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		tvSettle(srv)
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)), "the edit dropped Jack's queued action")

		edit = tvBody("Joan", "joan@sign.signsandbox.test")
		r = apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, edit, apitest.PDFFile{Name: "v3.pdf", Data: apitest.PDF(1)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signed(t, srv, id)
	})

	t.Run("reassigned to a reserved address", func(t *testing.T) {
		srv := apitest.NewServer(t)
		sr := apitest.SendRequest(t, srv, tvBody("Jack", "jack@example.com"))
		id := sr["signature_request_id"].(string)
		srv.Advance(tvProcessing)
		srv.Reassign(apitest.SignatureID(sr, 0), "Kim", "kim@sign.signsandbox.test", "away")
		got := signed(t, srv, id)
		assert.Equal(t, "kim@sign.signsandbox.test", apitest.Signatures(got)[0]["signer_email_address"])
	})

	t.Run("updated to a reserved address", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := tvBody()
		body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
		body["form_fields_per_document"] = []map[string]any{{"api_id": "s", "name": "s", "type": "signature", "document_index": 0,
			"page": 1, "x": 100, "y": 100, "width": 100, "height": 20, "required": true, "signer": 0}}
		sr := apitest.SendRequest(t, srv, body)
		id := sr["signature_request_id"].(string)
		srv.Advance(tvProcessing)
		r := apitest.UpdateRequest(srv, id, map[string]any{"signature_id": apitest.SignatureID(sr, 0), "email_address": "jack@sign.signsandbox.test"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signed(t, srv, id)
	})

	t.Run("signer group", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := tvBody()
		delete(body, "signers")
		body["grouped_signers"] = []map[string]any{
			{"group": "Parents", "order": 0, "signers": []map[string]any{
				{"name": "Mum", "email_address": "mum@example.com"}, {"name": "Dad", "email_address": "dad@sign.signsandbox.test"}}},
			{"group": "School", "order": 1, "signers": []map[string]any{{"name": "Head", "email_address": "head@sign.signsandbox.test"}}},
		}
		sr := apitest.SendRequest(t, srv, body)
		id := sr["signature_request_id"].(string)
		got := signed(t, srv, id)
		assert.Equal(t, []string{"signed", "signed", "signed"}, apitest.Statuses(got), "Dad signed for the parents, then Head")
		var signedBy []string
		for _, c := range srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_signed")) {
			signedBy = append(signedBy, c.RelatedSignatureID)
		}
		assert.Equal(t, []string{apitest.SignatureID(sr, 1), apitest.SignatureID(sr, 2)}, signedBy)
	})
}

// TestTestValuesNeverTouchOtherAddresses: only an address whose domain is
// exactly <action>.signsandbox.test acts (its case does not matter, as
// mail domains' does not); every other address behaves as before.
func TestTestValuesNeverTouchOtherAddresses(t *testing.T) {
	srv := apitest.NewServer(t)
	t0 := srv.Now().Unix()
	others := []string{"jack@example.com", "x@sign.signsandbox.test.example.com", "x@notsign.signsandbox.test",
		"x@signsandbox.test", "x@a.sign.signsandbox.test", "sign.signsandbox.test@example.com", "x@sign-signsandbox.test"}
	var ids []string
	for _, addr := range others {
		ids = append(ids, apitest.SendRequest(t, srv, tvBody("X", addr))["signature_request_id"].(string))
	}
	upper := apitest.SendRequest(t, srv, tvBody("X", "x@SIGN.SIGNSANDBOX.TEST"))["signature_request_id"].(string)
	srv.Advance(24 * time.Hour)
	for i, id := range ids {
		assert.Equal(t, []string{"sent@2"}, tvTimeline(srv, id, t0), others[i])
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)), others[i])
	}
	assert.Equal(t, []string{"sent@2", "viewed@5", "signed@5", "all_signed@5", "downloadable@10"}, tvTimeline(srv, upper, t0))
}

// TestTestValuesCanBeTurnedOff: with the world configuration's
// test_values false, reserved addresses and trigger files are ordinary,
// also for an action already queued when the setting changed.
func TestTestValuesCanBeTurnedOff(t *testing.T) {
	srv := apitest.NewServer(t)
	var cfg map[string]any
	srv.Control(http.MethodGet, "/config", nil, &cfg)
	assert.Equal(t, true, cfg["test_values"], "on by default")
	assert.Equal(t, "3s", cfg["test_values_delay"])

	queued := apitest.SendRequest(t, srv, tvBody("Jack", "jack@sign.signsandbox.test"))["signature_request_id"].(string)
	srv.Advance(tvProcessing)
	srv.Control(http.MethodPatch, "/config", map[string]any{"test_values": false}, &cfg)
	assert.Equal(t, false, cfg["test_values"])

	var ids []string
	for _, a := range testvalues.Actions {
		ids = append(ids, apitest.SendRequest(t, srv, tvBody("Jack", testvalues.Address(a, "jack")))["signature_request_id"].(string))
	}
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", tvBody("Jack", "jack@example.com"),
		apitest.PDFFile{Name: testvalues.FileName(testvalues.ErrorFile), Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	ids = append(ids, r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string), queued)
	srv.Advance(24 * time.Hour)
	for _, id := range ids {
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
		assert.Equal(t, []string{"signature_request_sent"}, apitest.EventTypes(srv, id))
	}

	srv.Control(http.MethodPatch, "/config", map[string]any{"test_values": true, "test_values_delay": "1m"}, &cfg)
	assert.Equal(t, "1m0s", cfg["test_values_delay"])
	t0 := srv.Now().Unix()
	id := apitest.SendRequest(t, srv, tvBody("Jack", "jack@view.signsandbox.test"))["signature_request_id"].(string)
	tvSettle(srv)
	assert.Equal(t, []string{"sent@2", "viewed@62"}, tvTimeline(srv, id, t0), "test_values_delay sets the delay")

	srv.Control(http.MethodPatch, "/config", map[string]any{"test_values_delay": "0s"}, &cfg)
	assert.Equal(t, "3s", cfg["test_values_delay"], "0s restores the default")

	// A scenario file's configuration turns them off too.
	other := apitest.NewServer(t)
	apitest.LoadScenarioOK(t, other, other.APIKey, "name: strict\nconfig:\n  test_values: false\n  test_values_delay: 10s\n")
	other.Control(http.MethodGet, "/config", nil, &cfg)
	assert.Equal(t, false, cfg["test_values"])
	assert.Equal(t, "10s", cfg["test_values_delay"])

	bad := srv.Do(http.MethodPatch, "/_sandbox/config", map[string]any{"test_values_delay": "-1s"})
	apitest.WantError(t, bad, http.StatusBadRequest, "bad_request", "test_values_delay")
	bad = srv.Do(http.MethodPatch, "/_sandbox/config", map[string]any{"test_values": "maybe"})
	require.Equal(t, http.StatusBadRequest, bad.Status, "%s", bad.Body)
}

// TestTestValueActionsTheRequestRefuses: a reserved signer meets the rules
// a person meets: without allow_decline or allow_reassign they only view.
func TestTestValueActionsTheRequestRefuses(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, a := range []testvalues.Action{testvalues.Decline, testvalues.Reassign} {
		t0 := srv.Now().Unix()
		body := tvBody("Jack", testvalues.Address(a, "jack"))
		body["allow_decline"], body["allow_reassign"] = false, false
		id := apitest.SendRequest(t, srv, body)["signature_request_id"].(string)
		tvSettle(srv)
		assert.Equal(t, []string{"sent@2", "viewed@5"}, tvTimeline(srv, id, t0), string(a))
		assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)), string(a))
	}

	// A required custom_regex field cannot be guessed: the signer views only.
	t0 := srv.Now().Unix()
	body := tvBody("Jack", "jack@sign.signsandbox.test")
	body["form_fields_per_document"] = []map[string]any{{"api_id": "code", "name": "Code", "type": "text", "document_index": 0,
		"page": 1, "x": 100, "y": 100, "width": 100, "height": 20, "required": true, "signer": 0,
		"validation_type": "custom_regex", "validation_custom_regex": "^[A-Z]{3}$"}}
	id := apitest.SendRequest(t, srv, body)["signature_request_id"].(string)
	tvSettle(srv)
	assert.Equal(t, []string{"sent@2", "viewed@5"}, tvTimeline(srv, id, t0))
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, id)))
}

// TestTestValueInvalidAddressLater: an invalid address that an update
// brings after processing fails the request test_values_delay later, while
// nobody has signed; once someone has, it does nothing.
func TestTestValueInvalidAddressLater(t *testing.T) {
	srv := apitest.NewServer(t)
	body := tvBody()
	body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}}
	body["form_fields_per_document"] = []map[string]any{
		{"api_id": "s0", "name": "s0", "type": "signature", "document_index": 0, "page": 1, "x": 100, "y": 100, "width": 100, "height": 20, "required": true, "signer": 0},
		{"api_id": "s1", "name": "s1", "type": "signature", "document_index": 0, "page": 1, "x": 100, "y": 200, "width": 100, "height": 20, "required": true, "signer": 1},
	}
	update := func(sr map[string]any) map[string]any {
		r := apitest.UpdateRequest(srv, sr["signature_request_id"].(string), map[string]any{"signature_id": apitest.SignatureID(sr, 1), "email_address": "jill@invalid.signsandbox.test"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		tvSettle(srv)
		return apitest.GetRequestOK(t, srv, sr["signature_request_id"].(string))
	}

	sr := apitest.SendRequest(t, srv, body)
	srv.Advance(tvProcessing)
	got := update(sr)
	assert.Equal(t, []string{"awaiting_signature", "error_invalid_email"}, apitest.Statuses(got))
	assert.Equal(t, "signature_request_invalid", apitest.EventTypes(srv, sr["signature_request_id"].(string))[1])

	sr = apitest.SendRequest(t, srv, body)
	srv.Advance(tvProcessing)
	srv.Sign(apitest.SignatureID(sr, 0), nil)
	got = update(sr)
	assert.Equal(t, []string{"signed", "awaiting_signature"}, apitest.Statuses(got), "too late to fail")
}

// TestTestValueJobSurvivesExport: a reserved signer's queued action is
// part of the world's state: imported elsewhere, it still happens.
func TestTestValueJobSurvivesExport(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.SendRequest(t, srv, tvBody("Jack", "jack@sign.signsandbox.test"))["signature_request_id"].(string)
	srv.Advance(tvProcessing)
	got := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, got.Status)
	assert.Contains(t, string(got.Body), "signature_request.test_value")
	other := apitest.NewServer(t)
	r := other.Do(http.MethodPut, "/_sandbox/state", got.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	other.Advance(tvDelay)
	assert.Equal(t, []string{"signed"}, apitest.Statuses(apitest.GetRequestOK(t, other, id)))
}

// TestTestValueFiles: a document whose name or bytes ask for a processing
// failure fails the request with that status and its event, as the real
// failure of that kind does; a template with one fails with
// template_error.
func TestTestValueFiles(t *testing.T) {
	srv := apitest.NewServer(t)
	// pdftest writes page text uncompressed, as the marker needs.
	pdfSaying := func(text string) []byte { return pdftest.MakePDF(pdftest.Letter(text)) }
	cases := []struct {
		file   apitest.File
		status string
		event  string
	}{
		{apitest.File{Name: "error_file.signsandbox-test.pdf", ContentType: "application/pdf", Data: apitest.PDF(1)}, "error_file", "file_error"},
		{apitest.File{Name: "Contract.ERROR_TEXT_TAG.signsandbox-test.pdf", ContentType: "application/pdf", Data: apitest.PDF(1)}, "error_text_tag", "signature_request_invalid"},
		{apitest.File{Name: "error_component_position.signsandbox-test.pdf", ContentType: "application/pdf", Data: apitest.PDF(1)}, "error_component_position", "signature_request_invalid"},
		{apitest.File{Name: "error_unknown.signsandbox-test.pdf", ContentType: "application/pdf", Data: apitest.PDF(1)}, "error_unknown", "unknown_error"},
		{apitest.File{Name: "notes.txt", ContentType: "text/plain", Data: []byte("Terms.\nSIGNSANDBOX_TEST:error_text_tag\n")}, "error_text_tag", "signature_request_invalid"},
		{apitest.File{Name: "contract.pdf", ContentType: "application/pdf", Data: pdfSaying("SIGNSANDBOX_TEST:error_component_position")}, "error_component_position", "signature_request_invalid"},
	}
	for _, tc := range cases {
		r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", tvBody("Jack", "jack@example.com", "Jill", "jill@example.com"), tc.file)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
		srv.Advance(tvProcessing)
		got := apitest.GetRequestOK(t, srv, id)
		assert.Equal(t, []string{tc.status, tc.status}, apitest.Statuses(got), tc.file.Name)
		assert.Equal(t, true, got["has_error"], tc.file.Name)
		assert.Equal(t, []string{tc.event}, apitest.EventTypes(srv, id), tc.file.Name)
		assert.Empty(t, srv.Emails("signature_request_id", id), "nobody is asked to sign")
		c := srv.Callbacks(sandboxtest.ObjectID(id))[0]
		assert.Contains(t, c.EventMessage, "signsandbox test value "+tc.status)
	}

	// A marker needs its whole status code.
	r := apitest.SendMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", tvBody("Jack", "jack@example.com"),
		apitest.File{Name: "notes.txt", ContentType: "text/plain", Data: []byte("SIGNSANDBOX_TEST:error_files")})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(tvProcessing)
	assert.Equal(t, []string{"awaiting_signature"}, apitest.Statuses(apitest.GetRequestOK(t, srv, r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string))))

	tid := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "error_file.signsandbox-test.pdf", Data: apitest.SamplePDF(t)})
	srv.Advance(apitest.TemplatePrepDelay)
	errs := apitest.Events(srv, "template_error", tid)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].EventMessage, "signsandbox test value error_file")
}

// TestTestValuesOnARealClock: on a world whose clock is the wall time,
// reserved signers act by themselves, with no advance and no control call
// but the configuration; the callbacks arrive as they happen. The test
// waits on the receiver, never for a fixed time.
func TestTestValuesOnARealClock(t *testing.T) {
	if testing.Short() {
		t.Skip("real clock")
	}
	srv := apitest.NewServer(t, sandbox.WithRealClock())
	var cfg map[string]any
	srv.Control(http.MethodPatch, "/config", map[string]any{
		"send_processing_delay": "100ms", "test_values_delay": "200ms", "file_preparation_delay": "100ms",
	}, &cfg)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	want := map[testvalues.Action][]string{
		testvalues.Sign:    {"signature_request_sent", "signature_request_viewed", "signature_request_signed", "signature_request_all_signed", "signature_request_downloadable"},
		testvalues.View:    {"signature_request_sent", "signature_request_viewed"},
		testvalues.Decline: {"signature_request_sent", "signature_request_viewed", "signature_request_declined"},
		testvalues.Bounce:  {"signature_request_sent", "signature_request_email_bounce"},
		testvalues.Expire:  {"signature_request_sent", "signature_request_expired"},
		testvalues.Invalid: {"signature_request_invalid"},
	}
	ids := map[testvalues.Action]string{}
	for a := range want {
		ids[a] = apitest.SendRequest(t, srv, tvBody("Jack", testvalues.Address(a, "jack")))["signature_request_id"].(string)
	}
	ordered := tvBody()
	ordered["signers"] = []map[string]any{
		{"name": "Jack", "email_address": "jack@sign.signsandbox.test", "order": 0},
		{"name": "Jill", "email_address": "jill@sign.signsandbox.test", "order": 1},
	}
	orderedID := apitest.SendRequest(t, srv, ordered)["signature_request_id"].(string)

	done := func() bool {
		for a, events := range want {
			if len(tvReceived(rcv, ids[a])) < len(events) {
				return false
			}
		}
		return len(tvReceived(rcv, orderedID)) >= 7
	}
	require.Eventually(t, done, 30*time.Second, 20*time.Millisecond, "every reserved signer acted by themselves")
	for a, events := range want {
		assert.Equal(t, events, tvReceived(rcv, ids[a]), string(a))
	}
	assert.Equal(t, []string{"signature_request_sent", "signature_request_viewed", "signature_request_signed",
		"signature_request_viewed", "signature_request_signed", "signature_request_all_signed", "signature_request_downloadable"},
		tvReceived(rcv, orderedID), "Jill signs after Jack")
}

// TestTestValuesAreDocumented: docs/test-values.md has a row for every
// reserved address and every file trigger, with its name and text marker.
func TestTestValuesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/test-values.md")
	require.NoError(t, err)
	for _, a := range testvalues.Actions {
		assert.Contains(t, string(doc), "| `"+testvalues.Address(a, "*")+"` |", "a row for %s", a)
	}
	for _, f := range testvalues.FileFailures {
		assert.Contains(t, string(doc), "| `"+f+testvalues.NameMarker+"` | `"+testvalues.TextMarker+f+"` |", "a row for %s", f)
	}
	assert.Contains(t, string(doc), testvalues.DeclineReason)
	assert.Contains(t, string(doc), testvalues.ReassignReason)
}
