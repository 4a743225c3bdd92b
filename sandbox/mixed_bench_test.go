package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
)

// mixedSendBody is the benchmark suite's offline JSON send: one signer and
// a file_urls document, so that no upload is parsed.
const mixedSendBody = `{"title":"Benchmark NDA","test_mode":true,"file_urls":["https://example.com/bench/nda.pdf"],` +
	`"signers":[{"name":"Jack","email_address":"jack@example.com"}]}`

// BenchmarkMixedSequence issues the seven requests of the benchmark suite's
// mixed load (account, list page, JSON send, GET by id, clock advance,
// template list, a page of the callback log) in-process, one sequence per
// op, so that CPU and allocations per sequence can be profiled without the
// noise of a loaded machine's network stack; cpu-ns/op is the process's
// CPU time per sequence.
func BenchmarkMixedSequence(b *testing.B) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	key := sb.DefaultAPIKey()
	w := &discardWriter{h: http.Header{}}
	serve := func(method, path, body string) {
		var req *http.Request
		if body == "" {
			req = httptest.NewRequest(method, path, nil)
		} else {
			req = httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
		}
		req.SetBasicAuth(key, "")
		clear(w.h)
		w.code = 0
		sb.ServeHTTP(w, req)
		if w.code != http.StatusOK {
			b.Fatalf("%s %s: status %d", method, path, w.code)
		}
	}
	// A first send gives GET by id its object; 120 more fill a callback
	// page as the load does after its first second.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v3/signature_request/send", strings.NewReader(mixedSendBody))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(key, "")
	sb.ServeHTTP(rec, req)
	var sent struct {
		SignatureRequest struct {
			ID string `json:"signature_request_id"`
		} `json:"signature_request"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &sent); err != nil || sent.SignatureRequest.ID == "" {
		b.Fatalf("first send: %d %s", rec.Code, rec.Body.String())
	}
	for range 120 {
		serve(http.MethodPost, "/v3/signature_request/send", mixedSendBody)
	}
	sequence := func() {
		serve(http.MethodGet, "/v3/account", "")
		serve(http.MethodGet, "/v3/signature_request/list?page_size=20", "")
		serve(http.MethodPost, "/v3/signature_request/send", mixedSendBody)
		serve(http.MethodGet, "/v3/signature_request/"+sent.SignatureRequest.ID, "")
		serve(http.MethodPost, "/_sandbox/clock/advance", `{"seconds": 1}`)
		serve(http.MethodGet, "/v3/template/list", "")
		serve(http.MethodGet, "/_sandbox/callbacks?limit=100&order=desc", "")
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		sequence()
	}
	// CPU time (every thread, the collector's too) is steadier than wall
	// time on a loaded machine.
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
