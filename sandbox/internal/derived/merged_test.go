package derived

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// fakeStore holds documents by reference and counts the reads.
type fakeStore struct {
	docs  map[string][]byte
	reads int
}

func (s *fakeStore) Sum(ref string) ([sha256.Size]byte, error) {
	d, ok := s.docs[ref]
	if !ok {
		return [sha256.Size]byte{}, fmt.Errorf("no %s", ref)
	}
	return sha256.Sum256(d), nil
}

func (s *fakeStore) Bytes(ref string) ([]byte, error) {
	s.reads++
	d, ok := s.docs[ref]
	if !ok {
		return nil, fmt.Errorf("no %s", ref)
	}
	return d, nil
}

// richComposition has every part a composition can have: a referenced and
// an inline document, signature page, stamps, audit trail, a sub-second
// instant in another zone.
func richComposition(doc, inline []byte) pdf.Composition {
	signed := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	return pdf.Composition{
		ID: "sr_1", Title: "Lease <&> Ünïcode", TestMode: true,
		Documents: []pdf.Source{{Name: "a.pdf", PDF: doc}, {Name: "b.pdf", PDF: inline}},
		SignaturePage: &pdf.SignaturePage{Signers: []pdf.SignerLine{
			{Name: "Jack", Email: "jack@example.com", Status: "signed", SignedAt: &signed, Signature: "Jack Example"},
			{Name: "Jill", Email: "jill@example.com", Status: "awaiting_signature"},
		}},
		Stamps: []pdf.Stamp{{Document: 0, Page: 1, X: 10.5, Y: 20.25, Width: 100, Height: 20, Text: "Jack", Kind: pdf.StampSignature}},
		Audit:  []pdf.AuditEntry{{Time: signed, Actor: "jack@example.com", Action: "signed"}},
		At:     time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("X", 3600)),
	}
}

// TestMergedEqualsEagerRendering: a recipe rendered on demand gives the
// bytes rendering the composition at once gave, reads the referenced
// documents only on a miss, and answers from the cache afterwards.
func TestMergedEqualsEagerRendering(t *testing.T) {
	doc := pdftest.MakePDF(pdftest.Letter("referenced"))
	inline := pdftest.MakePDF(pdftest.Letter("inline"), pdftest.Letter("two"))
	comp := richComposition(doc, inline)
	eager, err := pdf.Render(comp)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := EncodeRecipe(comp, []string{"blob_a", ""})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, doc) {
		t.Fatal("the recipe carries a referenced document's bytes")
	}
	st := &fakeStore{docs: map[string][]byte{"blob_a": doc}}
	for i := 0; i < 2; i++ {
		got, err := Merged(raw, st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.PDF, eager.PDF) || !bytes.Equal(got.ZIP, eager.ZIP) || got.Pages != eager.Pages {
			t.Fatalf("round %d: on-demand rendering differs from the eager one", i)
		}
	}
	if st.reads != 1 {
		t.Fatalf("%d reads of the document, want 1 (the second answer is cached)", st.reads)
	}

	// Other bytes under the same reference are another input.
	st.docs["blob_a"] = pdftest.MakePDF(pdftest.Letter("changed"))
	got, err := Merged(raw, st)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got.PDF, eager.PDF) {
		t.Fatal("a different document gave the cached rendering")
	}
	delete(st.docs, "blob_a")
	if _, err := Merged(raw, st); err == nil {
		t.Fatal("a missing document rendered")
	}
}

// TestRecipeRefusesTextJSONWouldChange: text that is not valid UTF-8 would
// come back changed from JSON, so such a composition is not kept.
func TestRecipeRefusesTextJSONWouldChange(t *testing.T) {
	comp := richComposition(pdftest.MakePDF(pdftest.Letter("x")), nil)
	comp.Documents = comp.Documents[:1]
	comp.Audit[0].Detail = "bad \xff byte"
	if _, err := EncodeRecipe(comp, nil); !errors.Is(err, ErrNotKeepable) {
		t.Fatalf("err %v, want ErrNotKeepable", err)
	}
}

// TestSizedCacheBoundsBytes: entries go, least recently used first, once
// their bytes pass the bound; a value over the bound is answered, not kept.
func TestSizedCacheBoundsBytes(t *testing.T) {
	c := NewSizedCache[int, []byte](100, 10, func(v []byte) int64 { return int64(len(v)) })
	val := func(n int) func(int) []byte { return func(int) []byte { return make([]byte, n) } }
	c.Get(1, val(4))
	c.Get(2, val(4))
	c.Get(1, val(4)) // 1 is now the most recently used
	c.Get(3, val(4))
	if _, ok := c.Lookup(2); ok {
		t.Fatal("2 was kept over the byte bound")
	}
	if _, ok := c.Lookup(1); !ok {
		t.Fatal("1 was evicted although used more recently than 2")
	}
	if got := c.Get(4, val(11)); len(got) != 11 {
		t.Fatal("an oversized value was not answered")
	}
	if _, ok := c.Lookup(4); ok {
		t.Fatal("an oversized value was kept")
	}
	if _, ok := c.Lookup(3); !ok {
		t.Fatal("an oversized value pushed out the others")
	}
}
