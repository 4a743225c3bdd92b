package derived

import (
	"bytes"
	"crypto/sha256"
	"sync"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// TestCacheKeepsTheMostRecentlyUsed: beyond its bound the least recently
// used entry goes; a hit derives nothing.
func TestCacheKeepsTheMostRecentlyUsed(t *testing.T) {
	calls := map[int]int{}
	c := NewCache[int, int](2)
	double := func(k int) int { calls[k]++; return 2 * k }
	for _, k := range []int{1, 2, 1, 3, 1, 2} {
		if got := c.Get(k, double); got != 2*k {
			t.Fatalf("Get(%d) = %d", k, got)
		}
	}
	// 1 stays (used before 3 came), 2 was evicted by 3 and derived again.
	if calls[1] != 1 || calls[2] != 2 || calls[3] != 1 {
		t.Fatalf("derivations %v, want 1:1 2:2 3:1", calls)
	}
	if c.Len() != 2 {
		t.Fatalf("Len %d, want the bound 2", c.Len())
	}
}

// TestCachedPlaceholderIsTheDerivedOne: the cache answers exactly what
// drawing the placeholder again gives (determinism is kept), also under
// concurrent use.
func TestCachedPlaceholderIsTheDerivedOne(t *testing.T) {
	url := "https://example.com/cached/nda.pdf"
	want := pdf.OfflinePlaceholder(url)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := OfflinePlaceholder(url)
			if !bytes.Equal(got.PDF, want.PDF) || len(got.Info.Pages) != len(want.Info.Pages) || got.How != want.How {
				t.Error("cached placeholder differs from a fresh one")
			}
		}()
	}
	wg.Wait()
}

// TestConvertRemembersPDFInspections: a second upload of the same PDF gets
// the same answer without being parsed again, with its own bytes.
func TestConvertRemembersPDFInspections(t *testing.T) {
	doc := pdf.OfflinePlaceholder("https://example.com/inspect-me.pdf").PDF
	want, err := pdf.Convert("a.pdf", "application/pdf", doc)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Convert("a.pdf", "application/pdf", doc)
	if err != nil {
		t.Fatal(err)
	}
	again := bytes.Clone(doc)
	second, err := Convert("b.pdf", "", again)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := inspected.Lookup(sha256.Sum256(doc)); !ok {
		t.Fatal("the inspection was not remembered")
	}
	for _, got := range []pdf.Converted{first, second} {
		if got.How != want.How || len(got.Info.Pages) != len(want.Info.Pages) || got.Info.Pages[0] != want.Info.Pages[0] {
			t.Errorf("answer %+v differs from pdf.Convert's %+v", got.Info, want.Info)
		}
	}
	if &second.PDF[0] != &again[0] {
		t.Error("the answer's PDF is not the caller's bytes")
	}
	if _, err := Convert("empty.pdf", "", nil); err == nil {
		t.Error("an empty file converted")
	}
}
