package sandbox

import (
	"net/http"
	"runtime/metrics"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	exposition "github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// registerMetrics serves GET /_sandbox/metrics (Prometheus text format)
// and GET /_sandbox/ready (readiness, where /_sandbox/health is liveness).
// Calls are counted only under WithMetrics, so that a sandbox in a test
// reads no clock per call.
func registerMetrics(r *api.Registry) {
	r.Calls = exposition.NewCalls()
	r.ControlPublic(http.MethodGet, "/metrics", controlMetrics)
	r.ControlPublic(http.MethodGet, "/ready", controlReady)
}

// WithMetrics counts every API and control call (by operation and status,
// with a latency histogram) for GET /_sandbox/metrics, through the call
// observer seam. Without it the metrics hold the gauges only. The binary
// turns it on.
func WithMetrics() Option {
	return func(cfg *config) error {
		cfg.registryEdits = append(cfg.registryEdits, func(r *api.Registry) {
			calls := r.Calls
			r.ObserveCalls(func(rec api.CallRecord) { calls.Observe(rec.Operation, rec.Status, rec.Duration) })
		})
		return nil
	}
}

// controlMetrics answers the counters and the gauges read now.
func controlMetrics(c *api.Call) (any, error) {
	fams := append(c.Host.Reg().Calls.Families(), worldGauges(c.Host)...)
	fams = append(fams, c.Host.Gauges()...)
	fams = append(fams, heapGauge())
	var b strings.Builder
	if err := exposition.Write(&b, fams); err != nil {
		return nil, err
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: exposition.ContentType, Body: []byte(b.String())}, nil
}

// readyResponse is the answer of GET /_sandbox/ready.
type readyResponse struct {
	Status string `json:"status"`
	// Reason says why the server is not ready.
	Reason string `json:"reason,omitempty"`
}

// controlReady answers 200 once the server can serve its worlds, and 503
// while it cannot (a data directory whose journal cannot be written).
// Liveness stays GET /_sandbox/health: a server that is not ready is still
// alive and must not be restarted for it.
func controlReady(c *api.Call) (any, error) {
	if reason := c.Host.NotReady(); reason != "" {
		return api.WithStatus{Status: http.StatusServiceUnavailable, Value: readyResponse{Status: "unavailable", Reason: reason}}, nil
	}
	return readyResponse{Status: "ready"}, nil
}

// worldGauges reads what the worlds hold now: worlds, rows by table,
// stored file bytes, queued jobs, pending callbacks and the attempts in
// the callback logs by result. Tables and results come in a fixed order.
// Each world answers from its accounting row (state.Usage), kept in step
// with every write, so a scrape costs the same in an empty world and in
// one of 100,000 requests.
func worldGauges(s *api.Host) []exposition.Family {
	ws := s.Worlds()
	tables := state.TableNames()
	rows := make([]float64, len(tables))
	var bytes, pending float64
	var attempts state.AttemptCounts
	for _, w := range ws {
		tx := w.Store.Read()
		u := state.WorldUsage(tx)
		for i, name := range tables {
			rows[i] += float64(u.Rows[name])
		}
		stored, _ := state.StoredBytes(tx) // uploads that share a row count each
		bytes += float64(stored)
		pending += float64(u.Deliveries.Pending)
		attempts.Delivered += u.Attempts.Delivered
		attempts.Error += u.Attempts.Error
		attempts.Failed += u.Attempts.Failed
	}
	var jobs float64
	objects := exposition.Family{Name: "signsandbox_objects", Type: "gauge", Help: "Rows stored by table, over every world."}
	for i, name := range tables {
		objects.Samples = append(objects.Samples, exposition.Sample{Labels: []exposition.Label{{Name: "table", Value: name}}, Value: rows[i]})
		if name == state.TableJobs {
			jobs = rows[i]
		}
	}
	results := exposition.Family{Name: "signsandbox_callback_attempts_total", Type: "counter",
		Help: "Callback attempts in the callback logs of the worlds held, by result (delivered, failed: an answer that does not count, error: no answer or a rule); a reset or deleted world takes its attempts away."}
	for _, r := range []struct {
		name string
		n    int64
	}{{"delivered", attempts.Delivered}, {"error", attempts.Error}, {"failed", attempts.Failed}} {
		results.Samples = append(results.Samples, exposition.Sample{Labels: []exposition.Label{{Name: "result", Value: r.name}}, Value: float64(r.n)})
	}
	gauge := func(name, help string, v float64) exposition.Family {
		return exposition.Family{Name: name, Type: "gauge", Help: help, Samples: []exposition.Sample{{Value: v}}}
	}
	return []exposition.Family{
		gauge("signsandbox_worlds", "Worlds held, the default world included.", float64(len(ws))),
		objects,
		gauge("signsandbox_stored_bytes", "Bytes of stored files (uploads, documents, renditions), over every world.", bytes),
		gauge("signsandbox_scheduler_jobs", "Jobs queued in the worlds' schedulers.", jobs),
		gauge("signsandbox_callbacks_pending", "Callback deliveries not yet delivered or given up.", pending),
		results,
	}
}

// heapGauge is the Go heap that the last garbage collection found live:
// what the stored worlds and the server's caches hold, without the garbage
// and the headroom the collector lets grow between collections (RSS shows
// those). The benchmark suite divides it by the stored requests.
func heapGauge() exposition.Family {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	var v float64
	if sample[0].Value.Kind() == metrics.KindUint64 {
		v = float64(sample[0].Value.Uint64())
	}
	return exposition.Family{Name: "signsandbox_heap_live_bytes", Type: "gauge",
		Help: "Go heap bytes live at the last garbage collection.", Samples: []exposition.Sample{{Value: v}}}
}
