package files_test

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

	"github.com/signsandbox/signsandbox/sandbox/internal/files"
	"github.com/signsandbox/signsandbox/sandbox/internal/files/filestest"
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
	pdf := filestest.MakePDF(filestest.Letter("a"), filestest.Letter("b"))

	ok := []struct {
		name, file, ctype string
		data              []byte
		how               string
		pages             int
		text              string // expected in the rendered text
	}{
		{"pdf", "contract.pdf", "application/pdf", pdf, files.AsPDF, 2, ""},
		{"pdf named otherwise", "contract.docx", "", pdf, files.AsPDF, 2, ""},
		{"png", "scan.png", "image/png", pngBytes, files.AsImage, 1, ""},
		{"jpeg", "photo.jpg", "", jpegBytes, files.AsImage, 1, ""},
		{"gif", "anim.gif", "", gifBytes, files.AsImage, 1, ""},
		{"bmp", "old.bmp", "", bmpBytes, files.AsImage, 1, ""},
		{"image without extension", "upload", "", pngBytes, files.AsImage, 1, ""},
		{"text", "notes.txt", "text/plain", []byte("Hello, signer.\nSecond line ünïcödé."), files.AsText, 1, "Second line ünïcödé."},
		{"latin-1 text", "old.txt", "", []byte("caf\xe9"), files.AsText, 1, "café"},
		{"text by content type", "download", "text/plain; charset=utf-8", []byte("plain"), files.AsText, 1, "plain"},
		{"docx", "offer.docx", "", docx, files.AsPlaceholder, 1, "offer.docx"},
		{"doc", "offer.doc", "", doc, files.AsPlaceholder, 1, "Word document"},
		{"xlsx", "sheet.xlsx", "", docx, files.AsPlaceholder, 1, "Excel spreadsheet"},
		{"pptx", "deck.pptx", "", docx, files.AsPlaceholder, 1, "placeholder"},
		{"html", "page.html", "", []byte("<html><body>Hi</body></html>"), files.AsPlaceholder, 1, "HTML page"},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			out, err := files.Convert(tc.file, tc.ctype, tc.data)
			require.NoError(t, err)
			assert.Equal(t, tc.how, out.How)
			assert.Len(t, out.Info.Pages, tc.pages)
			assert.Equal(t, tc.pages, filestest.Validate(t, out.PDF))
			again, err := files.Convert(tc.file, tc.ctype, tc.data)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(out.PDF, again.PDF), "conversion is deterministic")
			if tc.text != "" && filestest.HavePdftoppm() {
				assert.Equal(t, tc.pages, filestest.Render(t, out.PDF))
				assert.Contains(t, filestest.Text(t, out.PDF), tc.text)
			}
		})
	}

	bad := []struct {
		name, file string
		data       []byte
		reason     string
	}{
		{"empty", "a.pdf", nil, files.ReasonEmpty},
		{"pdf name, not a pdf", "a.pdf", []byte("hello"), files.ReasonNotPDF},
		{"png name, not an image", "a.png", []byte("hello"), files.ReasonUnreadable},
		{"docx name, not a zip", "a.docx", []byte("hello"), files.ReasonUnreadable},
		{"binary text", "a.txt", []byte("a\x00b"), files.ReasonUnreadable},
		{"unsupported", "a.exe", []byte("MZ\x90\x00"), files.ReasonUnsupported},
		{"no name, no type", "blob", []byte("???"), files.ReasonUnsupported},
		{"broken png", "a.png", pngBytes[:40], files.ReasonUnreadable},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := files.Convert(tc.file, "", tc.data)
			fe, ok := files.AsFileError(err)
			require.True(t, ok, "want a FileError, got %v", err)
			assert.Equal(t, tc.reason, fe.Reason, fe.Msg)
		})
	}
}

func TestTextFileIsCappedInPages(t *testing.T) {
	long := strings.Repeat("line of text\n", 20000)
	out, err := files.Convert("long.txt", "", []byte(long))
	require.NoError(t, err)
	assert.Len(t, out.Info.Pages, 200)
}

func TestOfflinePlaceholder(t *testing.T) {
	out := files.OfflinePlaceholder("https://example.com/contract.pdf")
	assert.Equal(t, files.AsPlaceholder, out.How)
	assert.Equal(t, 1, filestest.Validate(t, out.PDF))
	if filestest.HavePdftoppm() {
		text := filestest.Text(t, out.PDF)
		assert.Contains(t, text, "https://example.com/contract.pdf")
		assert.Contains(t, text, "placeholder")
	}
}
