package callbacks_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestTemplateCreatedIsDelivered: the event a real producer emits reaches
// the owner's callback with the template as GET showed it, conforming to
// EventCallbackRequest (the receiver validates every payload).
func TestTemplateCreatedIsDelivered(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	id := apitest.ReadyTemplate(t, srv)
	srv.WaitCallbacks()

	got := rcv.Events("template_created")
	require.Len(t, got, 1)
	d := got[0]
	assert.True(t, d.VerifyHash(srv.APIKey))
	assert.Equal(t, apitest.OwnerID, d.Metadata()["reported_for_account_id"])
	tpl, _ := d.Payload["template"].(map[string]any)
	require.NotNil(t, tpl, "template_created carries the template")
	assert.Equal(t, id, tpl["template_id"])

	r := srv.Do(http.MethodGet, "/v3/template/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status)
	var view struct {
		Template json.RawMessage `json:"template"`
	}
	require.NoError(t, r.JSON(&view))
	sent, _ := json.Marshal(tpl)
	assert.JSONEq(t, string(view.Template), string(sent), "the template as GET shows it")

	log := srv.Callbacks(sandboxtest.ObjectID(id))
	require.Len(t, log, 1)
	assert.Equal(t, "template_created", log[0].EventType)
	assert.Equal(t, "delivered", log[0].State)
}

// TestSignatureRequestEventsAreDelivered: a request sent, viewed and signed
// by two ordered signers reaches the sender's callback event by event, in
// the order emitted, each payload schema-valid and carrying the request as
// it was at that moment.
func TestSignatureRequestEventsAreDelivered(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	sr := apitest.SendRequest(t, srv, apitest.TwoSigners())
	id := sr["signature_request_id"].(string)
	srv.AdvanceAndWait(time.Minute)
	sr = apitest.GetRequestOK(t, srv, id)
	first, second := apitest.SignatureID(sr, 0), apitest.SignatureID(sr, 1)
	srv.View(first)
	srv.Sign(first, nil)
	srv.WaitCallbacks()
	srv.Sign(second, nil)
	srv.AdvanceAndWait(time.Minute)

	emitted := apitest.EventTypes(srv, id)
	require.Contains(t, emitted, "signature_request_sent")
	require.Contains(t, emitted, "signature_request_all_signed")
	var received []string
	for _, d := range rcv.Events() {
		if obj, ok := d.Payload["signature_request"].(map[string]any); ok && obj["signature_request_id"] == id {
			received = append(received, d.EventType())
			assert.True(t, d.VerifyHash(srv.APIKey), d.EventType())
		}
	}
	t.Logf("events of the request: %v", emitted)
	assert.Equal(t, emitted, received, "every event of the request arrives, in the order emitted")

	for _, d := range rcv.Events("signature_request_viewed", "signature_request_signed") {
		assert.Contains(t, []any{first, second}, d.Metadata()["related_signature_id"], d.EventType())
	}
	sent := rcv.Events("signature_request_sent")[0].Payload["signature_request"].(map[string]any)
	assert.Equal(t, false, sent["is_complete"], "the request as it was when sent")
	done := rcv.Events("signature_request_all_signed")[0].Payload["signature_request"].(map[string]any)
	for _, s := range done["signatures"].([]any) {
		assert.Equal(t, "signed", s.(map[string]any)["status_code"])
	}
}
