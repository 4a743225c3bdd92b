package control_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// exportedState is GET /_sandbox/state decoded for editing.
type exportedState struct {
	Format string                       `json:"format"`
	Clock  map[string]any               `json:"clock"`
	Tables map[string][]json.RawMessage `json:"tables"`
}

func exportState(t *testing.T, srv *sandboxtest.Server) (string, exportedState) {
	t.Helper()
	raw := apitest.WorldExport(t, srv, srv.APIKey)
	var st exportedState
	require.NoError(t, json.Unmarshal([]byte(raw), &st))
	return raw, st
}

// editRow changes fields of one exported row.
func editRow(t *testing.T, st exportedState, table string, i int, set map[string]any) {
	t.Helper()
	var row map[string]any
	require.NoError(t, json.Unmarshal(st.Tables[table][i], &row))
	for k, v := range set {
		row[k] = v
	}
	b, err := json.Marshal(row)
	require.NoError(t, err)
	st.Tables[table][i] = b
}

// An import that would leave a world inconsistent (a reference to nothing,
// a job the scheduler cannot run, an unknown clock mode, an instant outside
// the clock's range) is a 400 naming the first bad entry, and the world is
// exactly as it was.
func TestStateImportRefusesInconsistentWorlds(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	apitest.QuickSend(t, srv, srv.APIKey, "Pending", "a@example.com")
	before, _ := exportState(t, srv)

	cases := []struct {
		name string
		edit func(st *exportedState)
		path string
		msg  string
	}{
		{"key of a missing account", func(st *exportedState) {
			editRow(t, *st, "api_keys", 0, map[string]any{"account_id": "0000000000000000000000000000000000000000"})
		}, "tables[api_keys][0][account_id]", "names no row of table accounts"},
		{"request whose requester does not exist", func(st *exportedState) {
			editRow(t, *st, "signature_requests", 0, map[string]any{"requester_account_id": "nobody"})
		}, "tables[signature_requests][0][requester_account_id]", `"nobody"`},
		{"job for a missing object", func(st *exportedState) {
			editRow(t, *st, "jobs", 0, map[string]any{"subject": "ffffffffffffffffffffffffffffffffffffffff"})
		}, "tables[jobs][0][subject]", "names no row of any table"},
		{"unknown job kind", func(st *exportedState) {
			editRow(t, *st, "jobs", 0, map[string]any{"kind": "banana"})
		}, "tables[jobs][0][kind]", `unknown job kind "banana"`},
		{"unknown clock mode", func(st *exportedState) {
			st.Clock["mode"] = "banana"
		}, "clock", `clock.mode must be "fake" or "real", not "banana"`},
		{"clock past the last instant", func(st *exportedState) {
			st.Clock["now"] = "2262-01-01T00:00:00Z"
		}, "clock", "2200-01-01T00:00:00Z, the last instant"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, st := exportState(t, srv)
			require.NotEmpty(t, st.Tables["jobs"], "the pending request has jobs")
			tc.edit(&st)
			r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", st)
			require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
			name, msg, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, "bad_request", name)
			assert.Equal(t, tc.path, path, msg)
			assert.Contains(t, msg, tc.msg)
			assert.Equal(t, before, apitest.WorldExport(t, srv, srv.APIKey), "nothing changed")
		})
	}
	// The untouched export imports.
	r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", before)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, before, apitest.WorldExport(t, srv, srv.APIKey))
}

// The clock stops at the last instant it can export and schedule at: an
// advance past it is a 400 naming the limit and changes nothing, and the
// world at the limit round-trips exactly.
func TestClockLimitKeepsTheRoundTripExact(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	apitest.QuickSend(t, srv, srv.APIKey, "Far future", "a@example.com")
	var r *sandboxtest.Response
	for _, to := range []string{"2110-01-01T00:00:00Z", "2199-12-31T23:00:00Z"} {
		r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"to": to})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	before := apitest.WorldExport(t, srv, srv.APIKey)

	for _, body := range []map[string]any{
		{"to": "2200-01-01T00:00:01Z"},
		{"seconds": 3601},
		{"duration": "100h"},
	} {
		r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%v: %s", body, r.Body)
		_, msg, _ := apitest.ErrorParts(t, r.Body)
		assert.Contains(t, msg, "2200-01-01T00:00:00Z, the last instant")
		assert.Equal(t, before, apitest.WorldExport(t, srv, srv.APIKey), "nothing changed")
	}

	r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"duration": "1h"})

	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC), srv.Now())
	atLimit := apitest.WorldExport(t, srv, srv.APIKey)
	r = srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", atLimit)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, atLimit, apitest.WorldExport(t, srv, srv.APIKey), "exact round trip at the last instant")

	r = srv.DoAs("", http.MethodPost, sandbox.ControlPrefix+"/worlds", map[string]any{"clock": "fake", "time": "9999-12-31T23:59:59Z"})
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	_, _, path := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "time", path)
}
