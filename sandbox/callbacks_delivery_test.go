package sandbox_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestCallbackTestWhenAccountCallbackIsSet: setting the account callback
// URL sends callback_test there, hashed with the account's primary key.
func TestCallbackTestWhenAccountCallbackIsSet(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL+"/account")
	st := srv.WaitCallbacks()
	assert.True(t, st.Settled)
	assert.Equal(t, 1, st.Delivered)

	got := rcv.Events("callback_test")
	require.Len(t, got, 1)
	d := got[0]
	assert.Equal(t, "/account", d.Path)
	assert.Contains(t, d.ContentType, "multipart/form-data; boundary=")
	assert.True(t, d.VerifyHash(srv.APIKey), "event_hash must verify with the primary API key")
	assert.False(t, d.IsAppCallback())
	assert.Equal(t, itoa(int(sandboxtest.Start.Unix())), d.EventTime())
	md := d.Metadata()
	assert.Equal(t, apitest.OwnerID, md["reported_for_account_id"])
	for _, k := range []string{"related_signature_id", "reported_for_app_id"} {
		v, present := md[k]
		assert.True(t, present, "%s is always sent (null when empty), as in the official examples", k)
		assert.Nil(t, v, k)
	}
	assert.NotContains(t, md, "event_message")
	assert.Len(t, d.Payload, 1, "callback_test carries no object")

	log := srv.Callbacks(sandboxtest.EventType("callback_test"))
	require.Len(t, log, 1)
	assert.Equal(t, "delivered", log[0].State)
	require.Len(t, log[0].Deliveries, 1)
	del := log[0].Deliveries[0]
	assert.Equal(t, "account", del.Kind)
	assert.Equal(t, rcv.URL+"/account", del.URL)
	require.Len(t, del.Attempts, 1)
	assert.Equal(t, http.StatusOK, del.Attempts[0].Status)
	assert.Equal(t, sandboxtest.Acknowledgement, del.Attempts[0].Body)
	assert.True(t, del.Attempts[0].Delivered)
	assert.JSONEq(t, d.JSON, string(del.Payload), "the log shows the payload that was sent")

	t.Run("same URL again sends nothing", func(t *testing.T) {
		apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL+"/account")
		apitest.SetCallbackURL(t, srv, srv.APIKey, "")
		srv.WaitCallbacks()
		assert.Len(t, srv.Callbacks(sandboxtest.EventType("callback_test")), 1)
	})
}

// TestAccountCallbacksRouteToEveryInvolvedAccount: an event involving
// several accounts reaches each one's callback with its own key and
// reported_for_account_id; accounts without a URL get nothing.
func TestAccountCallbacksRouteToEveryInvolvedAccount(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL+"/owner")
	apitest.SetCallbackURL(t, srv, apitest.TeammateKey, rcv.URL+"/teammate")
	srv.WaitCallbacks()

	cbEmit(t, srv, sandbox.CallbacksTestEvent{Type: "signature_request_declined",
		AccountIDs: []string{apitest.OwnerID, apitest.TeammateID, apitest.OwnerID, apitest.OutsiderID}, RelatedSignatureID: "sig1", EventMessage: "not today"})
	srv.WaitCallbacks()

	got := rcv.Events("signature_request_declined")
	require.Len(t, got, 2, "owner and teammate once each; the outsider has no callback URL")
	byPath := map[string]sandboxtest.Delivery{}
	for _, d := range got {
		byPath[d.Path] = d
	}
	assert.True(t, byPath["/owner"].VerifyHash(srv.APIKey))
	assert.True(t, byPath["/teammate"].VerifyHash(apitest.TeammateKey))
	assert.False(t, byPath["/teammate"].VerifyHash(srv.APIKey), "each account's own key")
	assert.Equal(t, apitest.OwnerID, byPath["/owner"].Metadata()["reported_for_account_id"])
	assert.Equal(t, apitest.TeammateID, byPath["/teammate"].Metadata()["reported_for_account_id"])
	assert.Equal(t, "sig1", byPath["/owner"].Metadata()["related_signature_id"])
	assert.Equal(t, "not today", byPath["/owner"].Metadata()["event_message"])

	log := srv.Callbacks(sandboxtest.EventType("signature_request_declined"))
	require.Len(t, log, 1)
	assert.Equal(t, "not today", log[0].EventMessage)
	assert.Equal(t, "sig1", log[0].RelatedSignatureID)
	assert.Len(t, log[0].Deliveries, 2)
}

// TestAppCallbacks: callback_test when an app's URL is set, events made
// with the app's client_id, and account_confirmed for an account created
// through the app, all signed with the app owner's primary key.
func TestAppCallbacks(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	require.NoError(t, sandbox.CallbacksSetAppURL(srv.Sandbox, "", apitest.ClientID, rcv.URL+"/app"))
	srv.WaitCallbacks()
	tests := rcv.Events("callback_test")
	require.Len(t, tests, 1)
	assert.True(t, tests[0].IsAppCallback())
	assert.Equal(t, apitest.ClientID, tests[0].Metadata()["reported_for_app_id"])
	assert.True(t, tests[0].VerifyHash(srv.APIKey), "app callbacks are hashed with the app owner's primary key")

	cbEmit(t, srv, sandbox.CallbacksTestEvent{Type: "signature_request_sent", AccountIDs: []string{apitest.TeammateID}, ClientID: apitest.ClientID})
	srv.WaitCallbacks()
	sent := rcv.Events("signature_request_sent")
	require.Len(t, sent, 1)
	assert.Equal(t, apitest.ClientID, sent[0].Metadata()["reported_for_app_id"])
	assert.Equal(t, apitest.TeammateID, sent[0].Metadata()["reported_for_account_id"], "the account the event is about")
	assert.True(t, sent[0].VerifyHash(srv.APIKey))

	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{
		"email_address": "newcomer@example.com", "client_id": apitest.ClientID, "client_secret": apitest.AppSecret})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var created struct {
		Account struct {
			AccountID string `json:"account_id"`
		} `json:"account"`
	}
	require.NoError(t, r.JSON(&created))
	newID := created.Account.AccountID

	var mails struct {
		Emails []struct {
			Kind string `json:"kind"`
			To   string `json:"to"`
		} `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?kind=account_confirmation", nil, &mails)
	require.Len(t, mails.Emails, 1, "account creation sends the confirmation e-mail")
	assert.Equal(t, "newcomer@example.com", mails.Emails[0].To)
	srv.WaitCallbacks()
	assert.Empty(t, rcv.Events("account_confirmed"), "not before the user confirms")

	var conf struct {
		EventID string `json:"event_id"`
	}
	srv.Control(http.MethodPost, "/accounts/"+newID+"/confirm", nil, &conf)
	assert.NotEmpty(t, conf.EventID)
	srv.WaitCallbacks()
	confirmed := rcv.Events("account_confirmed")
	require.Len(t, confirmed, 1)
	d := confirmed[0]
	assert.True(t, d.IsAppCallback())
	assert.Equal(t, apitest.ClientID, d.Metadata()["reported_for_app_id"])
	assert.Equal(t, newID, d.Metadata()["reported_for_account_id"])
	assert.True(t, d.VerifyHash(srv.APIKey))
	acct, _ := d.Payload["account"].(map[string]any)
	require.NotNil(t, acct, "account_confirmed carries the account")
	assert.Equal(t, newID, acct["account_id"])
	assert.Equal(t, "newcomer@example.com", acct["email_address"])

	again := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/accounts/"+newID+"/confirm", nil)
	assert.Equal(t, http.StatusConflict, again.Status)
	missing := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/accounts/nope/confirm", nil)
	assert.Equal(t, http.StatusNotFound, missing.Status)
}

// TestEventHashFollowsPrimaryKeyRotation: after another key becomes
// primary, later events are hashed with it; earlier ones keep the old key.
func TestEventHashFollowsPrimaryKeyRotation(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	oldKey := srv.APIKey
	apitest.SetCallbackURL(t, srv, oldKey, rcv.URL+"/before")
	srv.WaitCallbacks()

	newKey := "rotated-key-0123456789abcdef"
	srv.Control(http.MethodPost, "/api_keys", map[string]any{"key": newKey}, nil)
	cbEmit(t, srv, cbRequestEvent("signature_request_viewed"))
	srv.Control(http.MethodPost, "/api_keys/"+newKey+"/primary", nil, nil)
	cbEmit(t, srv, cbRequestEvent("signature_request_signed"))
	srv.WaitCallbacks()

	evs := rcv.Events()
	require.Len(t, evs, 3)
	assert.Equal(t, []string{"callback_test", "signature_request_viewed", "signature_request_signed"}, rcv.EventTypes())
	assert.True(t, evs[0].VerifyHash(oldKey))
	assert.True(t, evs[1].VerifyHash(oldKey), "emitted while the old key was primary")
	assert.True(t, evs[2].VerifyHash(newKey), "emitted after the rotation")
	assert.False(t, evs[2].VerifyHash(oldKey))
}

// TestReceiverDownForTwoHours: a receiver that fails gets every event, in
// order, once it is back and the clock passes the next retry; the log shows
// every attempt at its scheduled time.
func TestReceiverDownForTwoHours(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	t0 := srv.Now().Unix()
	rcv.Fail()
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	cbEmit(t, srv, cbRequestEvent("signature_request_sent"), cbRequestEvent("signature_request_viewed"))
	cbEmit(t, srv, cbRequestEvent("signature_request_signed"))
	srv.WaitCallbacks()

	srv.AdvanceAndWait(time.Hour)
	srv.AdvanceAndWait(time.Hour)
	assert.Empty(t, rcv.Events(), "nothing counts while the receiver fails")
	log := srv.Callbacks()
	require.Len(t, log, 4)
	head := log[0].Deliveries[0]
	assert.Equal(t, "pending", head.State)
	assert.Equal(t, []int64{0, 60, 180, 420, 900, 1860, 3780}, cbAttemptOffsets(head, t0),
		"attempts at 0, 1, 3, 7, 15, 31 and 63 minutes")
	for _, a := range head.Attempts {
		assert.Equal(t, http.StatusInternalServerError, a.Status)
		assert.Equal(t, "receiver is failing", a.Body)
		assert.Contains(t, a.Error, "answered 500")
	}
	assert.Equal(t, t0+127*60, head.NextAttemptAt)
	for _, e := range log[1:] {
		assert.Equal(t, "pending", e.State)
		assert.True(t, e.Deliveries[0].Waiting, "later events wait behind the first (per-target order)")
		assert.Empty(t, e.Deliveries[0].Attempts)
	}

	rcv.Ack()
	srv.AdvanceAndWait(7 * time.Minute)
	assert.Equal(t, []string{"callback_test", "signature_request_sent", "signature_request_viewed", "signature_request_signed"},
		rcv.EventTypes(), "every event arrives, in event order")
	for _, e := range srv.Callbacks() {
		assert.Equal(t, "delivered", e.State, e.EventType)
	}
	head = srv.Callbacks(sandboxtest.EventType("callback_test"))[0].Deliveries[0]
	require.Len(t, head.Attempts, 8)
	assert.True(t, head.Attempts[7].Delivered)
	assert.Equal(t, t0+127*60, head.Attempts[7].At)
	next := srv.Callbacks(sandboxtest.EventType("signature_request_sent"))[0].Deliveries[0]
	require.Len(t, next.Attempts, 1)
	assert.Equal(t, t0+127*60, next.Attempts[0].At, "the next event goes as soon as the queue frees up")
}

// TestDeliveryGivenUpAfterAboutThreeDays: 13 attempts over 68h15m, then the
// delivery fails and the next event of the queue starts its own schedule.
func TestDeliveryGivenUpAfterAboutThreeDays(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	t0 := srv.Now().Unix()
	rcv.Answer(http.StatusOK, "OK")
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	cbEmit(t, srv, cbRequestEvent("signature_request_sent"))
	srv.WaitCallbacks()
	srv.AdvanceAndWait(72 * time.Hour)

	first := srv.Callbacks(sandboxtest.EventType("callback_test"))[0]
	assert.Equal(t, "failed", first.State)
	d := first.Deliveries[0]
	require.Len(t, d.Attempts, 13)
	assert.Equal(t, int64(4095*60), d.Attempts[12].At-t0, "the last retry comes 68h15m after the first attempt")
	assert.Contains(t, d.Attempts[0].Error, "does not contain")
	assert.Zero(t, d.NextAttemptAt)

	second := srv.Callbacks(sandboxtest.EventType("signature_request_sent"))[0]
	assert.Equal(t, "pending", second.State)
	assert.Equal(t, int64(4095*60), second.Deliveries[0].Attempts[0].At-t0)
	st := srv.WaitCallbacks()
	assert.Equal(t, 1, st.Failed)
	assert.Equal(t, 1, st.Pending)

	failed := srv.Callbacks(sandboxtest.State("failed"))
	require.Len(t, failed, 1)
	assert.Equal(t, "callback_test", failed[0].EventType)
}

// TestRedeliver queues a delivered event again with the same payload.
func TestRedeliver(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	srv.WaitCallbacks()
	ev := srv.Callbacks()[0]

	out := srv.Redeliver(ev.ID)
	assert.Equal(t, "pending", out.State)
	srv.WaitCallbacks()
	got := rcv.Events("callback_test")
	require.Len(t, got, 2)
	assert.Equal(t, got[0].JSON, got[1].JSON, "a redelivery sends the original payload")
	d := srv.Callbacks()[0].Deliveries[0]
	require.Len(t, d.Attempts, 2)
	assert.Equal(t, 0, d.Attempts[0].Round)
	assert.Equal(t, 1, d.Attempts[1].Round)
	assert.Equal(t, "delivered", d.State)

	srv.Redeliver(d.ID) // by delivery id
	srv.WaitCallbacks()
	assert.Len(t, rcv.Events("callback_test"), 3)

	r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/callbacks/nope/redeliver", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)

	cbEmit(t, srv, sandbox.CallbacksTestEvent{Type: "signature_request_sent", AccountIDs: []string{apitest.OutsiderID}})
	noTarget := srv.Callbacks(sandboxtest.EventType("signature_request_sent"))
	require.Len(t, noTarget, 1)
	assert.Equal(t, "none", noTarget[0].State)
	r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/callbacks/"+noTarget[0].ID+"/redeliver", nil)
	assert.Equal(t, http.StatusBadRequest, r.Status)
}

// TestCallbackLogFilters: event_type, object_id and state narrow the log.
func TestCallbackLogFilters(t *testing.T) {
	srv := apitest.NewServer(t)
	cbEmit(t, srv,
		sandbox.CallbacksTestEvent{Type: "account_confirmed", ObjectType: "account", ObjectID: apitest.TeammateID, AccountIDs: []string{apitest.TeammateID}},
		cbRequestEvent("signature_request_sent"))
	all := srv.Callbacks()
	require.Len(t, all, 2)
	assert.Equal(t, "account_confirmed", all[0].EventType)
	var acct map[string]any
	require.NoError(t, json.Unmarshal(all[0].Object, &acct))
	assert.Equal(t, apitest.TeammateID, acct["account_id"], "the account object as GET /account shows it")
	assert.Len(t, srv.Callbacks(sandboxtest.ObjectID(apitest.TeammateID)), 1)
	assert.Len(t, srv.Callbacks(sandboxtest.EventType("signature_request_sent")), 1)
	assert.Len(t, srv.Callbacks(sandboxtest.State("none")), 2)
	assert.Empty(t, srv.Callbacks(sandboxtest.State("pending")))
}

// TestWaitTimeoutValidation: bad timeouts are refused with the field named.
func TestWaitTimeoutValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, v := range []any{"soon", "-1s", "11m", 0} {
		r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/callbacks/wait", map[string]any{"timeout": v})
		assert.Equal(t, http.StatusBadRequest, r.Status, "%v", v)
		_, _, path := apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "timeout", path)
	}
	r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/callbacks/wait", map[string]any{"timout": "1s"})
	assert.Equal(t, http.StatusBadRequest, r.Status, "a misspelt parameter is refused")
	var st sandboxtest.CallbackStatus
	srv.Control(http.MethodPost, "/callbacks/wait?timeout=2", nil, &st)
	assert.True(t, st.Settled)
}

// TestEventCallbackSchemaCheckBites makes sure the receiver's schema check
// is not vacuous: it refuses a wrong event type, a number event_time and an
// invented property.
func TestEventCallbackSchemaCheckBites(t *testing.T) {
	spec := conformance.Load(t)
	ok := `{"event":{"event_time":"1","event_type":"callback_test","event_hash":"h","event_metadata":{"related_signature_id":null,"reported_for_account_id":"a","reported_for_app_id":null}}}`
	require.NoError(t, spec.ValidateSchema("EventCallbackRequest", []byte(ok)))
	for name, bad := range map[string]string{
		"event type": `{"event":{"event_time":"1","event_type":"nope","event_hash":"h"}}`,
		"time type":  `{"event":{"event_time":1,"event_type":"callback_test","event_hash":"h"}}`,
		"no hash":    `{"event":{"event_time":"1","event_type":"callback_test"}}`,
		"invented":   `{"event":{"event_time":"1","event_type":"callback_test","event_hash":"h","extra":1}}`,
	} {
		assert.Error(t, spec.ValidateSchema("EventCallbackRequest", []byte(bad)), name)
	}
}

// TestAppCallbackTestThroughTheAPI: creating an app with a callback_url, or
// changing it, sends callback_test to the app's URL; a bad URL is refused.
func TestAppCallbackTestThroughTheAPI(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "Callback App", "domains": []string{"example.com"}, "callback_url": rcv.URL + "/one"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	clientID := r.Map()["api_app"].(map[string]any)["client_id"].(string)
	srv.WaitCallbacks()
	got := rcv.Events("callback_test")
	require.Len(t, got, 1)
	assert.Equal(t, "/one", got[0].Path)
	assert.True(t, got[0].IsAppCallback())
	assert.Equal(t, clientID, got[0].Metadata()["reported_for_app_id"])
	assert.True(t, got[0].VerifyHash(srv.APIKey))

	for _, u := range []string{rcv.URL + "/one", rcv.URL + "/two"} {
		r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"callback_url": u})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	srv.WaitCallbacks()
	got = rcv.Events("callback_test")
	require.Len(t, got, 2, "only a changed URL is tested")
	assert.Equal(t, "/two", got[1].Path)

	r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"callback_url": "ftp://example.com/cb"})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, path := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "callback_url", path)
}

// TestScenarioFaultHook: the hook scenarios use can make a receiver look
// down (no request sent) or make its answers count as failures.
func TestScenarioFaultHook(t *testing.T) {
	var mu sync.Mutex
	var seen []sandbox.CallbackAttempt
	srv := apitest.NewServer(t)
	restore := sandbox.CallbacksSetFault(srv.Sandbox, func(a sandbox.CallbackAttempt) (sandbox.CallbackFault, string) {
		mu.Lock()
		seen = append(seen, a)
		mu.Unlock()
		switch a.EventType {
		case "signature_request_sent":
			return sandbox.FaultUnreachable, "receiver down (scenario)"
		case "signature_request_viewed":
			return sandbox.FaultRejectAnswer, ""
		}
		return sandbox.FaultNone, ""
	})
	defer restore()
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	srv.WaitCallbacks()
	cbEmit(t, srv, cbRequestEvent("signature_request_sent"))
	srv.WaitCallbacks()

	sent := srv.Callbacks(sandboxtest.EventType("signature_request_sent"))[0].Deliveries[0]
	require.Len(t, sent.Attempts, 1)
	assert.Equal(t, "receiver down (scenario)", sent.Attempts[0].Error)
	assert.Zero(t, sent.Attempts[0].Status)
	assert.Len(t, rcv.Deliveries(), 1, "an unreachable receiver is not contacted (only callback_test arrived)")

	sandbox.CallbacksSetFault(srv.Sandbox, func(a sandbox.CallbackAttempt) (sandbox.CallbackFault, string) {
		return sandbox.FaultRejectAnswer, ""
	})
	srv.AdvanceAndWait(time.Minute)
	sent = srv.Callbacks(sandboxtest.EventType("signature_request_sent"))[0].Deliveries[0]
	require.Len(t, sent.Attempts, 2)
	assert.Equal(t, http.StatusOK, sent.Attempts[1].Status, "the receiver answered")
	assert.False(t, sent.Attempts[1].Delivered, "but the scenario counts it as a failure")
	assert.Contains(t, sent.Attempts[1].Error, "scenario")
	assert.Len(t, rcv.Deliveries(), 2)

	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, seen)
	assert.Equal(t, "callback_test", seen[0].EventType)
	assert.Equal(t, "account", seen[0].Kind)
	assert.Equal(t, apitest.OwnerID, seen[0].AccountID)
	assert.Equal(t, rcv.URL, seen[0].URL)
	assert.Equal(t, sandboxtest.Start, seen[0].DueAt)
}
