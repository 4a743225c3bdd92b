package sandbox_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// scrape reads GET /_sandbox/metrics and parses the exposition: every
// sample line by its name and labels as written, the families' types, and
// the family names in the order they came.
func scrape(t *testing.T, srv *sandboxtest.Server) (samples map[string]float64, types map[string]string, order []string) {
	t.Helper()
	r := srv.DoAs("", http.MethodGet, "/_sandbox/metrics", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "text/plain; version=0.0.4; charset=utf-8", r.Header.Get("Content-Type"))
	samples, types = map[string]float64{}, map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(r.Body)))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# TYPE ") {
			f := strings.Fields(line)
			require.Len(t, f, 4, line)
			types[f[2]] = f[3]
			order = append(order, f[2])
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		require.Positive(t, i, line)
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		_, dup := samples[line[:i]]
		require.False(t, dup, "sample written twice: %s", line)
		samples[line[:i]] = v
	}
	return samples, types, order
}

func TestMetricsExposition(t *testing.T) {
	srv := apitest.NewControlCheckedServer(t, sandbox.WithMetrics())
	srv.Do(http.MethodGet, "/v3/account", nil)
	srv.Do(http.MethodGet, "/v3/account", nil)
	srv.DoAs("wrong", http.MethodGet, "/v3/account", nil)
	srv.NewWorld()

	m, types, order := scrape(t, srv)
	assert.IsIncreasing(t, order, "families come in name order")
	assert.Equal(t, "counter", types["signsandbox_requests_total"])
	assert.Equal(t, "histogram", types["signsandbox_request_duration_seconds"])
	assert.Equal(t, 2.0, m[`signsandbox_requests_total{operation="accountGet",status="200"}`])
	assert.Equal(t, 1.0, m[`signsandbox_requests_total{operation="accountGet",status="401"}`])
	assert.Equal(t, 1.0, m[`signsandbox_requests_total{operation="POST /_sandbox/worlds",status="201"}`])
	assert.Equal(t, 3.0, m[`signsandbox_request_duration_seconds_count{operation="accountGet"}`])
	assert.Equal(t, 3.0, m[`signsandbox_request_duration_seconds_bucket{operation="accountGet",le="+Inf"}`])
	assert.Equal(t, 2.0, m[`signsandbox_worlds`])
	assert.Positive(t, m[`signsandbox_objects{table="accounts"}`])
	assert.Contains(t, m, `signsandbox_stored_bytes`)
	assert.Contains(t, m, `signsandbox_scheduler_jobs`)
	assert.Contains(t, m, `signsandbox_callbacks_pending`)
	assert.Contains(t, m, `signsandbox_heap_live_bytes`)
	for _, res := range []string{"delivered", "error", "failed"} {
		assert.Contains(t, m, `signsandbox_callback_attempts_total{result="`+res+`"}`)
	}

	m2, _, _ := scrape(t, srv)
	assert.Equal(t, 1.0, m2[`signsandbox_requests_total{operation="GET /_sandbox/metrics",status="200"}`], "the scrape itself counts")
}

func TestReadinessIsNotLiveness(t *testing.T) {
	srv := apitest.NewControlCheckedServer(t)
	r := srv.DoAs("", http.MethodGet, "/_sandbox/ready", nil)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{"status":"ready"}`, string(r.Body))
	assert.Equal(t, http.StatusOK, srv.DoAs("", http.MethodGet, "/_sandbox/health", nil).Status)
}

func TestMetricsWithoutCountingHoldTheGauges(t *testing.T) {
	srv := apitest.NewControlCheckedServer(t)
	srv.Do(http.MethodGet, "/v3/account", nil)
	m, types, _ := scrape(t, srv)
	assert.Equal(t, 1.0, m["signsandbox_worlds"])
	assert.Equal(t, "counter", types["signsandbox_requests_total"], "the family is there, empty")
	assert.NotContains(t, m, `signsandbox_requests_total{operation="accountGet",status="200"}`)
}

// rowsOfExport counts what GET /_sandbox/state shows of the default world:
// rows by table and the callback attempts by result.
func rowsOfExport(t *testing.T, srv *sandboxtest.Server) (rows map[string]float64, attempts map[string]float64, pending float64) {
	t.Helper()
	var st struct {
		Tables map[string][]json.RawMessage `json:"tables"`
	}
	srv.Control(http.MethodGet, "/state", nil, &st)
	rows, attempts = map[string]float64{}, map[string]float64{}
	for name, rs := range st.Tables {
		rows[name] = float64(len(rs))
	}
	for _, raw := range st.Tables["deliveries"] {
		var d struct {
			State    string `json:"state"`
			Attempts []struct {
				Status    int  `json:"status"`
				Delivered bool `json:"delivered"`
			} `json:"attempts"`
		}
		require.NoError(t, json.Unmarshal(raw, &d))
		if d.State == "pending" {
			pending++
		}
		for _, a := range d.Attempts {
			switch {
			case a.Delivered:
				attempts["delivered"]++
			case a.Status == 0:
				attempts["error"]++
			default:
				attempts["failed"]++
			}
		}
	}
	return rows, attempts, pending
}

// TestMetricsGaugesMatchTheWorld: the gauges, read from the worlds'
// counters, are what a walk of the world's rows finds, after requests,
// callback attempts of every result, a state import and a reset.
func TestMetricsGaugesMatchTheWorld(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	rcv := apitest.NewReceiver(t)
	check := func(when string) {
		t.Helper()
		m, _, _ := scrape(t, srv)
		rows, attempts, pending := rowsOfExport(t, srv)
		total := 0.0
		for name, n := range rows {
			assert.Equal(t, n, m[`signsandbox_objects{table="`+name+`"}`], "%s: rows of %s", when, name)
			total += n
		}
		sum := 0.0
		for k, v := range m {
			if strings.HasPrefix(k, "signsandbox_objects{") {
				sum += v
			}
		}
		assert.Equal(t, total, sum, "%s: no rows counted for tables the export does not show", when)
		assert.Equal(t, rows["jobs"], m["signsandbox_scheduler_jobs"], when)
		assert.Equal(t, pending, m["signsandbox_callbacks_pending"], when)
		for _, res := range []string{"delivered", "error", "failed"} {
			assert.Equal(t, attempts[res], m[`signsandbox_callback_attempts_total{result="`+res+`"}`], "%s: %s attempts", when, res)
		}
	}
	check("new world")

	rcv.Fail()
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL+"/account")
	srv.WaitCallbacks()
	rcv.CloseConnections()
	srv.AdvanceAndWait(time.Hour)
	rcv.Ack()
	for i := 0; i < 3; i++ {
		r := srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{
			"test_mode": true, "file_urls": []string{"https://example.com/nda.pdf"},
			"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}},
		})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	srv.AdvanceAndWait(24 * time.Hour)
	check("after sends and callbacks")
	_, attempts, _ := rowsOfExport(t, srv)
	for _, res := range []string{"delivered", "error", "failed"} {
		require.Positive(t, attempts[res], "the flow makes %s attempts", res)
	}

	var exported json.RawMessage
	srv.Control(http.MethodGet, "/state", nil, &exported)
	srv.Control(http.MethodPost, "/reset", nil, nil)
	check("after a reset")
	srv.Control(http.MethodPut, "/state", exported, nil)
	check("after an import")
}
