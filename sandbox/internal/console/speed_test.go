package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// seedRequests fills the default world with n signature requests: one sent
// through the API, then copied in the exported state under new ids and
// sequence numbers, and imported back (PUT /_sandbox/state), which is far
// quicker than n API calls and gives the same rows.
func seedRequests(t testing.TB, srv *sandboxtest.Server, n int) []string {
	var state map[string]any
	r := srv.DoAs("", http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.NoError(t, json.Unmarshal(r.Body, &state))
	tables := state["tables"].(map[string]any)
	rows, _ := tables["signature_requests"].([]any)
	require.NotEmpty(t, rows, "send one request before seeding")
	model, err := json.Marshal(rows[0])
	require.NoError(t, err)
	ids := make([]string, 0, n)
	out := make([]any, 0, n)
	for i := 1; i <= n; i++ {
		var row map[string]any
		require.NoError(t, json.Unmarshal(model, &row))
		id := fmt.Sprintf("%040x", 0xc0ffee00+i)
		row["signature_request_id"] = id
		row["seq"] = 1_000_000 + i
		row["title"] = fmt.Sprintf("Seeded request %05d", i)
		for j, s := range row["signatures"].([]any) {
			s.(map[string]any)["signature_id"] = fmt.Sprintf("%032x", (0xc0ffee00+i)*8+j)
		}
		ids = append(ids, id)
		out = append(out, row)
	}
	tables["signature_requests"] = append(rows, out...) // the sent one stays: other tables name it
	r = srv.DoAs("", http.MethodPut, "/_sandbox/state", state)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return ids
}

// timeGet answers the best of three server round trips of GET path (on
// loopback, so it is the server's time plus a little).
func timeGet(t testing.TB, srv *sandboxtest.Server, path string) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		r := srv.DoAs("", http.MethodGet, path, nil)
		d := time.Since(start)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		best = min(best, d)
	}
	return best
}

// TestConsoleSpeedWith10000Requests: with 10,000 requests in the world, every
// console read answers, and the test reports how long each took (the target
// is well under 100 ms of server time; timings are reported, not asserted,
// so that a loaded machine cannot fail the suite by chance).
func TestConsoleSpeedWith10000Requests(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 10,000 requests")
	}
	srv := newServer(t)
	sendRequest(t, srv, srv.APIKey, simpleFields("Model", "ann"), "model.pdf")
	srv.Advance(time.Minute)
	ids := seedRequests(t, srv, 10_000)

	var first requestPage
	getJSON(t, srv, "", base+"/api/signature_requests", http.StatusOK, &first)
	require.Len(t, first.Items, 20)
	require.Equal(t, ids[len(ids)-1], first.Items[0].ID, "newest first")

	paths := []string{
		base + "/api/signature_requests",
		base + "/api/signature_requests?cursor=" + first.Next,
		base + "/api/signature_requests?limit=100&cursor=1005000",
		base + "/api/signature_requests?q=" + "Seeded%20request%2000001", // the oldest: a search that walks all
		base + "/api/signature_requests/" + ids[5000],
		base + "/api/counts",
		base + "/api/emails",
		base + "/api/callbacks",
		base + "/api/objects/signature_request",
		base + "/api/objects/template",
		base + "/",
	}
	var report []string
	for _, p := range paths {
		d := timeGet(t, srv, p)
		report = append(report, fmt.Sprintf("%8.2f ms  %s", float64(d.Microseconds())/1000, p))
	}
	sort.Strings(report)
	for _, line := range report {
		t.Log(line)
	}
}
