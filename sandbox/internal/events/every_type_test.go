package events_test

// The proof for issue 6, "every event type, emitted by the transition that
// causes it": one world drives each of the 23 official event types through
// its cause (API calls, signer actions, clock advances, a scenario rule for
// the internal failure a sandbox cannot meet on its own), and two receivers
// (the owner's account callback, the fixture app's callback) check every
// delivery: the official EventCallbackRequest schema (newCBReceiver),
// event_hash recomputed from the owner's primary key, event_time on the
// world clock, the attached object the type calls for, and the metadata the
// official description documents.

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// officialEventTypes is the enum of EventCallbackRequestEvent.event_type in
// the official order (checked against the description when it is present).
var officialEventTypes = []string{
	"account_confirmed", "unknown_error", "file_error", "sign_url_invalid", "signature_request_viewed",
	"signature_request_signed", "signature_request_sent", "signature_request_all_signed",
	"signature_request_email_bounce", "signature_request_remind", "signature_request_incomplete_qes",
	"signature_request_destroyed", "signature_request_canceled", "signature_request_downloadable",
	"signature_request_declined", "signature_request_reassigned", "signature_request_invalid",
	"signature_request_prepared", "signature_request_expired", "template_created", "template_error",
	"callback_test", "signature_request_signer_removed",
}

// eventCause is what one event type's delivery must show.
type eventCause struct {
	object  string   // object id ("" for callback_test)
	related []string // event_metadata.related_signature_id is one of them (none: not checked)
	message string   // event_metadata.event_message must contain it ("" when none)
}

func TestEveryOfficialEventType(t *testing.T) {
	if spec := conformance.LoadIfPresent(); spec != nil {
		enum := spec.Doc.Components.Schemas["EventCallbackRequestEvent"].Value.Properties["event_type"].Value.Enum
		var names []string
		for _, v := range enum {
			names = append(names, v.(string))
		}
		require.Equal(t, officialEventTypes, names, "the official enum")
	}
	srv := apitest.ScenarioServer(t)
	acct, app := apitest.NewReceiver(t), apitest.NewReceiver(t)
	want := map[string]eventCause{}
	sendAs := func(body map[string]any) map[string]any { return apitest.SendRequest(t, srv, body) }
	processed := func() { srv.AdvanceAndWait(time.Minute) }

	// callback_test: setting the account's and the app's callback URLs.
	apitest.SetCallbackURL(t, srv, srv.APIKey, acct.URL)
	r := srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"callback_url": app.URL})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	want["callback_test"] = eventCause{}

	// unknown_error: the one cause injected by a rule (an internal failure).
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: internal-failure\nrules:\n  - match: {fields: {title: Internal}}\n    fail_processing: {status_code: error_unknown, message: Backend exploded.}\n")

	// template_created and template_error: a template prepared, and one
	// whose file is not really a PDF.
	tplOK := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	tplBad := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "scan.pdf", Data: []byte("not a PDF at all")})
	want["template_created"] = eventCause{object: tplOK}
	want["template_error"] = eventCause{object: tplBad, message: "scan.pdf"}

	// account_confirmed: an account created through the app confirms.
	r = srv.Do(http.MethodPost, "/v3/account/create", map[string]any{
		"email_address": "joiner@example.com", "client_id": apitest.ClientID, "client_secret": apitest.AppSecret})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	newAccount := r.Map()["account"].(map[string]any)["account_id"].(string)
	srv.Control(http.MethodPost, "/accounts/"+newAccount+"/confirm", nil, nil)
	want["account_confirmed"] = eventCause{object: newAccount}

	// The life of a request made with the app: sent, reminded, bounced,
	// viewed, signed twice, all signed, downloadable, then removed.
	life := apitest.TwoSigners()
	life["client_id"] = apitest.ClientID
	a := sendAs(life)
	aID, jack, jill := a["signature_request_id"].(string), apitest.SignatureID(a, 0), apitest.SignatureID(a, 1)
	processed()
	want["signature_request_sent"] = eventCause{object: aID}
	r = srv.Do(http.MethodPost, "/v3/signature_request/remind/"+aID, map[string]any{"email_address": "jack@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	want["signature_request_remind"] = eventCause{object: aID, related: []string{jack}}
	srv.Bounce(jack)
	want["signature_request_email_bounce"] = eventCause{object: aID, related: []string{jack}, message: "jack@example.com"}
	srv.View(jack)
	want["signature_request_viewed"] = eventCause{object: aID, related: []string{jack}}
	srv.Sign(jack, nil)
	want["signature_request_signed"] = eventCause{object: aID, related: []string{jack, jill}}
	srv.Sign(jill, nil)
	want["signature_request_all_signed"] = eventCause{object: aID, related: []string{jill}}
	processed()
	want["signature_request_downloadable"] = eventCause{object: aID}
	r = srv.Do(http.MethodPost, "/v3/signature_request/remove/"+aID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	want["signature_request_destroyed"] = eventCause{object: aID}

	// declined, reassigned, canceled, expired.
	declining := apitest.TwoSigners()
	declining["allow_decline"] = true
	b := sendAs(declining)
	reassigning := apitest.TwoSigners()
	reassigning["allow_reassign"] = true
	c := sendAs(reassigning)
	d := sendAs(apitest.TwoSigners())
	expiring := apitest.TwoSigners()
	expiring["expires_at"] = srv.Now().Add(3 * 24 * time.Hour).Unix()
	e := sendAs(expiring)
	processed()
	srv.Decline(apitest.SignatureID(b, 0), "Not this quarter.")
	want["signature_request_declined"] = eventCause{object: b["signature_request_id"].(string), related: []string{apitest.SignatureID(b, 0)}, message: "Not this quarter."}
	srv.Reassign(apitest.SignatureID(c, 0), "Jo", "jo@example.com", "On leave.")
	want["signature_request_reassigned"] = eventCause{object: c["signature_request_id"].(string), related: []string{apitest.SignatureID(c, 0)}, message: "On leave."}
	r = srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+d["signature_request_id"].(string), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	processed()
	want["signature_request_canceled"] = eventCause{object: d["signature_request_id"].(string)}
	want["signature_request_expired"] = eventCause{object: e["signature_request_id"].(string)}

	// file_error, unknown_error, signature_request_invalid: processing fails.
	broken := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", apitest.TwoSigners(),
		apitest.PDFFile{Name: "broken.pdf", Data: []byte("%PDF-1.7 truncated")})
	require.Equal(t, http.StatusOK, broken.Status, "%s", broken.Body)
	internal := apitest.TwoSigners()
	internal["title"] = "Internal"
	f := sendAs(internal)
	offPage := apitest.PlacementBody(apitest.SignatureField("lost", 100, 900, 120, 30))
	g := sendAs(offPage)
	processed()
	want["file_error"] = eventCause{object: broken.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)}
	want["unknown_error"] = eventCause{object: f["signature_request_id"].(string), message: "Backend exploded."}
	want["signature_request_invalid"] = eventCause{object: g["signature_request_id"].(string), message: `"lost"`}

	// signature_request_prepared: a draft held for its requester is claimed.
	held := apitest.EmbeddedDraftBody()
	held["hold_request"] = true
	draft := apitest.Draft(t, srv, "create_embedded", held)
	srv.ClaimDraft(draft["signature_request_id"].(string), nil)
	processed()
	want["signature_request_prepared"] = eventCause{object: draft["signature_request_id"].(string)}

	// sign_url_invalid: an embedded sign URL opened after it expired.
	h := apitest.CreateEmbeddedRequest(t, srv)
	processed()
	r = apitest.SignURL(t, srv, apitest.SignatureID(h, 0))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	signURL := r.Map()["embedded"].(map[string]any)["sign_url"].(string)
	srv.Advance(2 * time.Hour)
	status, _ := apitest.FetchPage(t, http.MethodGet, signURL, nil)
	require.Equal(t, http.StatusGone, status)
	want["sign_url_invalid"] = eventCause{object: h["signature_request_id"].(string), related: []string{apitest.SignatureID(h, 0)}}

	// signature_request_incomplete_qes: an eID signer leaves the step.
	eid := apitest.PlacementBody()
	eid["test_mode"], eid["is_eid"] = false, true
	q := sendAs(eid)
	processed()
	srv.EIDIncomplete(apitest.SignatureID(q, 0), "")
	want["signature_request_incomplete_qes"] = eventCause{object: q["signature_request_id"].(string), related: []string{apitest.SignatureID(q, 0)}, message: "eID"}

	// signature_request_signer_removed: an edit leaves a signer out.
	k := sendAs(apitest.TwoSigners())
	processed()
	edit := apitest.TwoSigners()
	edit["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
	r = apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+k["signature_request_id"].(string), edit, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	want["signature_request_signer_removed"] = eventCause{object: k["signature_request_id"].(string), related: []string{apitest.SignatureID(k, 1)}, message: "jill@example.com"}

	// The expiry falls due; every due delivery is made.
	srv.AdvanceAndWait(3 * 24 * time.Hour)

	require.ElementsMatch(t, officialEventTypes, keysOf(want), "a cause for every official event type")
	deliveries := append(acct.Events(), app.Events()...)
	now := srv.Now().Unix()
	for _, typ := range officialEventTypes {
		t.Run(typ, func(t *testing.T) {
			cause := want[typ]
			var matched []sandboxtest.Delivery
			for _, dl := range deliveries {
				if dl.EventType() == typ && deliveredObjectID(dl) == cause.object {
					matched = append(matched, dl)
				}
			}
			require.NotEmpty(t, matched, "%s is delivered for %s", typ, cause.object)
			for _, dl := range matched {
				checkDelivery(t, dl, cause, now)
			}
		})
	}
	for _, dl := range app.Events() {
		assert.Equal(t, apitest.ClientID, dl.Metadata()["reported_for_app_id"], "app callbacks: %s", dl.EventType())
	}
	appTypes := map[string]bool{}
	for _, dl := range app.Events() {
		appTypes[dl.EventType()] = true
	}
	for _, typ := range []string{"callback_test", "account_confirmed", "signature_request_sent", "signature_request_all_signed", "sign_url_invalid", "signature_request_prepared"} {
		assert.True(t, appTypes[typ], "the app callback hears %s", typ)
	}
}

// checkDelivery checks one delivery against its cause and the documented
// metadata.
func checkDelivery(t *testing.T, d sandboxtest.Delivery, cause eventCause, now int64) {
	t.Helper()
	typ := d.EventType()
	assert.True(t, d.VerifyHash(apitest.OwnerKey), "event_hash of %s", typ)
	at, err := strconv.ParseInt(d.EventTime(), 10, 64)
	require.NoError(t, err, "event_time is a string of Unix seconds")
	assert.True(t, at >= sandboxtest.Start.Unix() && at <= now, "event_time %d on the world clock", at)

	md := d.Metadata()
	if d.IsAppCallback() {
		assert.Equal(t, apitest.ClientID, md["reported_for_app_id"])
	} else {
		assert.Equal(t, apitest.OwnerID, md["reported_for_account_id"], "account callbacks report for their account")
		assert.Nil(t, md["reported_for_app_id"])
	}
	if len(cause.related) > 0 {
		assert.Contains(t, cause.related, md["related_signature_id"], "related_signature_id of %s", typ)
	} else {
		assert.Nil(t, md["related_signature_id"], "%s is about no one signer", typ)
	}
	if cause.message != "" {
		assert.Contains(t, md["event_message"], cause.message, "event_message of %s", typ)
	}

	objects := []string{}
	for _, k := range []string{"signature_request", "template", "account"} {
		if _, ok := d.Payload[k]; ok {
			objects = append(objects, k)
		}
	}
	switch typ {
	case "callback_test":
		assert.Empty(t, objects, "callback_test carries no object")
	case "account_confirmed":
		assert.Equal(t, []string{"account"}, objects)
	case "template_created", "template_error":
		assert.Equal(t, []string{"template"}, objects)
	default:
		assert.Equal(t, []string{"signature_request"}, objects)
	}
}

// deliveredObjectID is the id of a delivery's attached object ("" for
// none).
func deliveredObjectID(d sandboxtest.Delivery) string {
	for k, id := range map[string]string{"signature_request": "signature_request_id", "template": "template_id", "account": "account_id"} {
		if obj, ok := d.Payload[k].(map[string]any); ok {
			s, _ := obj[id].(string)
			return s
		}
	}
	return ""
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
