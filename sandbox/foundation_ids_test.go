package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// idRun makes the same calls on a fresh server and returns every ID and key
// they produced, in order.
func idRun(t *testing.T, opts ...sandbox.Option) []string {
	t.Helper()
	srv := apitest.NewServer(t, opts...)
	var out []string
	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "a@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	out = append(out, apitest.AccountOf(t, r.Body)["account_id"].(string))
	for i := 0; i < 2; i++ {
		w := srv.NewWorld()
		out = append(out, w.WorldID, w.APIKey)
		r = srv.DoAs(w.APIKey, http.MethodPost, "/v3/account/create", map[string]any{"email_address": "b@example.com"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		out = append(out, apitest.AccountOf(t, r.Body)["account_id"].(string))
	}
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{})
	require.Equal(t, http.StatusCreated, r.Status)
	keys := apitest.APIKeys(t, srv, srv.APIKey)
	out = append(out, keys[len(keys)-1].Key)
	return out
}

func TestSameCallsGiveSameIDs(t *testing.T) {
	a := idRun(t)
	b := idRun(t)
	assert.Equal(t, a, b, "two sandboxes with the same (default) seed")
	for _, id := range []string{a[0], a[3], a[6]} {
		assert.Regexp(t, `^[0-9a-f]{40}$`, id, "IDs are 40 lowercase hex characters")
	}

	c := idRun(t, sandbox.WithSeed("another seed"))
	d := idRun(t, sandbox.WithSeed("another seed"))
	assert.Equal(t, c, d)
	for i := range a {
		if i == 1 || i == 4 {
			// World ids are their creation order (w1, w2), whatever the seed.
			assert.Equal(t, a[i], c[i])
			continue
		}
		assert.NotEqual(t, a[i], c[i], "a different seed gives different IDs and keys (index %d)", i)
	}
}

func TestTimestampsAreIntegerUnixSeconds(t *testing.T) {
	start := time.Date(2025, 3, 4, 5, 6, 7, 890_000_000, time.UTC)
	srv := apitest.NewServer(t, sandbox.WithFakeClock(start))
	numbers := func(body []byte) map[string]json.Number {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var m map[string]any
		require.NoError(t, dec.Decode(&m))
		out := map[string]json.Number{}
		for k, v := range m {
			if n, ok := v.(json.Number); ok {
				out[k] = n
			}
		}
		return out
	}
	r := srv.Do(http.MethodGet, "/_sandbox/clock", nil)
	n := numbers(r.Body)["now"]
	assert.Equal(t, json.Number("1741064767"), n, "sub-second world time is truncated to whole seconds")
	srv.Advance(1500 * time.Millisecond)
	n = numbers(srv.Do(http.MethodGet, "/_sandbox/clock", nil).Body)["now"]
	assert.Equal(t, json.Number("1741064769"), n)

	keys := apitest.APIKeys(t, srv, srv.APIKey)
	assert.Equal(t, start.Unix(), keys[0].CreatedAt)
	r = srv.Do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": apitest.ClientID, "state": "s"})
	exp := numbers(r.Body)["expires_at"]
	assert.NotContains(t, string(exp), ".")
	assert.NotContains(t, srv.Do(http.MethodGet, "/v3/account", nil).Header.Get("X-Ratelimit-Reset"), ".")
}

func TestWorldsCreatedInOrderGetTheSameKeysAcrossRuns(t *testing.T) {
	keys := func() []string {
		srv := apitest.NewControlCheckedServer(t)
		var out []string
		for i := 0; i < 3; i++ {
			w := srv.NewWorld()
			out = append(out, w.APIKey)
		}
		return out
	}
	a, b := keys(), keys()
	assert.Equal(t, a, b)
	assert.NotEqual(t, a[0], a[1])
	for _, k := range a {
		assert.False(t, strings.HasPrefix(k, "0b1a94cc"), "derived worlds never reuse the fixture key")
	}
}
