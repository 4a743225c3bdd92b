package pdf_test

import (
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// benchSample is the reference sample PDF, or a generated one-page PDF
// when the reference material is absent.
func benchSample(b *testing.B) []byte {
	if s := pdftest.SampleIfPresent("pdf-sample.pdf"); s != nil {
		return s
	}
	b.Log("pdf-sample.pdf not found beside the repository: benchmarking a generated PDF")
	return pdftest.MakePDF(pdftest.Letter("benchmark"))
}

func BenchmarkInspectSample(b *testing.B) {
	data := benchSample(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := pdf.Inspect(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderSample composes a request of three sample documents with
// stamps, the signature page, the test-mode marking and the audit trail,
// as the merged PDF and the ZIP.
func BenchmarkRenderSample(b *testing.B) {
	data := benchSample(b)
	src := pdf.Source{Name: "pdf-sample.pdf", PDF: data}
	c := fullComposition(src, src, src)
	for b.Loop() {
		if _, err := pdf.Render(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkConvertText(b *testing.B) {
	text := []byte("A line of a plain-text document that becomes PDF pages.\n")
	var doc []byte
	for range 200 {
		doc = append(doc, text...)
	}
	for b.Loop() {
		if _, err := pdf.Convert("notes.txt", "text/plain", doc); err != nil {
			b.Fatal(err)
		}
	}
}
