package pdf

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

func TestReadFormFields(t *testing.T) {
	pdf := pdftest.MakeFormPDF(2,
		pdftest.FormField{Name: "full_name", Type: "Tx", Flags: 2, Page: 1, Rect: [4]float64{100, 600, 300, 620}, Value: "Jane"},
		pdftest.FormField{Name: "agree", Type: "Btn", Page: 1, Rect: [4]float64{100, 560, 112, 572}, On: true},
		pdftest.FormField{Name: "news", Type: "Btn", Page: 1, Rect: [4]float64{120, 560, 132, 572}},
		pdftest.FormField{Group: "plan", Type: "Btn", Flags: 2, Page: 1, Rect: [4]float64{100, 500, 112, 512}},
		pdftest.FormField{Group: "plan", Type: "Btn", Flags: 2, Page: 1, Rect: [4]float64{150, 500, 162, 512}, On: true},
		pdftest.FormField{Name: "color", Type: "Ch", Page: 1, Rect: [4]float64{100, 450, 200, 470}, Options: []string{"Red", "Green"}, Value: "Green"},
		pdftest.FormField{Name: "reset", Type: "Btn", Flags: 1 << 16, Page: 1, Rect: [4]float64{300, 450, 360, 470}},
		pdftest.FormField{Name: "sig", Type: "Sig", Page: 2, Rect: [4]float64{72, 100, 272, 150}},
		pdftest.FormField{Name: "city", Parent: "address", Type: "Tx", Flags: 1, Page: 2, Rect: [4]float64{72, 200, 272, 220}},
	)
	pdftest.Validate(t, pdf)
	_, err := Inspect(pdf)
	require.NoError(t, err, "uploads are inspected with validation")

	got, err := ReadFormFields(pdf)
	require.NoError(t, err)
	want := []PDFField{
		{Name: "full_name", Kind: PDFFieldText, Page: 1, X: 100, Y: 172, Width: 200, Height: 20, Required: true, Value: "Jane"},
		{Name: "agree", Kind: PDFFieldCheckbox, Page: 1, X: 100, Y: 220, Width: 12, Height: 12, Checked: true},
		{Name: "news", Kind: PDFFieldCheckbox, Page: 1, X: 120, Y: 220, Width: 12, Height: 12},
		{Name: "plan", Kind: PDFFieldRadio, Page: 1, X: 100, Y: 280, Width: 12, Height: 12, Required: true},
		{Name: "plan", Kind: PDFFieldRadio, Page: 1, X: 150, Y: 280, Width: 12, Height: 12, Required: true, Checked: true},
		{Name: "color", Kind: PDFFieldDropdown, Page: 1, X: 100, Y: 322, Width: 100, Height: 20, Options: []string{"Red", "Green"}, Value: "Green"},
		{Name: "sig", Kind: PDFFieldSignature, Page: 2, X: 72, Y: 642, Width: 200, Height: 50},
		{Name: "address.city", Kind: PDFFieldText, Page: 2, X: 72, Y: 572, Width: 200, Height: 20, ReadOnly: true},
	}
	assert.Equal(t, want, got)
}

func TestReadFormFieldsWithoutForm(t *testing.T) {
	got, err := ReadFormFields(pdftest.MakePDF(pdftest.Letter("no form")))
	require.NoError(t, err)
	assert.Empty(t, got)
}

// Widgets no page lists in /Annots are placed by /P; a rotated page
// measures them as displayed; odd entries are skipped, not fatal.
func TestReadFormFieldsOddFiles(t *testing.T) {
	b := &pdfBuild{}
	pages, cat := buildPages(b, []testPage{{content: "BT ET", extra: "/Rotate 90"}}, "")
	field := b.add(fmt.Sprintf("<</FT/Tx/T(rotated)/Rect[100 600 300 620]/P %d 0 R/Subtype/Widget>>", pages[0]))
	empty := b.add(fmt.Sprintf("<</FT/Tx/T(empty)/Rect[10 10 10 50]/P %d 0 R/Subtype/Widget>>", pages[0]))
	unknown := b.add(fmt.Sprintf("<</FT/Zz/T(odd)/Rect[10 10 50 50]/P %d 0 R/Subtype/Widget>>", pages[0]))
	loop := b.reserve()
	b.set(loop, fmt.Sprintf("<</T(loop)/Kids[%d 0 R]>>", loop))
	b.set(cat, fmt.Sprintf("<</Type/Catalog/Pages 2 0 R/AcroForm<</Fields[%d 0 R %d 0 R %d 0 R %d 0 R 99 0 R]>>>>", field, empty, unknown, loop))
	got, err := ReadFormFields(b.bytes(cat))
	require.NoError(t, err)
	// Displayed (u, v) = (y, 612 - x) on the turned page.
	assert.Equal(t, []PDFField{{Name: "rotated", Kind: PDFFieldText, Page: 1, X: 600, Y: 100, Width: 20, Height: 200}}, got)
}
