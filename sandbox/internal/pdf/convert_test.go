package pdf_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/bmp"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

func testImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 120, 80))
	for y := 0; y < 80; y++ {
		for x := 0; x < 120; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 2), uint8(y * 3), 128, 255})
		}
	}
	return img
}

func encoded(t *testing.T, enc func(*bytes.Buffer, image.Image) error) []byte {
	var buf bytes.Buffer
	require.NoError(t, enc(&buf, testImage()))
	return buf.Bytes()
}

func TestConvert(t *testing.T) {
	pngBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) })
	jpegBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) })
	gifBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) })
	bmpBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return bmp.Encode(b, i) })
	docx := append([]byte("PK\x03\x04"), make([]byte, 100)...)
	doc := append([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), make([]byte, 100)...)
	pdfDoc := pdftest.MakePDF(pdftest.Letter("a"), pdftest.Letter("b"))

	ok := []struct {
		name, file, ctype string
		data              []byte
		how               string
		pages             int
		text              string // expected in the rendered text
	}{
		{"pdf", "contract.pdf", "application/pdf", pdfDoc, pdf.AsPDF, 2, ""},
		{"pdf named otherwise", "contract.docx", "", pdfDoc, pdf.AsPDF, 2, ""},
		{"png", "scan.png", "image/png", pngBytes, pdf.AsImage, 1, ""},
		{"jpeg", "photo.jpg", "", jpegBytes, pdf.AsImage, 1, ""},
		{"gif", "anim.gif", "", gifBytes, pdf.AsImage, 1, ""},
		{"bmp", "old.bmp", "", bmpBytes, pdf.AsImage, 1, ""},
		{"image without extension", "upload", "", pngBytes, pdf.AsImage, 1, ""},
		{"text", "notes.txt", "text/plain", []byte("Hello, signer.\nSecond line ünïcödé."), pdf.AsText, 1, "Second line ünïcödé."},
		{"latin-1 text", "old.txt", "", []byte("caf\xe9"), pdf.AsText, 1, "café"},
		{"text by content type", "download", "text/plain; charset=utf-8", []byte("plain"), pdf.AsText, 1, "plain"},
		{"docx", "offer.docx", "", docx, pdf.AsPlaceholder, 1, "offer.docx"},
		{"doc", "offer.doc", "", doc, pdf.AsPlaceholder, 1, "Word document"},
		{"xlsx", "sheet.xlsx", "", docx, pdf.AsPlaceholder, 1, "Excel spreadsheet"},
		{"pptx", "deck.pptx", "", docx, pdf.AsPlaceholder, 1, "placeholder"},
		{"html", "page.html", "", []byte("<html><body>Hi</body></html>"), pdf.AsPlaceholder, 1, "HTML page"},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			out, err := pdf.Convert(tc.file, tc.ctype, tc.data)
			require.NoError(t, err)
			assert.Equal(t, tc.how, out.How)
			assert.Len(t, out.Info.Pages, tc.pages)
			assert.Equal(t, tc.pages, pdftest.Validate(t, out.PDF))
			again, err := pdf.Convert(tc.file, tc.ctype, tc.data)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(out.PDF, again.PDF), "conversion is deterministic")
			if tc.text != "" && pdftest.HavePdftoppm() {
				assert.Equal(t, tc.pages, pdftest.Render(t, out.PDF))
				assert.Contains(t, pdftest.Text(t, out.PDF), tc.text)
			}
		})
	}

	bad := []struct {
		name, file string
		data       []byte
		reason     string
	}{
		{"empty", "a.pdf", nil, pdf.ReasonEmpty},
		{"pdf name, not a pdf", "a.pdf", []byte("hello"), pdf.ReasonNotPDF},
		{"png name, not an image", "a.png", []byte("hello"), pdf.ReasonUnreadable},
		{"docx name, not a zip", "a.docx", []byte("hello"), pdf.ReasonUnreadable},
		{"binary text", "a.txt", []byte("a\x00b"), pdf.ReasonUnreadable},
		{"unsupported", "a.exe", []byte("MZ\x90\x00"), pdf.ReasonUnsupported},
		{"no name, no type", "blob", []byte("???"), pdf.ReasonUnsupported},
		{"broken png", "a.png", pngBytes[:40], pdf.ReasonUnreadable},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pdf.Convert(tc.file, "", tc.data)
			fe, ok := pdf.AsFileError(err)
			require.True(t, ok, "want a FileError, got %v", err)
			assert.Equal(t, tc.reason, fe.Reason, fe.Msg)
		})
	}
}

func TestTextFileIsCappedInPages(t *testing.T) {
	long := strings.Repeat("line of text\n", 20000)
	out, err := pdf.Convert("long.txt", "", []byte(long))
	require.NoError(t, err)
	assert.Len(t, out.Info.Pages, 200)
}

func TestOfflinePlaceholder(t *testing.T) {
	out := pdf.OfflinePlaceholder("https://example.com/contract.pdf")
	assert.Equal(t, pdf.AsPlaceholder, out.How)
	assert.Equal(t, 1, pdftest.Validate(t, out.PDF))
	if pdftest.HavePdftoppm() {
		text := pdftest.Text(t, out.PDF)
		assert.Contains(t, text, "https://example.com/contract.pdf")
		assert.Contains(t, text, "placeholder")
	}
}
