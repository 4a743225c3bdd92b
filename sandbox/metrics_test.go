package sandbox_test

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
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
	srv := newControlCheckedServer(t, sandbox.WithMetrics())
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
	for _, res := range []string{"delivered", "error", "failed"} {
		assert.Contains(t, m, `signsandbox_callback_attempts_total{result="`+res+`"}`)
	}

	m2, _, _ := scrape(t, srv)
	assert.Equal(t, 1.0, m2[`signsandbox_requests_total{operation="GET /_sandbox/metrics",status="200"}`], "the scrape itself counts")
}

func TestReadinessIsNotLiveness(t *testing.T) {
	srv := newControlCheckedServer(t)
	r := srv.DoAs("", http.MethodGet, "/_sandbox/ready", nil)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{"status":"ready"}`, string(r.Body))
	assert.Equal(t, http.StatusOK, srv.DoAs("", http.MethodGet, "/_sandbox/health", nil).Status)
}

func TestMetricsWithoutCountingHoldTheGauges(t *testing.T) {
	srv := newControlCheckedServer(t)
	srv.Do(http.MethodGet, "/v3/account", nil)
	m, types, _ := scrape(t, srv)
	assert.Equal(t, 1.0, m["signsandbox_worlds"])
	assert.Equal(t, "counter", types["signsandbox_requests_total"], "the family is there, empty")
	assert.NotContains(t, m, `signsandbox_requests_total{operation="accountGet",status="200"}`)
}
