package console_test

import (
	"io"
	"net/http"
	"net/http/httptest"
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

// TestConsoleCallbackAttemptDuration: an attempt's duration is measured on
// a real world clock (the receiver here takes at least 150 ms) and is 0 on
// a fake one, which moves only when a caller advances it, possibly while an
// attempt is in flight: tests see the same figures every run.
func TestConsoleCallbackAttemptDuration(t *testing.T) {
	srv := newServer(t)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		_, _ = io.WriteString(w, "Hello API Event Received")
	}))
	t.Cleanup(slow.Close)
	durations := func(key string) []float64 {
		r := srv.DoAs(key, http.MethodPut, "/v3/account", map[string]any{"callback_url": slow.URL})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = srv.DoAs(key, http.MethodPost, "/_sandbox/callbacks/wait", map[string]any{"timeout": "10s"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var p struct {
			Items []struct {
				Targets []struct {
					Attempts []map[string]any `json:"attempts"`
				} `json:"targets"`
			} `json:"items"`
		}
		getJSON(t, srv, key, base+"/api/callbacks", http.StatusOK, &p)
		var out []float64
		for _, it := range p.Items {
			for _, tg := range it.Targets {
				for _, a := range tg.Attempts {
					require.Contains(t, a, "duration_ms", "every attempt has its duration")
					out = append(out, a["duration_ms"].(float64))
				}
			}
		}
		require.NotEmpty(t, out)
		return out
	}
	for _, d := range durations(srv.APIKey) {
		assert.Zero(t, d, "a fake clock stood still during the attempt")
	}
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "real"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	key := r.Map()["api_key"].(string)
	t.Cleanup(func() { srv.DoAs(key, http.MethodDelete, "/_sandbox/world", nil) })
	for _, d := range durations(key) {
		assert.GreaterOrEqual(t, d, float64(150), "the real clock measured the receiver's time")
	}
}
