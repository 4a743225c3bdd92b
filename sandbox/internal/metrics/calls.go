package metrics

import (
	"sort"
	"strconv"
	"sync"
	"time"
)

// Buckets are the upper bounds (seconds) of the latency histogram: a
// sandbox answers most calls in well under a millisecond, and the slow ones
// (PDF work, file fetches) in seconds.
var Buckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Calls counts API and control calls by operation and status and keeps
// their latency histogram by operation. It is safe for concurrent use.
type Calls struct {
	mu       sync.Mutex
	requests map[callKey]uint64
	latency  map[string]*histogram
}

type callKey struct {
	operation string
	status    int
}

type histogram struct {
	counts []uint64 // per bucket (not cumulative), then +Inf
	sum    float64
	count  uint64
}

// NewCalls returns empty counters.
func NewCalls() *Calls {
	return &Calls{requests: map[callKey]uint64{}, latency: map[string]*histogram{}}
}

// Observe counts one answered call.
func (c *Calls) Observe(operation string, status int, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests[callKey{operation, status}]++
	h := c.latency[operation]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(Buckets)+1)}
		c.latency[operation] = h
	}
	sec := d.Seconds()
	i := sort.SearchFloat64s(Buckets, sec) // first bound >= sec
	h.counts[i]++
	h.sum += sec
	h.count++
}

// Families returns the request counter and the latency histogram, samples
// sorted by operation, then status.
func (c *Calls) Families() []Family {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]callKey, 0, len(c.requests))
	for k := range c.requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].operation != keys[j].operation {
			return keys[i].operation < keys[j].operation
		}
		return keys[i].status < keys[j].status
	})
	reqs := Family{Name: "signsandbox_requests_total", Type: "counter",
		Help: "API and control calls answered, by operation (operationId, or method and path of a control route) and HTTP status."}
	for _, k := range keys {
		reqs.Samples = append(reqs.Samples, Sample{
			Labels: []Label{{"operation", k.operation}, {"status", strconv.Itoa(k.status)}},
			Value:  float64(c.requests[k]),
		})
	}
	ops := make([]string, 0, len(c.latency))
	for op := range c.latency {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	lat := Family{Name: "signsandbox_request_duration_seconds", Type: "histogram",
		Help: "Time from routing a call to its written answer, by operation."}
	for _, op := range ops {
		h := c.latency[op]
		var cum uint64
		for i, bound := range Buckets {
			cum += h.counts[i]
			lat.Samples = append(lat.Samples, Sample{Suffix: "_bucket",
				Labels: []Label{{"operation", op}, {"le", formatValue(bound)}}, Value: float64(cum)})
		}
		lat.Samples = append(lat.Samples,
			Sample{Suffix: "_bucket", Labels: []Label{{"operation", op}, {"le", "+Inf"}}, Value: float64(h.count)},
			Sample{Suffix: "_sum", Labels: []Label{{"operation", op}}, Value: h.sum},
			Sample{Suffix: "_count", Labels: []Label{{"operation", op}}, Value: float64(h.count)},
		)
	}
	return []Family{reqs, lat}
}
