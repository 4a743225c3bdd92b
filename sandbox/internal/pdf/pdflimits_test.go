package pdf

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inflating is a zlib stream of prefix followed by n bytes of spaces, which
// deflate shrinks about a thousandfold.
func inflating(prefix string, n int) []byte {
	var b bytes.Buffer
	// Writes into b cannot fail.
	w, _ := zlib.NewWriterLevel(&b, flate.BestSpeed)
	_, _ = w.Write([]byte(prefix))
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for ; n > 0; n -= len(chunk) {
		_, _ = w.Write(chunk[:min(n, len(chunk))])
	}
	w.Close()
	return b.Bytes()
}

// classicPDF writes numbered objects with a classic xref table.
func classicPDF(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// sharedContentBomb is a PDF whose pages all draw, three times each, one
// content stream that inflates to size.
func sharedContentBomb(pages, size int) []byte {
	z := inflating("", size)
	objs := []string{"<</Type/Catalog/Pages 2 0 R>>", "",
		fmt.Sprintf("<</Length %d/Filter/FlateDecode>>\nstream\n%s\nendstream", len(z), z)}
	var kids []string
	for i := 0; i < pages; i++ {
		kids = append(kids, fmt.Sprintf("%d 0 R", 4+i))
		objs = append(objs, "<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents [3 0 R 3 0 R 3 0 R]>>")
	}
	objs[1] = fmt.Sprintf("<</Type/Pages/Kids[%s]/Count %d>>", strings.Join(kids, " "), pages)
	return classicPDF(objs)
}

// objectStreamBomb is a PDF whose page's resources are the one object of an
// object stream that inflates to size (an xref stream points there).
func objectStreamBomb(size int) []byte {
	z := inflating("6 0 <</A 1>>", size)
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	offs := map[int]int{}
	add := func(n int, body string) {
		offs[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	add(1, "<</Type/Catalog/Pages 2 0 R>>")
	add(2, "<</Type/Pages/Kids[3 0 R]/Count 1>>")
	add(3, "<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources 6 0 R>>")
	add(4, fmt.Sprintf("<</Type/ObjStm/N 1/First 4/Length %d/Filter/FlateDecode>>\nstream\n%s\nendstream", len(z), z))
	x := b.Len()
	offs[5] = x
	var xs bytes.Buffer
	entry := func(typ byte, f2 uint32, f3 uint16) {
		xs.Write([]byte{typ, byte(f2 >> 24), byte(f2 >> 16), byte(f2 >> 8), byte(f2), byte(f3 >> 8), byte(f3)})
	}
	entry(0, 0, 65535)
	for n := 1; n <= 5; n++ {
		entry(1, uint32(offs[n]), 0)
	}
	entry(2, 4, 0)
	fmt.Fprintf(&b, "5 0 obj\n<</Type/XRef/Size 7/W[1 4 2]/Root 1 0 R/Length %d>>\nstream\n", xs.Len())
	b.Write(xs.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", x)
	return b.Bytes()
}

// allocated is what fn allocates in all, and how long it takes.
func allocated(fn func()) (uint64, time.Duration) {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	start := time.Now()
	fn()
	took := time.Since(start)
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, took
}

// TestTextReadingHasADocumentBudget: 50 pages sharing a content stream that
// inflates to 40 MB used to decode it 150 times when their text was read
// (before: a 400 KB file took 29 s and 38 GB of allocations); the
// document's budget (Objects, which text extraction and the AcroForm
// reader read through) stops it.
func TestTextReadingHasADocumentBudget(t *testing.T) {
	pdf := sharedContentBomb(50, 40<<20)
	_, err := Inspect(pdf)
	require.NoError(t, err, "the file itself is well formed")
	var objs *Objects
	alloc, took := allocated(func() {
		ctx, pages, err := Open(pdf)
		require.NoError(t, err)
		objs = NewObjects(ctx)
		for _, p := range pages {
			for _, c := range objs.Array(p.Dict()["Contents"]) {
				objs.StreamContent(c)
			}
		}
	})
	require.True(t, objs.Exhausted(), "the budget ran out")
	assert.Equal(t, ReasonTooLarge, objs.BudgetError().Reason)
	assert.Less(t, alloc, uint64(12*decodeBudget(int64(len(pdf)), maxDocumentDecodeBytes)), "allocated %d MB", alloc>>20)
	t.Logf("%d KB file: refused after %s, %d MB allocated", len(pdf)>>10, took, alloc>>20)
}

// TestObjectStreamBombIsRefused: an object stream that inflates past the
// per-stream limit is refused as too large when the file is inspected
// (before: 400 MB decoded, 9 s and 1.4 GB for a 400 KB file).
func TestObjectStreamBombIsRefused(t *testing.T) {
	pdf := objectStreamBomb(40 << 20)
	var err error
	alloc, took := allocated(func() { _, err = Inspect(pdf) })
	fe, ok := AsFileError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, ReasonTooLarge, fe.Reason, fe.Msg)
	assert.Less(t, alloc, uint64(12*decodeBudget(int64(len(pdf)), maxStreamDecodeBytes)), "allocated %d MB", alloc>>20)
	t.Logf("%d KB file: refused after %s, %d MB allocated", len(pdf)>>10, took, alloc>>20)

	small := objectStreamBomb(1 << 20)
	_, err = Inspect(small)
	require.NoError(t, err, "an object stream within the limits reads")
}

// TestWriteBombSeeds keeps the bombs as seeds of FuzzInspect (run with
// SIGNSANDBOX_WRITE_SEEDS=1 to write them again).
func TestWriteBombSeeds(t *testing.T) {
	if os.Getenv("SIGNSANDBOX_WRITE_SEEDS") == "" {
		t.Skip("set SIGNSANDBOX_WRITE_SEEDS=1 to write the seed files")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzInspect")
	for name, pdf := range map[string][]byte{
		"object-stream-inflating-to-20MB":          objectStreamBomb(20 << 20),
		"50-pages-sharing-a-content-stream-of-8MB": sharedContentBomb(50, 8<<20),
		"100-object-streams-with-256KiB-prologs":   manyObjectStreams(100),
	} {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", pdf)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}

// TestBudgetsFollowTheFileSize: the budgets are computed from the size
// pdfcpu reads the file with, sixteen times it within the bounds.
func TestBudgetsFollowTheFileSize(t *testing.T) {
	pdf := sharedContentBomb(2, 1<<10)
	ctx, _, err := openPDF(pdf, false)
	require.NoError(t, err)
	assert.Equal(t, int64(len(pdf)), ctx.Read.FileSize)
	assert.Equal(t, int64(minDecodeBudget), decodeBudget(1000, maxDocumentDecodeBytes))
	assert.Equal(t, int64(32<<20), decodeBudget(2<<20, maxDocumentDecodeBytes))
	assert.Equal(t, int64(maxDocumentDecodeBytes), decodeBudget(40<<20, maxDocumentDecodeBytes))
}
