package pdf_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

var t0 = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

func fullComposition(docs ...pdf.Source) pdf.Composition {
	signed := t0.Add(time.Hour)
	return pdf.Composition{
		ID:        "fa5c8a0b0f492d768749333ad6fcc214c111e967",
		Title:     "NDA with Acme Co.",
		Documents: docs,
		SignaturePage: &pdf.SignaturePage{Signers: []pdf.SignerLine{
			{Name: "Jack Signer", Email: "jack@example.com", Status: "signed", SignedAt: &signed},
			{Name: "Jill Pending", Email: "jill@example.com", Status: "awaiting_signature"},
		}},
		Stamps: []pdf.Stamp{
			{Document: 0, Page: 1, X: 100, Y: 600, Width: 200, Height: 30, Text: "Jack Signer", Kind: pdf.StampSignature},
			{Document: 0, Page: 1, X: 320, Y: 600, Width: 120, Height: 20, Text: "03/01/2024", Kind: pdf.StampDate},
			{Document: 0, Page: 1, X: 460, Y: 600, Width: 20, Height: 20, Text: "X", Kind: pdf.StampCheckbox},
		},
		TestMode: true,
		Audit: []pdf.AuditEntry{
			{Time: t0, Actor: "owner@sandbox.example", Action: "Sent for signature", Detail: "to jack@example.com, jill@example.com"},
			{Time: signed, Actor: "jack@example.com", Action: "Signed"},
		},
		At: signed,
	}
}

func TestRenderGeneratedDocuments(t *testing.T) {
	doc1 := pdftest.MakePDF(pdftest.Letter("first"), pdftest.Page{Width: 792, Height: 612, Text: "landscape"})
	doc2 := pdftest.MakePDF(pdftest.Page{Width: 595, Height: 842, Rotate: 90, Text: "rotated"})
	c := fullComposition(pdf.Source{Name: "one.pdf", PDF: doc1}, pdf.Source{Name: "two.pdf", PDF: doc2})
	out, err := pdf.Render(c)
	require.NoError(t, err)
	assert.Equal(t, 5, out.Pages, "3 document pages + signature page + audit page")
	assert.Equal(t, 5, pdftest.Validate(t, out.PDF))

	again, err := pdf.Render(c)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(out.PDF, again.PDF), "same composition, same PDF bytes")
	assert.True(t, bytes.Equal(out.ZIP, again.ZIP), "same composition, same ZIP bytes")

	names, contents := pdftest.Unzip(t, out.ZIP)
	assert.Equal(t, []string{"one.pdf", "two.pdf"}, names)
	assert.Equal(t, 2, pdftest.Validate(t, contents[0]))
	assert.Equal(t, 1, pdftest.Validate(t, contents[1]))

	if pdftest.HavePdftoppm() {
		assert.Equal(t, 5, pdftest.Render(t, out.PDF))
		text := pdftest.Text(t, out.PDF)
		for _, want := range []string{"first", "landscape", "rotated", "Jack Signer", "03/01/2024", "Signature page",
			"jill@example.com", "not signed", "Audit trail", "2024-03-01 12:00:00 UTC", "TEST MODE", "fa5c8a0b0f492d768749333ad6fcc214c111e967"} {
			assert.Contains(t, text, want)
		}
		assert.Equal(t, 5, strings.Count(text, "TEST MODE"), "test-mode banner on every page")
	}
}

func TestRenderSamplePDF(t *testing.T) {
	for _, name := range pdftest.SampleNames {
		t.Run(name, func(t *testing.T) {
			sample := pdftest.Sample(t, name)
			info, err := pdf.Inspect(sample)
			require.NoError(t, err)
			c := fullComposition(pdf.Source{Name: name, PDF: sample}, pdf.Source{Name: name, PDF: sample})
			out, err := pdf.Render(c)
			require.NoError(t, err)
			want := 2*len(info.Pages) + 2
			assert.Equal(t, want, out.Pages)
			assert.Equal(t, want, pdftest.Validate(t, out.PDF))
			names, contents := pdftest.Unzip(t, out.ZIP)
			base := strings.TrimSuffix(name, ".pdf")
			assert.Equal(t, []string{base + ".pdf", base + " (2).pdf"}, names, "unique entry names")
			for _, c := range contents {
				assert.Equal(t, len(info.Pages), pdftest.Validate(t, c))
			}
			if pdftest.HavePdftoppm() {
				assert.Equal(t, want, pdftest.Render(t, out.PDF))
			}
		})
	}
}

func TestRenderPDFMatchesRender(t *testing.T) {
	c := fullComposition(pdf.Source{Name: "a.pdf", PDF: pdftest.MakePDF(pdftest.Letter("a"))})
	both, err := pdf.Render(c)
	require.NoError(t, err)
	pdfDoc, pages, err := pdf.RenderPDF(c)
	require.NoError(t, err)
	assert.Equal(t, both.PDF, pdfDoc)
	assert.Equal(t, both.Pages, pages)
}

func TestRenderUnreadableDocumentBecomesAPage(t *testing.T) {
	c := pdf.Composition{ID: "x", Documents: []pdf.Source{{Name: "broken.pdf", PDF: []byte("%PDF-1.4 nothing")}, {Name: "ok.pdf", PDF: pdftest.MakePDF(pdftest.Letter("ok"))}}}
	out, err := pdf.Render(c)
	require.NoError(t, err)
	assert.Equal(t, 2, pdftest.Validate(t, out.PDF))
	if pdftest.HavePdftoppm() {
		assert.Contains(t, pdftest.Text(t, out.PDF), "could not be read")
	}
}

func TestSafeNames(t *testing.T) {
	assert.Equal(t, []string{"contract.pdf", "contract (2).pdf", "CONTRACT (3).pdf", "evil.pdf", "document-5.pdf", "a_b_c.pdf", "x.pdf", "x (2).pdf"},
		pdf.UniqueNames([]string{"contract.pdf", "contract.docx", "CONTRACT.pdf", "../../etc/evil.pdf", "...", `a"b:c.txt`, "x.pdf", "x (2).pdf"}))
	assert.Equal(t, "report.zip", pdf.SafeName("C:\\Users\\me\\report.pdf", ".zip", "f"))
	assert.Equal(t, strings.Repeat("é", 100)+".pdf", pdf.SafeName(strings.Repeat("é", 150), ".pdf", "f"))
}

// TestConcurrentUse: uploads are converted and compositions rendered from
// many request goroutines at once.
func TestConcurrentUse(t *testing.T) {
	pdfDoc := pdftest.MakePDF(pdftest.Letter("a"), pdftest.Letter("b"))
	want, err := pdf.Render(fullComposition(pdf.Source{Name: "a.pdf", PDF: pdfDoc}))
	require.NoError(t, err)
	errs := make(chan error, 16)
	for range 8 {
		go func() {
			if _, err := pdf.Convert("a.pdf", "", pdfDoc); err != nil {
				errs <- err
				return
			}
			out, err := pdf.Render(fullComposition(pdf.Source{Name: "a.pdf", PDF: pdfDoc}))
			if err == nil && !bytes.Equal(out.PDF, want.PDF) {
				err = assert.AnError
			}
			errs <- err
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}

// TestStampFits pins the rule the custom_field_value_too_long warning uses:
// text fits when the renderer can draw it whole, shrinking it down to five
// points; text it has to cut does not.
func TestStampFits(t *testing.T) {
	field := pdf.Stamp{Width: 100, Height: 20, Kind: pdf.StampText}
	for text, want := range map[string]bool{
		"":                          true,
		"Jane Q. Public":            true,
		strings.Repeat("W", 20):     true, // shrunk, still whole
		strings.Repeat("W", 40):     false,
		strings.Repeat("word ", 60): false,
	} {
		s := field
		s.Text = text
		assert.Equal(t, want, pdf.StampFits(s), "%q", text)
	}
	assert.True(t, pdf.StampFits(pdf.Stamp{Text: strings.Repeat("W", 400)}), "no width, nothing to cut")
}

// TestRenderCoverPage pins the fax cover page: exactly one page before the
// documents whatever the message's length, left out of the ZIP.
func TestRenderCoverPage(t *testing.T) {
	doc := pdftest.MakePDF(pdftest.Letter("the contract"), pdftest.Letter("page two"))
	for name, msg := range map[string]string{"short": "I'm sending you a fax!", "longer than a page": strings.Repeat("A very long cover message. ", 400)} {
		t.Run(name, func(t *testing.T) {
			c := pdf.Composition{ID: "f1", Title: "Quarterly report", At: t0, Documents: []pdf.Source{{Name: "a.pdf", PDF: doc}},
				CoverPage: &pdf.CoverPage{To: "Jill Fax", From: "Faxer Faxerson", Message: msg, Recipient: "+16690000001", Pages: 3}}
			out, err := pdf.Render(c)
			require.NoError(t, err)
			assert.Equal(t, 3, out.Pages, "cover page + two document pages")
			assert.Equal(t, 3, pdftest.Validate(t, out.PDF))
			_, contents := pdftest.Unzip(t, out.ZIP)
			assert.Equal(t, 2, pdftest.Validate(t, contents[0]), "the ZIP holds the documents only")
			if pdftest.HavePdftoppm() {
				text := pdftest.Text(t, out.PDF)
				for _, want := range []string{"FAX", "Jill Fax", "Faxer Faxerson", "+16690000001", "Quarterly report", "3 (this cover page included)", "the contract"} {
					assert.Contains(t, text, want)
				}
				assert.Less(t, strings.Index(text, "Jill Fax"), strings.Index(text, "the contract"), "the cover page comes first")
			}
		})
	}
}
