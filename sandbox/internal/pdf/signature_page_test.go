package pdf_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// TestSignaturePageShowsEachSignatureInItsBox: the appended signature page
// has one box per signer line; a signer who signed has their signature
// (as typed) in it, a pending one "(not signed)"; the page alone renders
// as the merged PDF's page does.
func TestSignaturePageShowsEachSignatureInItsBox(t *testing.T) {
	signed := t0.Add(time.Hour)
	c := pdf.Composition{ID: "fa5c8a0b0f492d768749333ad6fcc214c111e967", Title: "NDA", TestMode: true, At: signed,
		SignaturePage: &pdf.SignaturePage{Signers: []pdf.SignerLine{
			{Name: "Jack", Email: "jack@example.com", Status: "signed", SignedAt: &signed, Signature: "Jack Example"},
			{Name: "Jill", Email: "jill@example.com", Status: "awaiting_signature"},
		}}}
	boxes := pdf.SignaturePageBoxes(c)
	require.Len(t, boxes, 2)
	for i, b := range boxes {
		assert.Equal(t, 1, b.Page, "box %d", i)
		assert.Greater(t, b.Width, 200.0)
		assert.Greater(t, b.Height, 30.0)
		assert.True(t, b.Y > 0 && b.Y+b.Height < 792, "box %d is on the page: %+v", i, b)
	}
	assert.Greater(t, boxes[1].Y, boxes[0].Y+boxes[0].Height, "the second signer's box is below the first")

	page := pdf.SignaturePagePDF(c)
	assert.Equal(t, 1, pdftest.Validate(t, page))
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): text check skipped")
	}
	text := pdftest.Text(t, page)
	for _, want := range []string{"Signature page", "Jack Example", "jill@example.com", "(not signed)", "Status: awaiting_signature", "TEST MODE"} {
		assert.Contains(t, text, want)
	}
	assert.Equal(t, 1, strings.Count(text, "Jack Example"), "the signature once, in its box")

	merged, _, err := pdf.RenderPDF(c)
	require.NoError(t, err)
	assert.Contains(t, pdftest.Text(t, merged), "Jack Example", "the merged PDF's signature page is the same page")
}

// TestSignaturePageBoxesFlowOntoMorePages: many signers take more than one
// page, and no box is cut by a page break.
func TestSignaturePageBoxesFlowOntoMorePages(t *testing.T) {
	var lines []pdf.SignerLine
	for i := 0; i < 12; i++ {
		lines = append(lines, pdf.SignerLine{Name: "Signer", Email: "s@example.com", Status: "awaiting_signature"})
	}
	c := pdf.Composition{ID: "x", SignaturePage: &pdf.SignaturePage{Signers: lines}}
	boxes := pdf.SignaturePageBoxes(c)
	require.Len(t, boxes, 12)
	pages := map[int]bool{}
	for _, b := range boxes {
		pages[b.Page] = true
		assert.True(t, b.Y > 0 && b.Y+b.Height < 792-40, "%+v", b)
	}
	assert.Greater(t, len(pages), 1)
	assert.Equal(t, len(pages), pdftest.Validate(t, pdf.SignaturePagePDF(c)))
	assert.Nil(t, pdf.SignaturePageBoxes(pdf.Composition{}))
}
