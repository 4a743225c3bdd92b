package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
)

// benchWriter is the cheapest ResponseWriter, so that the benchmark
// measures the handler rather than a recorder.
type benchWriter struct {
	h    http.Header
	code int
}

func (d *benchWriter) Header() http.Header         { return d.h }
func (d *benchWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *benchWriter) WriteHeader(code int)        { d.code = code }

// cpuTime is the CPU time this process has used: on a machine shared
// with other work, CPU time per request tells costs apart where wall
// time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAccessLog is the hot path (GET of a signature request, as
// sandbox's BenchmarkGetSignatureRequest) without the access log, and with
// it in text and JSON to a discarding writer, and in text to a file through
// the logWriter the binary's stderr goes through. cpu-ns/op is the CPU
// time per request, which a machine busy with other work changes less
// than the wall time.
func BenchmarkAccessLog(b *testing.B) {
	sb, err := sandbox.New(sandbox.WithOfflineFiles())
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	key := sb.DefaultAPIKey()
	rec := httptest.NewRecorder()
	send := httptest.NewRequest(http.MethodPost, "/v3/signature_request/send", strings.NewReader(`{"test_mode":true,"signers":[{"name":"A","email_address":"a@example.com"}],"file_urls":["https://example.com/a.pdf"]}`))
	send.Header.Set("Content-Type", "application/json")
	send.SetBasicAuth(key, "")
	sb.ServeHTTP(rec, send)
	var sent struct {
		SignatureRequest struct {
			ID string `json:"signature_request_id"`
		} `json:"signature_request"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &sent); err != nil || sent.SignatureRequest.ID == "" {
		b.Fatalf("send: %d %s", rec.Code, rec.Body)
	}
	file, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer file.Close()
	lines := newLogWriter(file) // as the binary writes its stderr
	defer lines.Close()
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{
		{"off", sb},
		{"text", accessLog(slog.New(slog.NewTextHandler(io.Discard, nil)), sb)},
		{"json", accessLog(slog.New(slog.NewJSONHandler(io.Discard, nil)), sb)},
		{"text-to-file", accessLog(slog.New(slog.NewTextHandler(lines, nil)), sb)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }()
			b.RunParallel(func(pb *testing.PB) {
				req := httptest.NewRequest(http.MethodGet, "/v3/signature_request/"+sent.SignatureRequest.ID, nil)
				req.SetBasicAuth(key, "")
				w := &benchWriter{h: http.Header{}}
				for pb.Next() {
					clear(w.h)
					w.code = 0
					tc.h.ServeHTTP(w, req)
					if w.code != http.StatusOK {
						b.Fatalf("status %d", w.code)
					}
				}
			})
		})
	}
}
