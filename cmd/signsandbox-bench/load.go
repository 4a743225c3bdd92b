package main

// A bounded closed-loop load generator: a fixed number of connections, each
// sending its next request only when the previous answer has been read, for
// a fixed time or a fixed number of requests. Loopback only.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// request builds one request; worker and i let a request vary (ids, pages).
type request func(worker, i int) (*http.Request, error)

// loadResult is what one round measured.
type loadResult struct {
	Requests int
	Errors   int
	// FirstError describes the first failed request.
	FirstError string
	Elapsed    time.Duration
	P50, P99   time.Duration
}

// RPS is requests per second over the round.
func (r loadResult) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// plus answers the requests and time of two rounds together, with the
// slower of their percentiles.
func (r loadResult) plus(o loadResult) loadResult {
	first := r.FirstError
	if first == "" {
		first = o.FirstError
	}
	return loadResult{Requests: r.Requests + o.Requests, Errors: r.Errors + o.Errors, FirstError: first,
		Elapsed: r.Elapsed + o.Elapsed, P50: max(r.P50, o.P50), P99: max(r.P99, o.P99)}
}

// loadSpec bounds a round: it ends after Duration or after Count requests,
// whichever comes first (zero means no bound of that kind; one is needed).
type loadSpec struct {
	Conns    int
	Duration time.Duration
	Count    int
	// OK reports whether a status counts as success (2xx by default).
	OK func(status int) bool
}

// runLoad runs one round. Every worker has its own keep-alive connection.
func runLoad(spec loadSpec, build request) loadResult {
	if spec.Conns < 1 {
		spec.Conns = 1
	}
	if spec.Count <= 0 && spec.Duration <= 0 {
		return loadResult{}
	}
	ok := spec.OK
	if ok == nil {
		ok = func(s int) bool { return s >= 200 && s < 300 }
	}
	ctx := context.Background()
	if spec.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Duration)
		defer cancel()
	}
	var (
		issued   atomic.Int64
		mu       sync.Mutex
		all      []time.Duration
		errs     int
		firstErr string
		wg       sync.WaitGroup
	)
	start := time.Now()
	for w := 0; w < spec.Conns; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			tr := &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			lat := make([]time.Duration, 0, 4096)
			var nerr int
			var first string
			for i := 0; ctx.Err() == nil; i++ {
				if spec.Count > 0 && issued.Add(1) > int64(spec.Count) {
					break
				}
				req, err := build(w, i)
				if err != nil {
					nerr++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				t0 := time.Now()
				resp, err := client.Do(req.WithContext(ctx))
				if err != nil {
					if ctx.Err() != nil {
						break // the round ended while the request was in flight
					}
					nerr++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if ctx.Err() != nil && spec.Count == 0 {
					break
				}
				lat = append(lat, time.Since(t0))
				if !ok(resp.StatusCode) {
					nerr++
					if first == "" {
						first = fmt.Sprintf("%s %s: %d %.300s", req.Method, req.URL.Path, resp.StatusCode, body)
					}
				}
			}
			mu.Lock()
			all = append(all, lat...)
			errs += nerr
			if firstErr == "" {
				firstErr = first
			}
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	if spec.Duration > 0 && spec.Count == 0 {
		elapsed = min(elapsed, spec.Duration)
	}
	slices.Sort(all)
	return loadResult{Requests: len(all), Errors: errs, FirstError: firstErr, Elapsed: elapsed,
		P50: percentile(all, 0.50), P99: percentile(all, 0.99)}
}

// percentile reads a sorted sample.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}
