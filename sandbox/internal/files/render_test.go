package files_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/files"
	"github.com/signsandbox/signsandbox/sandbox/internal/files/filestest"
)

var t0 = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

func fullComposition(docs ...files.Source) files.Composition {
	signed := t0.Add(time.Hour)
	return files.Composition{
		ID:        "fa5c8a0b0f492d768749333ad6fcc214c111e967",
		Title:     "NDA with Acme Co.",
		Documents: docs,
		SignaturePage: &files.SignaturePage{Signers: []files.SignerLine{
			{Name: "Jack Signer", Email: "jack@example.com", Status: "signed", SignedAt: &signed},
			{Name: "Jill Pending", Email: "jill@example.com", Status: "awaiting_signature"},
		}},
		Stamps: []files.Stamp{
			{Document: 0, Page: 1, X: 100, Y: 600, Width: 200, Height: 30, Text: "Jack Signer", Kind: files.StampSignature},
			{Document: 0, Page: 1, X: 320, Y: 600, Width: 120, Height: 20, Text: "03/01/2024", Kind: files.StampDate},
			{Document: 0, Page: 1, X: 460, Y: 600, Width: 20, Height: 20, Text: "X", Kind: files.StampCheckbox},
		},
		TestMode: true,
		Audit: []files.AuditEntry{
			{Time: t0, Actor: "owner@sandbox.example", Action: "Sent for signature", Detail: "to jack@example.com, jill@example.com"},
			{Time: signed, Actor: "jack@example.com", Action: "Signed"},
		},
		At: signed,
	}
}

func TestRenderGeneratedDocuments(t *testing.T) {
	doc1 := filestest.MakePDF(filestest.Letter("first"), filestest.Page{Width: 792, Height: 612, Text: "landscape"})
	doc2 := filestest.MakePDF(filestest.Page{Width: 595, Height: 842, Rotate: 90, Text: "rotated"})
	c := fullComposition(files.Source{Name: "one.pdf", PDF: doc1}, files.Source{Name: "two.pdf", PDF: doc2})
	out, err := files.Render(c)
	require.NoError(t, err)
	assert.Equal(t, 5, out.Pages, "3 document pages + signature page + audit page")
	assert.Equal(t, 5, filestest.Validate(t, out.PDF))

	again, err := files.Render(c)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(out.PDF, again.PDF), "same composition, same PDF bytes")
	assert.True(t, bytes.Equal(out.ZIP, again.ZIP), "same composition, same ZIP bytes")

	names, contents := filestest.Unzip(t, out.ZIP)
	assert.Equal(t, []string{"one.pdf", "two.pdf"}, names)
	assert.Equal(t, 2, filestest.Validate(t, contents[0]))
	assert.Equal(t, 1, filestest.Validate(t, contents[1]))

	if filestest.HavePdftoppm() {
		assert.Equal(t, 5, filestest.Render(t, out.PDF))
		text := filestest.Text(t, out.PDF)
		for _, want := range []string{"first", "landscape", "rotated", "Jack Signer", "03/01/2024", "Signature page",
			"jill@example.com", "not signed", "Audit trail", "2024-03-01 12:00:00 UTC", "TEST MODE", "fa5c8a0b0f492d768749333ad6fcc214c111e967"} {
			assert.Contains(t, text, want)
		}
		assert.Equal(t, 5, strings.Count(text, "TEST MODE"), "test-mode banner on every page")
	}
}

func TestRenderSamplePDF(t *testing.T) {
	for _, name := range filestest.SampleNames {
		t.Run(name, func(t *testing.T) {
			sample := filestest.Sample(t, name)
			info, err := files.Inspect(sample)
			require.NoError(t, err)
			c := fullComposition(files.Source{Name: name, PDF: sample}, files.Source{Name: name, PDF: sample})
			out, err := files.Render(c)
			require.NoError(t, err)
			want := 2*len(info.Pages) + 2
			assert.Equal(t, want, out.Pages)
			assert.Equal(t, want, filestest.Validate(t, out.PDF))
			names, contents := filestest.Unzip(t, out.ZIP)
			base := strings.TrimSuffix(name, ".pdf")
			assert.Equal(t, []string{base + ".pdf", base + " (2).pdf"}, names, "unique entry names")
			for _, c := range contents {
				assert.Equal(t, len(info.Pages), filestest.Validate(t, c))
			}
			if filestest.HavePdftoppm() {
				assert.Equal(t, want, filestest.Render(t, out.PDF))
			}
		})
	}
}

func TestRenderPDFMatchesRender(t *testing.T) {
	c := fullComposition(files.Source{Name: "a.pdf", PDF: filestest.MakePDF(filestest.Letter("a"))})
	both, err := files.Render(c)
	require.NoError(t, err)
	pdf, pages, err := files.RenderPDF(c)
	require.NoError(t, err)
	assert.Equal(t, both.PDF, pdf)
	assert.Equal(t, both.Pages, pages)
}

func TestRenderUnreadableDocumentBecomesAPage(t *testing.T) {
	c := files.Composition{ID: "x", Documents: []files.Source{{Name: "broken.pdf", PDF: []byte("%PDF-1.4 nothing")}, {Name: "ok.pdf", PDF: filestest.MakePDF(filestest.Letter("ok"))}}}
	out, err := files.Render(c)
	require.NoError(t, err)
	assert.Equal(t, 2, filestest.Validate(t, out.PDF))
	if filestest.HavePdftoppm() {
		assert.Contains(t, filestest.Text(t, out.PDF), "could not be read")
	}
}

func TestSafeNames(t *testing.T) {
	assert.Equal(t, []string{"contract.pdf", "contract (2).pdf", "CONTRACT (3).pdf", "evil.pdf", "document-5.pdf", "a_b_c.pdf", "x.pdf", "x (2).pdf"},
		files.UniqueNames([]string{"contract.pdf", "contract.docx", "CONTRACT.pdf", "../../etc/evil.pdf", "...", `a"b:c.txt`, "x.pdf", "x (2).pdf"}))
	assert.Equal(t, "report.zip", files.SafeName("C:\\Users\\me\\report.pdf", ".zip", "f"))
	assert.Equal(t, strings.Repeat("é", 100)+".pdf", files.SafeName(strings.Repeat("é", 150), ".pdf", "f"))
}

// TestConcurrentUse: uploads are converted and compositions rendered from
// many request goroutines at once.
func TestConcurrentUse(t *testing.T) {
	pdf := filestest.MakePDF(filestest.Letter("a"), filestest.Letter("b"))
	want, err := files.Render(fullComposition(files.Source{Name: "a.pdf", PDF: pdf}))
	require.NoError(t, err)
	errs := make(chan error, 16)
	for range 8 {
		go func() {
			if _, err := files.Convert("a.pdf", "", pdf); err != nil {
				errs <- err
				return
			}
			out, err := files.Render(fullComposition(files.Source{Name: "a.pdf", PDF: pdf}))
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
	field := files.Stamp{Width: 100, Height: 20, Kind: files.StampText}
	for text, want := range map[string]bool{
		"":                          true,
		"Jane Q. Public":            true,
		strings.Repeat("W", 20):     true, // shrunk, still whole
		strings.Repeat("W", 40):     false,
		strings.Repeat("word ", 60): false,
	} {
		s := field
		s.Text = text
		assert.Equal(t, want, files.StampFits(s), "%q", text)
	}
	assert.True(t, files.StampFits(files.Stamp{Text: strings.Repeat("W", 400)}), "no width, nothing to cut")
}

// TestRenderCoverPage pins the fax cover page: exactly one page before the
// documents whatever the message's length, left out of the ZIP.
func TestRenderCoverPage(t *testing.T) {
	doc := filestest.MakePDF(filestest.Letter("the contract"), filestest.Letter("page two"))
	for name, msg := range map[string]string{"short": "I'm sending you a fax!", "longer than a page": strings.Repeat("A very long cover message. ", 400)} {
		t.Run(name, func(t *testing.T) {
			c := files.Composition{ID: "f1", Title: "Quarterly report", At: t0, Documents: []files.Source{{Name: "a.pdf", PDF: doc}},
				CoverPage: &files.CoverPage{To: "Jill Fax", From: "Faxer Faxerson", Message: msg, Recipient: "+16690000001", Pages: 3}}
			out, err := files.Render(c)
			require.NoError(t, err)
			assert.Equal(t, 3, out.Pages, "cover page + two document pages")
			assert.Equal(t, 3, filestest.Validate(t, out.PDF))
			_, contents := filestest.Unzip(t, out.ZIP)
			assert.Equal(t, 2, filestest.Validate(t, contents[0]), "the ZIP holds the documents only")
			if filestest.HavePdftoppm() {
				text := filestest.Text(t, out.PDF)
				for _, want := range []string{"FAX", "Jill Fax", "Faxer Faxerson", "+16690000001", "Quarterly report", "3 (this cover page included)", "the contract"} {
					assert.Contains(t, text, want)
				}
				assert.Less(t, strings.Index(text, "Jill Fax"), strings.Index(text, "the contract"), "the cover page comes first")
			}
		})
	}
}
