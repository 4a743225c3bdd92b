package sandbox_test

import (
	"net/http"
	"runtime"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
)

// storedHeapSends is how many requests each half of
// BenchmarkStoredRequestHeap sends: enough for the e-mail and callback logs
// to reach their default cap of 10,000 in the first half, so that the
// second half measures what a request keeps once the logs stop growing.
const storedHeapSends = 12000

// BenchmarkStoredRequestHeap reports the live heap a stored request keeps:
// the growth of the heap over the second half of the sends divided by
// their number, once with their jobs still queued (a clock that stands
// still) and once after the clock has run them (what a request keeps for
// the rest of its life). Every send shares one upload, so the figures are
// the cost beyond the unique file bytes that issue 11 bounds at 4 KB.
func BenchmarkStoredRequestHeap(b *testing.B) {
	ctype, body := advanceBenchSend()
	var queued, processed float64
	for i := 0; i < b.N; i++ {
		sb, err := sandbox.New()
		if err != nil {
			b.Fatal(err)
		}
		key := sb.DefaultAPIKey()
		send := func(n int) {
			for j := 0; j < n; j++ {
				if code := advBenchServeCode(sb, key, http.MethodPost, "/v3/signature_request/send", ctype, body); code != http.StatusOK {
					b.Fatalf("send answered %d", code)
				}
				if j%1000 == 999 {
					advance(b, sb, key)
				}
			}
			advance(b, sb, key)
		}
		send(storedHeapSends)
		base := liveHeap()
		for j := 0; j < storedHeapSends; j++ {
			if code := advBenchServeCode(sb, key, http.MethodPost, "/v3/signature_request/send", ctype, body); code != http.StatusOK {
				b.Fatalf("send answered %d", code)
			}
		}
		queued += float64(liveHeap()-base) / storedHeapSends
		advance(b, sb, key)
		processed += float64(liveHeap()-base) / storedHeapSends
		runtime.KeepAlive(sb)
		sb.Close()
	}
	b.ReportMetric(queued/float64(b.N), "heapB/queued")
	b.ReportMetric(processed/float64(b.N), "heapB/processed")
}

func advance(b *testing.B, sb *sandbox.Sandbox, key string) {
	b.Helper()
	if rec := advBenchServe(sb, key, http.MethodPost, "/_sandbox/clock/advance", "application/json", []byte(`{"seconds": 10}`)); rec.Code != http.StatusOK {
		b.Fatalf("advance answered %d: %s", rec.Code, rec.Body)
	}
}

func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
