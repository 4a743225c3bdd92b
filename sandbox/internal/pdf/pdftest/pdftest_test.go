package pdftest

import (
	"archive/zip"
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMadePDFsAreValid: the generated PDFs pass pdfcpu's validation with
// the pages asked for, and render and read back where poppler is installed.
func TestMadePDFsAreValid(t *testing.T) {
	pdf := MakePDF(Letter("hello filestest"), Page{Width: 842, Height: 595, Rotate: 90}, Page{})
	assert.Equal(t, 3, Validate(t, pdf))
	form := MakeFormPDF(2,
		FormField{Name: "name", Type: "Tx", Page: 1, Rect: [4]float64{72, 600, 300, 620}, Value: "Ada"},
		FormField{Name: "agree", Type: "Btn", Page: 2, Rect: [4]float64{72, 500, 90, 518}, On: true})
	assert.Equal(t, 2, Validate(t, form))
	if HavePdftoppm() {
		assert.Equal(t, 3, Render(t, pdf))
		assert.Contains(t, Text(t, pdf), "hello filestest")
	}
}

// TestUnzip returns entries in their order.
func TestUnzip(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range []string{"b.pdf", "a.pdf"} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, _ = w.Write([]byte("content of " + name))
	}
	require.NoError(t, zw.Close())
	names, contents := Unzip(t, b.Bytes())
	assert.Equal(t, []string{"b.pdf", "a.pdf"}, names)
	assert.Equal(t, [][]byte{[]byte("content of b.pdf"), []byte("content of a.pdf")}, contents)
}

// TestSamplePathIsInTheReference: samples come from the reference
// material beside the checkout, never from the repository, and are valid.
func TestSamplePathIsInTheReference(t *testing.T) {
	assert.Contains(t, SamplePath("x.pdf"), "/shared/reference/dropbox-sign/test_fixtures/x.pdf")
	assert.NotContains(t, SamplePath("x.pdf"), "/sandbox/internal/")
	assert.Nil(t, SampleIfPresent("no-such-sample.pdf"))
	for _, name := range SampleNames {
		if pdf := SampleIfPresent(name); pdf != nil {
			assert.Positive(t, Validate(t, pdf), name)
		}
	}
}
