package sandbox_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
)

// discardWriter is the cheapest ResponseWriter, so that the benchmark
// measures the sandbox rather than the recorder.
type discardWriter struct {
	h    http.Header
	code int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(code int)        { d.code = code }

// benchGet serves GET path in parallel in-process and fails on anything but
// a 200.
func benchGet(b *testing.B, path string) {
	sb, err := sandbox.New()
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	benchGetIn(b, sb, path)
}

// benchGetIn is benchGet in a given sandbox.
func benchGetIn(b *testing.B, sb *sandbox.Sandbox, path string) {
	key := sb.DefaultAPIKey()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.SetBasicAuth(key, "")
		w := &discardWriter{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			w.code = 0
			sb.ServeHTTP(w, req)
			if w.code != http.StatusOK {
				b.Fatalf("status %d", w.code)
			}
		}
	})
}

// BenchmarkGetAccount is the hot path: credentials, world, rate limit,
// handler, JSON. Its ns/op inverted is requests per second per core.
func BenchmarkGetAccount(b *testing.B) { benchGet(b, "/v3/account") }

// BenchmarkGetClock is a control-plane read.
func BenchmarkGetClock(b *testing.B) { benchGet(b, "/_sandbox/clock") }

// BenchmarkGetAccountTCP is the same over loopback HTTP/1.1 with keep-alive.
func BenchmarkGetAccountTCP(b *testing.B) {
	sb, err := sandbox.New()
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	srv := httptest.NewServer(sb)
	defer srv.Close()
	key := sb.DefaultAPIKey()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v3/account", nil)
			req.SetBasicAuth(key, "")
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
}

// BenchmarkNew is the cost of a sandbox with its default world (start-up,
// and every sandboxtest.NewServer).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sb, err := sandbox.New()
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
}

// benchSendBody is a small signature request: one file URL (offline, so no
// fetch), two signers, one field each.
func benchSendBody() string {
	return `{"title":"NDA","test_mode":true,"file_urls":["https://example.com/nda.pdf"],` +
		`"signers":[{"name":"Jack","email_address":"jack@example.com"},{"name":"Jill","email_address":"jill@example.com"}]}`
}

// benchSend creates one signature request in sb and answers its id.
func benchSend(b *testing.B, sb *sandbox.Sandbox, key string) string {
	req := httptest.NewRequest(http.MethodPost, "/v3/signature_request/send", strings.NewReader(benchSendBody()))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(key, "")
	w := httptest.NewRecorder()
	sb.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		b.Fatalf("send: status %d: %s", w.Code, w.Body)
	}
	var out struct {
		SignatureRequest struct {
			ID string `json:"signature_request_id"`
		} `json:"signature_request"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		b.Fatal(err)
	}
	return out.SignatureRequest.ID
}

// BenchmarkGetSignatureRequest is GET by id of a request with two signers:
// the hot path plus the request's view.
func BenchmarkGetSignatureRequest(b *testing.B) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	id := benchSend(b, sb, sb.DefaultAPIKey())
	benchGetIn(b, sb, "/v3/signature_request/"+id)
}

// BenchmarkSend is POST /signature_request/send: decode, validate, one
// write transaction with events and jobs, the view.
func BenchmarkSend(b *testing.B) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	key := sb.DefaultAPIKey()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchSend(b, sb, key)
	}
}

// BenchmarkGetListPage is the list page of 20 requests over the in-process
// handler: the page's views and its JSON, the largest answer of the hot
// paths.
func BenchmarkGetListPage(b *testing.B) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	key := sb.DefaultAPIKey()
	for i := 0; i < 20; i++ {
		benchSend(b, sb, key)
	}
	benchGetIn(b, sb, "/v3/signature_request/list?page_size=20")
}
