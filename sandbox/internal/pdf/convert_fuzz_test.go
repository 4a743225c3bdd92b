package pdf_test

import (
	"bytes"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// FuzzConvert feeds every converter (images, text, office placeholders,
// PDFs) arbitrary bytes under every name it dispatches on: a refusal is a
// *FileError, an acceptance has pages of a size.
func FuzzConvert(f *testing.F) {
	img := testImage()
	for _, enc := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return png.Encode(b, img) },
		func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) },
		func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) },
		func(b *bytes.Buffer) error { return bmp.Encode(b, img) },
	} {
		var b bytes.Buffer
		if enc(&b) == nil {
			f.Add(uint8(0), b.Bytes())
		}
	}
	f.Add(uint8(1), []byte("hello\nworld\t\r\n"+string(bytes.Repeat([]byte("x"), 300))))
	f.Add(uint8(2), []byte("PK\x03\x04rest"))
	f.Add(uint8(3), []byte("<html></html>"))
	names := []string{"a.png", "a.txt", "a.docx", "a.html", "a.pdf", "a", "a.tiff", "a.doc"}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		out, err := pdf.Convert(name, "", data)
		if err != nil {
			if _, ok := pdf.AsFileError(err); !ok {
				t.Fatalf("%s: not a FileError: %v", name, err)
			}
			return
		}
		if len(out.Info.Pages) == 0 {
			t.Fatalf("%s: accepted without pages", name)
		}
		for _, p := range out.Info.Pages {
			if !(p.Width > 0 && p.Height > 0) {
				t.Fatalf("%s: page size %v", name, p)
			}
		}
	})
}
