package derived

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// legacyJSONRecipe is a recipe as versions before the binary form wrote
// it (worlds exported then hold such recipes).
func legacyJSONRecipe(t *testing.T, c pdf.Composition, refs []string) []byte {
	t.Helper()
	r := jsonRecipe{Composition: c, Refs: make([]string, len(c.Documents))}
	r.Composition.Documents = append([]pdf.Source(nil), c.Documents...)
	referenced := false
	for i := range c.Documents {
		if i < len(refs) && refs[i] != "" {
			r.Refs[i] = refs[i]
			r.Composition.Documents[i].PDF = nil
			referenced = true
		}
	}
	if !referenced {
		r.Refs = nil
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// inUTC is c with every instant in UTC: what a recipe gives back (the
// zone is not kept, rendering reads instants in UTC).
func inUTC(c pdf.Composition) pdf.Composition {
	c.At = c.At.UTC()
	if c.SignaturePage != nil {
		p := *c.SignaturePage
		p.Signers = append([]pdf.SignerLine(nil), p.Signers...)
		for i, s := range p.Signers {
			if s.SignedAt != nil {
				t := s.SignedAt.UTC()
				p.Signers[i].SignedAt = &t
			}
		}
		c.SignaturePage = &p
	}
	c.Audit = append([]pdf.AuditEntry(nil), c.Audit...)
	for i := range c.Audit {
		c.Audit[i].Time = c.Audit[i].Time.UTC()
	}
	return c
}

// fullComposition is richComposition with a cover page, numbers that are
// not integral, a negative zero and an inline document with no bytes.
func fullComposition() pdf.Composition {
	c := richComposition(pdftest.MakePDF(pdftest.Letter("referenced")), pdftest.MakePDF(pdftest.Letter("inline")))
	c.ID = "0123456789abcdef0123456789abcdef01234567"
	c.CoverPage = &pdf.CoverPage{To: "Jill", From: "Jack", Message: "Hi", Recipient: "+15551234567", Sender: "jack@example.com", Pages: 3}
	c.Documents = append(c.Documents, pdf.Source{Name: "empty.pdf"}, pdf.Source{Name: "zero.pdf", PDF: []byte{}})
	c.Stamps = append(c.Stamps, pdf.Stamp{Document: 1, Page: 2, X: math.Copysign(0, -1), Y: -3, Width: 1e300, Height: 0.1, Text: "X", Kind: pdf.StampCheckbox})
	c.Audit = append(c.Audit, pdf.AuditEntry{Time: time.Date(2026, 3, 4, 6, 0, 0, 5, time.FixedZone("Y", -7200)), Actor: "jack@example.com", Action: "Lease <&> Ünïcode", Detail: "ABCDEF"})
	return c
}

// TestBinaryRecipeGivesTheCompositionBack: every part of a composition
// comes back from the binary form as it went in (instants in UTC), and
// the references with it.
func TestBinaryRecipeGivesTheCompositionBack(t *testing.T) {
	c := fullComposition()
	refs := []string{"9d07fc352941e9f4dc69253092bdf15b03a62b7d", "", "", ""}
	raw, err := EncodeRecipe(c, refs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeRecipe(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := inUTC(c)
	want.Documents = append([]pdf.Source(nil), c.Documents...)
	want.Documents[0].PDF = nil // referenced: the store holds it
	if !reflect.DeepEqual(got.Composition, want) {
		t.Fatalf("composition changed:\n got %+v\nwant %+v", got.Composition, want)
	}
	if !reflect.DeepEqual(got.Refs, refs) {
		t.Fatalf("refs %q, want %q", got.Refs, refs)
	}
	if math.Signbit(got.Composition.Stamps[1].X) == false {
		t.Fatal("negative zero lost its sign")
	}

	noRefs, err := EncodeRecipe(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeRecipe(noRefs); err != nil || got.Refs != nil {
		t.Fatalf("refs %q, err %v: a recipe without references has none", got.Refs, err)
	}

	var zero pdf.Composition
	raw, err = EncodeRecipe(zero, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeRecipe(raw); err != nil || !got.Composition.At.IsZero() {
		t.Fatalf("at %v, err %v: the zero instant stays zero (the Unix epoch to rendering)", got.Composition.At, err)
	}
}

// TestVersion1RecipeStillDecodes: a binary recipe written before signers'
// signatures were kept (version 1) decodes with each signer signing in
// their name, as it rendered then.
func TestVersion1RecipeStillDecodes(t *testing.T) {
	c := fullComposition()
	c.SignaturePage.Signers[0].Signature = ""
	v2, err := EncodeRecipe(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Version 1 is version 2 without the signature string after each
	// signer line.
	v1 := encodeBinaryVersion(&c, nil, recipeV1)
	got, err := DecodeRecipe(v1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := DecodeRecipe(v2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version 1 decoded differently:\n got %+v\nwant %+v", got, want)
	}
}

// TestJSONRecipeOfEarlierVersionsStillRenders: a recipe kept as JSON by an
// earlier version (an imported world) renders the bytes the binary one
// and an eager rendering give.
func TestJSONRecipeOfEarlierVersionsStillRenders(t *testing.T) {
	doc := pdftest.MakePDF(pdftest.Letter("legacy referenced"))
	inline := pdftest.MakePDF(pdftest.Letter("legacy inline"))
	comp := richComposition(doc, inline)
	eager, err := pdf.Render(comp)
	if err != nil {
		t.Fatal(err)
	}
	legacy := legacyJSONRecipe(t, comp, []string{"blob_a", ""})
	binary, err := EncodeRecipe(comp, []string{"blob_a", ""})
	if err != nil {
		t.Fatal(err)
	}
	refsOnly := comp
	refsOnly.Documents = comp.Documents[:1]
	small, err := EncodeRecipe(refsOnly, []string{"9d07fc352941e9f4dc69253092bdf15b03a62b7d"})
	if err != nil {
		t.Fatal(err)
	}
	if big := legacyJSONRecipe(t, refsOnly, []string{"9d07fc352941e9f4dc69253092bdf15b03a62b7d"}); len(small) >= len(big)/2 {
		t.Fatalf("binary recipe %d bytes, JSON %d: expected under half", len(small), len(big))
	}
	for _, raw := range [][]byte{legacy, binary} {
		got, err := Merged(raw, &fakeStore{docs: map[string][]byte{"blob_a": doc}})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.PDF, eager.PDF) || !bytes.Equal(got.ZIP, eager.ZIP) || got.Pages != eager.Pages {
			t.Fatalf("recipe starting %q renders other bytes than the eager rendering", raw[:1])
		}
	}
}

// TestDamagedBinaryRecipeIsAnError: every truncation of a recipe, extra
// bytes after it, and an unknown format answer an error, never a panic.
func TestDamagedBinaryRecipeIsAnError(t *testing.T) {
	raw, err := EncodeRecipe(fullComposition(), []string{"blob_a"})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(raw); n++ {
		if _, err := DecodeRecipe(raw[:n]); err == nil {
			t.Fatalf("a recipe cut at %d of %d bytes decoded", n, len(raw))
		}
	}
	if _, err := DecodeRecipe(append(append([]byte(nil), raw...), 0)); err == nil {
		t.Fatal("a recipe with a byte after its end decoded")
	}
	bad := append([]byte(nil), raw...)
	bad[0] = 0x7f
	if _, err := DecodeRecipe(bad); err == nil {
		t.Fatal("a recipe of an unknown format decoded")
	}
	// Flipping any byte may give another valid recipe, never a panic.
	for i := 1; i < len(raw); i++ {
		b := append([]byte(nil), raw...)
		b[i] ^= 0xff
		_, _ = DecodeRecipe(b)
	}
}

// FuzzDecodeRecipe: no input makes decoding panic, and what decodes
// encodes to a recipe that decodes the same.
func FuzzDecodeRecipe(f *testing.F) {
	raw, err := EncodeRecipe(fullComposition(), []string{"blob_a"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte{recipeV1})
	f.Add([]byte{recipeV2})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRecipe(b)
		if err != nil || len(b) == 0 || b[0] != recipeV1 && b[0] != recipeV2 || !validText(&r.Composition) {
			return
		}
		again, err := DecodeRecipe(encodeBinary(&r.Composition, r.Refs))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("re-encoding changed the recipe:\n%+v\n%+v", again, r)
		}
	})
}
