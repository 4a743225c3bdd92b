package console_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestConsoleCallbacksVerifyHash: with a receiver, the console's callback
// log shows each target's attempts with the receiver's answer, the payload,
// and that the event_hash verifies with the account's key; after the key
// that signed it is no longer the primary one, it says it does not.
func TestConsoleCallbacksVerifyHash(t *testing.T) {
	srv := newServer(t)
	rcv := sandboxtest.NewReceiver(t)
	r := srv.DoAs(srv.APIKey, http.MethodPut, "/v3/account", map[string]any{"callback_url": rcv.URL})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id, _ := sendRequest(t, srv, srv.APIKey, simpleFields("Hashed", "ann"), "h.pdf")
	srv.AdvanceAndWait(time.Minute)

	type page struct {
		Items []struct {
			ID      string `json:"id"`
			Type    string `json:"event_type"`
			State   string `json:"state"`
			Targets []struct {
				URL          string           `json:"url"`
				HashVerifies bool             `json:"hash_verifies"`
				Attempts     []map[string]any `json:"attempts"`
				Payload      map[string]any   `json:"payload"`
			} `json:"targets"`
		} `json:"items"`
	}
	var p page
	getJSON(t, srv, "", base+"/api/callbacks?object_id="+id, http.StatusOK, &p)
	require.NotEmpty(t, p.Items)
	ev := p.Items[0]
	require.Len(t, ev.Targets, 1, "the account's callback")
	tg := ev.Targets[0]
	assert.Equal(t, rcv.URL, tg.URL)
	assert.Equal(t, "delivered", ev.State)
	assert.True(t, tg.HashVerifies)
	require.NotEmpty(t, tg.Attempts)
	assert.EqualValues(t, 200, tg.Attempts[0]["status"])
	assert.NotNil(t, tg.Payload["event"])

	// A new primary key: the old hashes no longer verify with it.
	srv.Control(http.MethodPost, "/api_keys", map[string]any{"key": "console-second-key", "primary": true}, nil)
	var after struct {
		Targets []struct {
			HashVerifies bool `json:"hash_verifies"`
		} `json:"targets"`
	}
	getJSON(t, srv, "", base+"/api/callbacks/"+ev.ID, http.StatusOK, &after)
	require.Len(t, after.Targets, 1)
	assert.False(t, after.Targets[0].HashVerifies)
}
