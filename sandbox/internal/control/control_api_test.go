package control_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func TestControlHealth(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.NewWorld()
	r := srv.DoAs("", http.MethodGet, "/_sandbox/health", nil)
	require.Equal(t, http.StatusOK, r.Status)
	var h struct {
		Status  string `json:"status"`
		Version string `json:"version"`
		Worlds  int    `json:"worlds"`
	}
	require.NoError(t, r.JSON(&h))
	assert.Equal(t, "ok", h.Status)
	assert.Equal(t, sandbox.Version, h.Version)
	assert.Equal(t, 2, h.Worlds)
}

func TestControlCreateWorld(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", nil)
	require.Equal(t, http.StatusCreated, r.Status, "no body and no credentials are needed: %s", r.Body)
	var w sandbox.WorldInfo
	require.NoError(t, r.JSON(&w))
	assert.Equal(t, "w1", w.WorldID)
	assert.Regexp(t, `^[0-9a-f]{64}$`, w.APIKey)
	assert.Equal(t, apitest.OwnerID, w.AccountID)
	assert.Equal(t, "owner@sandbox.example", w.EmailAddress)
	assert.Equal(t, apitest.ClientID, w.ClientID)
	assert.Equal(t, "fake", w.Clock)
	assert.Equal(t, sandboxtest.Start.Unix(), w.Now, "fake clocks start at the fixed instant")

	r = srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"time": "2030-05-01T12:00:00+02:00"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.NoError(t, r.JSON(&w))
	assert.Equal(t, time.Date(2030, 5, 1, 10, 0, 0, 0, time.UTC).Unix(), w.Now)

	r = srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "real"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.NoError(t, r.JSON(&w))
	assert.Equal(t, "real", w.Clock)
	assert.InDelta(t, time.Now().Unix(), w.Now, 60)

	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "sundial"}), "clock")
	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"time": "yesterday"}), "time")
	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"time": "2030-01-01"}), "time")
	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "real", "time": "2030-01-01T00:00:00Z"}), "time")
	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clok": "fake"}), "clok")
	apitest.WantBadRequest(t, srv.DoAs("", http.MethodPost, "/_sandbox/worlds", `{"clock":`), "")

	// GET /_sandbox/world answers the world of the credentials.
	var got sandbox.WorldInfo
	srv.Control(http.MethodGet, "/world", nil, &got)
	assert.Equal(t, "default", got.WorldID)
	assert.Equal(t, srv.APIKey, got.APIKey)
	r = srv.DoAs(w.APIKey, http.MethodGet, "/_sandbox/world", nil)
	require.NoError(t, r.JSON(&got))
	assert.Equal(t, w.WorldID, got.WorldID)

	// Bad credentials on a control call are refused, not silently mapped to
	// the default world.
	r = srv.DoAs("no-such-key", http.MethodGet, "/_sandbox/world", nil)
	assert.Equal(t, http.StatusUnauthorized, r.Status)
}

type clockInfo struct {
	Now       int64  `json:"now"`
	Time      string `json:"time"`
	Mode      string `json:"mode"`
	NextJobAt int64  `json:"next_job_at"`
	Jobs      []struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
		At   int64  `json:"at"`
	} `json:"jobs"`
}

func TestControlClock(t *testing.T) {
	srv := apitest.NewServer(t)
	var c clockInfo
	srv.Control(http.MethodGet, "/clock", nil, &c)
	start := sandboxtest.Start.Unix()
	assert.Equal(t, start, c.Now)
	assert.Equal(t, "2025-01-01T00:00:00Z", c.Time)
	assert.Equal(t, "fake", c.Mode)

	advance := func(body any) clockInfo {
		t.Helper()
		var out clockInfo
		srv.Control(http.MethodPost, "/clock/advance", body, &out)
		assert.NotNil(t, out.Jobs, "jobs is always a list")
		return out
	}
	assert.Equal(t, start+90, advance(map[string]any{"seconds": 90}).Now)
	assert.Equal(t, start+120, advance(map[string]any{"seconds": "30"}).Now, "integers as strings")
	assert.Equal(t, start+121, advance(map[string]any{"seconds": 1.5}).Now, "fractional seconds are kept, now is truncated")
	assert.Equal(t, start+121+5401, advance(map[string]any{"duration": "1h30m0.5s"}).Now, "121.5s + 5400.5s")
	assert.Equal(t, time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC).Unix(), advance(map[string]any{"to": "2025-02-01T00:00:00Z"}).Now)
	assert.Equal(t, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).Unix(), advance(map[string]any{"to": fmt.Sprint(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).Unix())}).Now)
	now := advance(map[string]any{}).Now
	assert.Equal(t, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).Unix(), now, "an empty advance runs what is due and keeps the time")

	adv := func(body any) *sandboxtest.Response { return srv.Do(http.MethodPost, "/_sandbox/clock/advance", body) }
	apitest.WantBadRequest(t, adv(map[string]any{"seconds": -1}), "seconds")
	apitest.WantBadRequest(t, adv(map[string]any{"seconds": "soon"}), "seconds")
	apitest.WantBadRequest(t, adv(map[string]any{"seconds": 1e12}), "seconds")
	apitest.WantBadRequest(t, adv(map[string]any{"duration": "soon"}), "duration")
	apitest.WantBadRequest(t, adv(map[string]any{"duration": "-1h"}), "duration")
	apitest.WantBadRequest(t, adv(map[string]any{"to": "2024-01-01T00:00:00Z"}), "to")
	apitest.WantBadRequest(t, adv(map[string]any{"to": "next week"}), "to")
	apitest.WantBadRequest(t, adv(map[string]any{"seconds": 1, "duration": "1s"}), "")
	apitest.WantBadRequest(t, adv(map[string]any{"second": 1}), "second")
	apitest.WantBadRequest(t, adv(`[1]`), "")
	srv.Control(http.MethodGet, "/clock", nil, &c)
	assert.Equal(t, now, c.Now, "refused advances did not move the clock")
}

// TestControlRealClockAdvanceIsAConflict: a real clock cannot be moved, and
// the request is well-formed, so the answer is 409 conflict (the world's
// state, not the request, is what is wrong), with a message saying what to
// do instead. Advancing by zero runs due jobs, which is meaningful for a
// real clock too.
func TestControlRealClockAdvanceIsAConflict(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "real"})
	require.Equal(t, http.StatusCreated, r.Status)
	var w sandbox.WorldInfo
	require.NoError(t, r.JSON(&w))

	r = srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"seconds": 10})
	require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
	name, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "conflict", name)
	assert.Contains(t, msg, `"clock": "fake"`)

	r = srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"seconds": 0})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var c clockInfo
	require.NoError(t, r.JSON(&c))
	assert.Equal(t, "real", c.Mode)
}

func TestControlReset(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Advance(time.Hour)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "it-IT"}).Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "temp@example.com"}).Status)
	srv.Control(http.MethodPost, "/api_keys", map[string]any{}, nil)
	srv.Control(http.MethodPatch, "/config", map[string]any{"sign_url_ttl": "5m"}, nil)

	var info sandbox.WorldInfo
	srv.Control(http.MethodPost, "/reset", nil, &info)
	assert.Equal(t, srv.APIKey, info.APIKey, "the default world keeps its key")
	assert.Equal(t, "en-US", apitest.AccountOf(t, srv.Do(http.MethodGet, "/v3/account", nil).Body)["locale"])
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/v3/account?email_address=temp@example.com", nil).Status)
	assert.Len(t, apitest.APIKeys(t, srv, srv.APIKey), 1)
	var cfg map[string]any
	srv.Control(http.MethodGet, "/config", nil, &cfg)
	assert.Equal(t, "1h0m0s", cfg["sign_url_ttl"])
	assert.Equal(t, sandboxtest.Start.Add(time.Hour), srv.Now(), "the clock is not moved back")

	// A created world resets to its own keys and only its own state.
	w := srv.NewWorld()
	require.Equal(t, http.StatusOK, srv.DoAs(w.APIKey, http.MethodPut, "/v3/account", map[string]any{"locale": "pl-PL"}).Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "pt-BR"}).Status)
	r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/reset", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.NoError(t, r.JSON(&info))
	assert.Equal(t, w.APIKey, info.APIKey)
	assert.Equal(t, "en-US", apitest.AccountOf(t, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Body)["locale"])
	assert.Equal(t, "pt-BR", apitest.AccountOf(t, srv.Do(http.MethodGet, "/v3/account", nil).Body)["locale"])
}

func TestControlStateImportRefusals(t *testing.T) {
	srv := apitest.NewServer(t)
	w := srv.NewWorld()
	other := srv.DoAs(w.APIKey, http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, other.Status)
	before := srv.Do(http.MethodGet, "/_sandbox/state", nil).Body

	// A state whose keys belong to another world is refused: credentials are
	// how requests find their world.
	r := srv.Do(http.MethodPut, "/_sandbox/state", other.Body)
	require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
	_, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Contains(t, msg, w.WorldID)

	var doc map[string]any
	require.NoError(t, json.Unmarshal(before, &doc))
	mutated := func(fn func(m map[string]any)) string {
		var m map[string]any
		require.NoError(t, json.Unmarshal(before, &m))
		fn(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	cases := []struct {
		name, body, path string
	}{
		{"not json", `{"format":`, ""},
		{"array", `[]`, ""},
		{"wrong format", mutated(func(m map[string]any) { m["format"] = "other/9" }), "format"},
		{"bad clock", mutated(func(m map[string]any) { m["clock"] = map[string]any{"now": "noon"} }), "clock[now]"},
		{"unknown table", mutated(func(m map[string]any) { m["tables"].(map[string]any)["surprise"] = []any{} }), "tables"},
		{"bad row", mutated(func(m map[string]any) {
			m["tables"].(map[string]any)["accounts"] = []any{map[string]any{"account_id": 1}}
		}), "tables"},
		{"duplicate rows", mutated(func(m map[string]any) {
			rows := m["tables"].(map[string]any)["api_keys"].([]any)
			m["tables"].(map[string]any)["api_keys"] = append(rows, rows[0])
		}), "tables"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apitest.WantBadRequest(t, srv.Do(http.MethodPut, "/_sandbox/state", tc.body), tc.path)
		})
	}
	after := srv.Do(http.MethodGet, "/_sandbox/state", nil).Body
	assert.Equal(t, string(before), string(after), "refused imports changed nothing")
}

func TestControlStateImportRestoresTheClock(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Advance(time.Hour)
	saved := srv.Do(http.MethodGet, "/_sandbox/state", nil).Body
	assert.Contains(t, string(saved), `"format":"signsandbox-state/1"`)
	srv.Advance(24 * time.Hour)
	r := srv.Do(http.MethodPut, "/_sandbox/state", saved)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, sandboxtest.Start.Add(time.Hour), srv.Now(), "a fake clock resumes at the exported instant")
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status, "the world still answers its key")
}

func TestControlConfig(t *testing.T) {
	srv := apitest.NewServer(t)
	var cfg map[string]any
	srv.Control(http.MethodGet, "/config", nil, &cfg)
	for _, k := range []string{"send_processing_delay", "sign_url_ttl", "oauth_token_ttl", "max_file_bytes", "rate_limit", "fetch_file_urls"} {
		assert.Contains(t, cfg, k)
	}
	var out map[string]any
	srv.Control(http.MethodPatch, "/config", map[string]any{"sign_url_ttl": "10m", "cancel_delay": 5}, &out)
	assert.Equal(t, "10m0s", out["sign_url_ttl"])
	assert.Equal(t, "5s", out["cancel_delay"], "durations may be given as seconds")
	assert.Equal(t, "1h0m0s", out["edit_url_ttl"], "other fields keep their values")
	srv.Control(http.MethodPut, "/config", map[string]any{"max_file_bytes": 1000}, &out)
	assert.EqualValues(t, 1000, out["max_file_bytes"])
	assert.Equal(t, "10m0s", out["sign_url_ttl"], "PUT is a partial update too")

	for _, body := range []any{
		map[string]any{"sign_url_ttl": "-1m"},
		map[string]any{"sign_url_ttl": "soon"},
		map[string]any{"max_file_bytes": 0},
		map[string]any{"max_file_bytes": "many"},
		map[string]any{"sign_url_tl": "1m"},
		`{"sign_url_ttl":`,
	} {
		r := srv.Do(http.MethodPatch, "/_sandbox/config", body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%v", body)
		apitest.ErrorParts(t, r.Body)
	}
	srv.Control(http.MethodGet, "/config", nil, &cfg)
	assert.Equal(t, "10m0s", cfg["sign_url_ttl"], "refused changes changed nothing")
}

func TestControlUnknownRoutes(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/_sandbox/nothing", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "not_found", name)
	r = srv.Do(http.MethodDelete, "/_sandbox/clock", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, r.Status)
	name, _, _ = apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "method_not_supported", name)
	assert.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"))
}

// A change with several bad durations always names the first of them in
// the configuration's order: the answer must not depend on map order.
func TestControlConfigNamesTheFirstBadDuration(t *testing.T) {
	srv := apitest.NewServer(t)
	bad := map[string]any{"callback_timeout": "-1s", "sign_url_ttl": "-1s", "cancel_delay": "-1s"}
	for i := 0; i < 20; i++ {
		apitest.WantBadRequest(t, srv.Do(http.MethodPatch, "/_sandbox/config", bad), "cancel_delay")
	}
}
