package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestTemplateCreatedIsDelivered: the event a real producer emits reaches
// the owner's callback with the template as GET showed it, conforming to
// EventCallbackRequest (the receiver validates every payload).
func TestTemplateCreatedIsDelivered(t *testing.T) {
	srv := newServer(t)
	rcv := newCBReceiver(t)
	cbSetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	id := tplReady(t, srv)
	srv.WaitCallbacks()

	got := rcv.Events("template_created")
	require.Len(t, got, 1)
	d := got[0]
	assert.True(t, d.VerifyHash(srv.APIKey))
	assert.Equal(t, cbOwnerID, d.Metadata()["reported_for_account_id"])
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
