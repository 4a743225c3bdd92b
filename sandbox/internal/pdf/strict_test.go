package pdf_test

import (
	"bytes"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// TestGeneratedPDFsAreStrictlyValid: what the sandbox draws itself passes
// pdfcpu's strict validation (documents it copies are as valid as their
// source, which relaxed validation checks elsewhere).
func TestGeneratedPDFsAreStrictlyValid(t *testing.T) {
	strict := func(pdfDoc []byte) error {
		conf := model.NewDefaultConfiguration()
		conf.ValidationMode = model.ValidationStrict
		return api.Validate(bytes.NewReader(pdfDoc), conf)
	}
	text, err := pdf.Convert("notes.txt", "", []byte("Hello"))
	require.NoError(t, err)
	assert.NoError(t, strict(text.PDF))
	ph, err := pdf.Convert("offer.docx", "", append([]byte("PK\x03\x04"), make([]byte, 10)...))
	require.NoError(t, err)
	assert.NoError(t, strict(ph.PDF))
	assert.NoError(t, strict(pdf.OfflinePlaceholder("https://example.com/a.pdf").PDF))
	out, err := pdf.Render(fullComposition(pdf.Source{Name: "gen.pdf", PDF: text.PDF}))
	require.NoError(t, err)
	assert.NoError(t, strict(out.PDF))
}
