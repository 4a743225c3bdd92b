package pdf

import (
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
	doc := pdftest.WritePDF("1.7", []string{
		"<</Type/Catalog/Pages 2 0 R/AcroForm<</Fields[5 0 R 6 0 R 7 0 R 8 0 R 99 0 R]>>>>",
		"<</Type/Pages/Kids[4 0 R]/Count 1>>",
		"<</Length 5>>\nstream\nBT ET\nendstream",
		"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 3 0 R/Rotate 90>>",
		"<</FT/Tx/T(rotated)/Rect[100 600 300 620]/P 4 0 R/Subtype/Widget>>",
		"<</FT/Tx/T(empty)/Rect[10 10 10 50]/P 4 0 R/Subtype/Widget>>",
		"<</FT/Zz/T(odd)/Rect[10 10 50 50]/P 4 0 R/Subtype/Widget>>",
		"<</T(loop)/Kids[8 0 R]>>", // a field that is its own kid
	}, 1)
	got, err := ReadFormFields(doc)
	require.NoError(t, err)
	// Displayed (u, v) = (y, 612 - x) on the turned page.
	assert.Equal(t, []PDFField{{Name: "rotated", Kind: PDFFieldText, Page: 1, X: 600, Y: 100, Width: 20, Height: 200}}, got)
}
