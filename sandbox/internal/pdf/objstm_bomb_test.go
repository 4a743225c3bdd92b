package pdf

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// prologBomb is a zlib stream whose first prolog bytes are a valid object
// stream prolog ("obj 0" and spaces), followed by the object: the most
// pdfcpu decodes of an object stream while it reads a file.
func prologBomb(obj, prolog int) []byte {
	var b bytes.Buffer
	// Writes into b cannot fail.
	w, _ := zlib.NewWriterLevel(&b, flate.BestCompression)
	head := strconv.Itoa(obj) + " 0"
	_, _ = w.Write([]byte(head))
	_, _ = w.Write(bytes.Repeat([]byte(" "), prolog-len(head)))
	_, _ = w.Write([]byte("<</A 1>>"))
	w.Close()
	return b.Bytes()
}

// manyObjectStreams is a PDF with one page and n object streams, each
// holding one object behind a prolog of maxObjectStreamProlog bytes that
// deflate shrinks about a thousandfold; its xref stream lists every
// contained object, so that pdfcpu decodes every prolog while it reads.
func manyObjectStreams(n int) []byte { return paddedObjectStreams(n, maxObjectStreamProlog, 0) }

// paddedObjectStreams is manyObjectStreams with prologs of prolog bytes,
// after a comment of pad bytes (which makes the file larger, not its work).
func paddedObjectStreams(n, prolog, pad int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	if pad > 0 {
		b.WriteString("%")
		b.Write(bytes.Repeat([]byte("x"), pad))
		b.WriteString("\n")
	}
	first := 4             // object streams are 4 .. n+3
	contained := first + n // contained objects are n+4 .. 2n+3
	xref := contained + n  // the xref stream
	offs := make([]int, xref+1)
	add := func(nr int, body []byte) {
		offs[nr] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", nr)
		b.Write(body)
		b.WriteString("\nendobj\n")
	}
	add(1, []byte("<</Type/Catalog/Pages 2 0 R>>"))
	add(2, []byte("<</Type/Pages/Kids[3 0 R]/Count 1>>"))
	add(3, []byte("<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>"))
	var z []byte
	for i := 0; i < n; i++ {
		z = prologBomb(contained+i, prolog)
		var s bytes.Buffer
		fmt.Fprintf(&s, "<</Type/ObjStm/N 1/First %d/Length %d/Filter/FlateDecode>>\nstream\n", prolog, len(z))
		s.Write(z)
		s.WriteString("\nendstream")
		add(first+i, s.Bytes())
	}
	offs[xref] = b.Len()
	var xs bytes.Buffer
	entry := func(typ byte, f2 uint32, f3 uint16) {
		xs.Write([]byte{typ, byte(f2 >> 24), byte(f2 >> 16), byte(f2 >> 8), byte(f2), byte(f3 >> 8), byte(f3)})
	}
	entry(0, 0, 65535)
	for nr := 1; nr < contained; nr++ {
		entry(1, uint32(offs[nr]), 0)
	}
	for i := 0; i < n; i++ {
		entry(2, uint32(first+i), 0)
	}
	entry(1, uint32(offs[xref]), 0)
	fmt.Fprintf(&b, "%d 0 obj\n<</Type/XRef/Size %d/W[1 4 2]/Root 1 0 R/Length %d>>\nstream\n", xref, xref+1, xs.Len())
	b.Write(xs.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", offs[xref])
	return b.Bytes()
}

// cost is what a call took: wall time, CPU time of the process, peak live
// heap above the heap before the call, heap still live after it, and bytes
// allocated in all.
type cost struct {
	wall, cpu           time.Duration
	peak, after, allocd uint64
}

func (c cost) String() string {
	return fmt.Sprintf("wall %s, cpu %s, peak heap +%d MB, heap after +%d MB, allocated %d MB",
		c.wall.Round(time.Millisecond), c.cpu.Round(time.Millisecond), c.peak>>20, c.after>>20, c.allocd>>20)
}

// cpuTime returns the CPU time the process has used. Getrusage of the
// process itself fails only for a bad pointer or an unknown "who"; neither
// can happen here.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// measure runs fn and samples the heap every millisecond while it runs.
func measure(fn func()) cost {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	base := liveHeap()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, liveHeap())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	c0, w0 := cpuTime(), time.Now()
	fn()
	c := cost{wall: time.Since(w0), cpu: cpuTime() - c0}
	close(done)
	wg.Wait()
	peak = max(peak, liveHeap())
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	c.allocd = after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	if h := liveHeap(); h > base {
		c.after = h - base
	}
	if peak > base {
		c.peak = peak - base
	}
	return c
}

// TestMeasureManyObjectStreams prints what inspecting many prolog bombs
// costs (set SIGNSANDBOX_MEASURE=1).
func TestMeasureManyObjectStreams(t *testing.T) {
	if os.Getenv("SIGNSANDBOX_MEASURE") == "" {
		t.Skip("set SIGNSANDBOX_MEASURE=1 to measure")
	}
	for _, n := range []int{100, 1_000, 10_000} {
		pdf := manyObjectStreams(n)
		var err error
		var keep any
		c := measure(func() { var info Info; info, err = Inspect(pdf); keep = info })
		_ = keep
		t.Logf("n=%d, %d KB: %v; err=%v", n, len(pdf)>>10, c, err)
	}
	// The most a file may cost that passes the check: prologs of the
	// whole budget, in 256 KiB prologs or in tiny ones.
	for _, f := range []struct{ n, prolog, pad int }{
		{15, maxObjectStreamProlog, 0},
		{1000, 8, 0},
		{120, maxObjectStreamProlog, 40 << 20},
		{8100, 8, 40 << 20},
	} {
		pdf := paddedObjectStreams(f.n, f.prolog, f.pad)
		var err error
		c := measure(func() { _, err = Inspect(pdf) })
		t.Logf("n=%d prolog=%d, %d KB: %v; err=%v", f.n, f.prolog, len(pdf)>>10, c, err)
	}
}

// TestManyObjectStreamPrologsAreRefused: a thousand object streams of a few
// hundred bytes, each inflating to a 256 KiB prolog, are refused before
// pdfcpu decodes any (before: 1.7 s of CPU and 655 MB of heap for this
// 400 KB file; 3,000 of them took 5.4 s and 1.9 GB).
func TestManyObjectStreamPrologsAreRefused(t *testing.T) {
	pdf := manyObjectStreams(1000)
	var err error
	alloc, took := allocated(func() { _, err = Inspect(pdf) })
	fe, ok := AsFileError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, ReasonTooLarge, fe.Reason, fe.Msg)
	assert.Less(t, alloc, uint64(16<<20), "allocated %d MB", alloc>>20)
	t.Logf("%d KB file: refused after %s, %d KB allocated", len(pdf)>>10, took, alloc>>10)
}

// TestPrologCheckSeesThroughSpelling: spacing, ordering and #xx escapes in
// the dictionary, and names that contain the keywords, do not hide an
// object stream from the check.
func TestPrologCheckSeesThroughSpelling(t *testing.T) {
	pdf := manyObjectStreams(100)
	const dict = "<</Type/ObjStm/N 1/First 262144/Length"
	require.Contains(t, string(pdf), dict)
	for _, spelled := range []string{
		"<< /Type /ObjStm /N 1 /First 262144 /Length",
		"<</N 1/First\n262144\r/Type\t/ObjStm/Length",
		"<</Type/Obj#53tm/N 1/Fi#72st 262144/Length",
		"<</First 262144/N 1/Type/ObjStm/Xobj 1/Length",
		"<</Type/ObjStm/endobj/N 1/First 262144/Length",
		"<</Type/ObjStm/N 1/First 262144/streamed 1/Length",
		"<</Type/ObjStm/N 1/First 5 0 R/Length",
	} {
		err := checkObjectStreamPrologs(bytes.ReplaceAll(pdf, []byte(dict), []byte(spelled)))
		fe, ok := AsFileError(err)
		if assert.True(t, ok, "%q: %v", spelled, err) {
			assert.Equal(t, ReasonTooLarge, fe.Reason, spelled)
		}
	}
}

// TestObjectStreamsWithinTheBudgetRead: object streams whose prologs stay
// within the budget read, tiny ones by the thousand included.
func TestObjectStreamsWithinTheBudgetRead(t *testing.T) {
	for _, pdf := range [][]byte{paddedObjectStreams(15, maxObjectStreamProlog, 0), paddedObjectStreams(1000, 8, 0)} {
		_, err := Inspect(pdf)
		require.NoError(t, err)
	}
	assert.Equal(t, int64(minPrologBudget), prologBudget(1000))
	assert.Equal(t, int64(20<<20), prologBudget(10<<20))
	assert.Equal(t, int64(maxPrologBudget), prologBudget(40<<20))
}

// TestSamplesPassThePrologCheck: the reference sample PDFs stay far within
// their prolog budget.
func TestSamplesPassThePrologCheck(t *testing.T) {
	seen := 0
	for _, name := range pdftest.SampleNames {
		s := pdftest.SampleIfPresent(name)
		if s == nil {
			continue
		}
		seen++
		require.NoError(t, checkObjectStreamPrologs(s), name)
	}
	if seen == 0 {
		t.Skip("the reference sample PDFs are not beside the repository")
	}
}

// TestPrologCheckIsLinear: the scan's worst inputs of 40 MiB (a keyword
// repeated, escapes everywhere) take one pass and allocate at most one copy
// of the file.
func TestPrologCheckIsLinear(t *testing.T) {
	for name, unit := range map[string]string{
		"endobj without space": "endobjX",
		"stream keywords":      "stream ",
		"escaped names":        "/Type#20/ObjStm",
		"type keys":            "/Type/Type/Type/ObjStm/First/First ",
	} {
		data := bytes.Repeat([]byte(unit), (40<<20)/len(unit))
		data = append(data, "<</Type/ObjStm/First 1>>stream\n"...)
		var err error
		alloc, took := allocated(func() { err = checkObjectStreamPrologs(data) })
		assert.Less(t, alloc, uint64(len(data)+1<<20), name)
		t.Logf("%s: %s, %d MB allocated, %v", name, took, alloc>>20, err)
	}
}

// xrefBomb is a file of n cross-reference streams, each a few hundred
// bytes that inflate to 1 MiB, chained by /Prev as incremental updates
// would chain them: pdfcpu inflates every one it follows while it reads.
func xrefBomb(t testing.TB, n int) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1<<20))
	require.NoError(t, zw.Close())
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	prev := 0
	for i := 1; i <= n; i++ {
		at := b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n<</Type/XRef/Size %d/W[1 2 1]/Filter/FlateDecode/Length %d", i, n+1, z.Len())
		if prev > 0 {
			fmt.Fprintf(&b, "/Prev %d", prev)
		}
		b.WriteString(">>\nstream\n")
		b.Write(z.Bytes())
		b.WriteString("\nendstream\nendobj\n")
		prev = at
	}
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", prev)
	return b.Bytes()
}

// Cross-reference streams are charged what they inflate to against the
// same budget as object stream prologs, before pdfcpu reads the file: a
// chain of 100 that inflate to 1 MiB each is refused as too large at once.
func TestCrossReferenceStreamBombIsRefused(t *testing.T) {
	data := xrefBomb(t, 100)
	var err error
	alloc, _ := allocated(func() { _, err = Inspect(data) })
	fe, ok := AsFileError(err)
	require.True(t, ok, "want a FileError, got %v", err)
	assert.Equal(t, ReasonTooLarge, fe.Reason)
	assert.Contains(t, fe.Msg, "cross-reference streams")
	assert.Less(t, alloc, uint64(16<<20), "refused before pdfcpu inflates them")

	require.NoError(t, checkObjectStreamPrologs(xrefBomb(t, 2)), "two such streams fit a small file's budget")
}
