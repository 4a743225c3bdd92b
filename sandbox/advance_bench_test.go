package sandbox_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// advanceBenchSends is how many sends each run of BenchmarkAdvanceDueSends
// queues before the clock moves past their processing.
const advanceBenchSends = 2000

// BenchmarkAdvanceDueSends measures a clock advance over the due jobs of
// many multipart sends (what the clock advance row of signsandbox-bench
// times over HTTP), in-process so that CPU profiles show the scheduler and
// the job runners rather than the loopback. It reports the wall time and
// the process CPU time (garbage collection included) per job, steadier than
// wall time on a busy machine, and the live heap each queued send keeps
// while the clock stands still.
func BenchmarkAdvanceDueSends(b *testing.B) {
	ctype, body := advanceBenchSend()
	var heapPerSend float64
	var jobs int
	var cpu time.Duration
	b.ReportAllocs()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		sb, err := sandbox.New()
		if err != nil {
			b.Fatal(err)
		}
		key := sb.DefaultAPIKey()
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for n := 0; n < advanceBenchSends; n++ {
			if code := advBenchServeCode(sb, key, http.MethodPost, "/v3/signature_request/send", ctype, body); code != http.StatusOK {
				b.Fatalf("send answered %d", code)
			}
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		heapPerSend += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / advanceBenchSends
		cpu0 := processCPU()
		b.StartTimer()
		rec := advBenchServe(sb, key, http.MethodPost, "/_sandbox/clock/advance", "application/json", []byte(`{"seconds": 3}`))
		b.StopTimer()
		cpu += processCPU() - cpu0
		if rec.Code != http.StatusOK {
			b.Fatalf("advance answered %d: %s", rec.Code, rec.Body)
		}
		jobs = strings.Count(rec.Body.String(), `"kind"`)
		sb.Close()
	}
	if jobs == 0 {
		b.Fatal("the advance ran no jobs")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(jobs), "ns/job")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(jobs), "cpu-ns/job")
	}
	b.ReportMetric(heapPerSend/float64(b.N), "heapB/send")
}

// advanceBenchSend is the multipart send of signsandbox-bench: one
// one-page PDF, one signer.
func advanceBenchSend() (string, []byte) {
	return benchMultipartSend(pdftest.MakePDF(pdftest.Letter("benchmark document")))
}

// benchMultipartSend is a multipart send of pdf to one signer.
func benchMultipartSend(pdf []byte) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, _ := mw.CreateFormFile("files[0]", "nda.pdf")
	_, _ = fw.Write(pdf)
	for _, kv := range [][2]string{{"title", "Benchmark NDA"}, {"test_mode", "1"},
		{"signers[0][name]", "Jack"}, {"signers[0][email_address]", "jack@example.com"}} {
		_ = mw.WriteField(kv[0], kv[1])
	}
	_ = mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

func advBenchServe(sb *sandbox.Sandbox, key, method, path, ctype string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	req.SetBasicAuth(key, "")
	rec := httptest.NewRecorder()
	sb.ServeHTTP(rec, req)
	return rec
}

func advBenchServeCode(sb *sandbox.Sandbox, key, method, path, ctype string, body []byte) int {
	return advBenchServe(sb, key, method, path, ctype, body).Code
}

// BenchmarkSendMultipart is the multipart send of signsandbox-bench (one
// one-page PDF of about 8 KB, as its default, one signer) in an empty
// world: what each send allocates, which sets how often the collector runs
// in a big world.
func BenchmarkSendMultipart(b *testing.B) {
	ctype, body := benchMultipartSend(pdftest.MakePDF(pdftest.Letter("benchmark document " + strings.Repeat("x", 7900))))
	if len(body) < 8<<10 {
		b.Fatalf("the send is %d bytes", len(body))
	}
	sb, err := sandbox.New()
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	key := sb.DefaultAPIKey()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := advBenchServeCode(sb, key, http.MethodPost, "/v3/signature_request/send", ctype, body); code != http.StatusOK {
			b.Fatalf("send answered %d", code)
		}
	}
}
