package pdf

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

// pdfWriter writes a PDF file object by object. The sandbox writes every PDF
// it hands out itself (pdfcpu reads, checks and converts; its own writer
// stamps the wall-clock time into /Info and /ID and numbers merged objects
// in map order), so that the same composition always gives the same bytes:
// objects are numbered in the order they are first referenced, written in
// that order, and the file identifier is a hash of the content.
type pdfWriter struct {
	buf     bytes.Buffer
	offsets []int // offsets[n-1] is where object n starts; -1 until written
	pages   []int // page objects, in order
	pagesID int   // the page tree root
	fonts   map[string]int
	saveID  int // the shared "q" stream that opens wrapped page contents
}

func newPDFWriter() *pdfWriter {
	w := &pdfWriter{fonts: map[string]int{}}
	// The binary comment line tells transfer tools the file is binary.
	w.buf.WriteString("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
	w.pagesID = w.alloc()
	return w
}

// alloc reserves the next object number.
func (w *pdfWriter) alloc() int {
	w.offsets = append(w.offsets, -1)
	return len(w.offsets)
}

// object writes object n with a body that is already PDF syntax.
func (w *pdfWriter) object(n int, body string) {
	w.offsets[n-1] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n", n)
	w.buf.WriteString(body)
	w.buf.WriteString("\nendobj\n")
}

// stream writes object n as a stream. dict is the dictionary without its
// /Length entry and without the enclosing << >>.
func (w *pdfWriter) stream(n int, dict string, data []byte) {
	w.offsets[n-1] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n<<%s/Length %d>>\nstream\n", n, dict, len(data))
	w.buf.Write(data)
	w.buf.WriteString("\nendstream\nendobj\n")
}

// zlibWriters recycles compressors: each holds about a megabyte of tables,
// and a composition compresses one stream per page. The output of a reset
// writer is the same as a new one's.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestCompression)
	return zw
}}

// contentStream writes a content stream the sandbox generated, compressed.
func (w *pdfWriter) contentStream(ops []byte) int {
	n := w.alloc()
	var z bytes.Buffer
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(&z)
	_, _ = zw.Write(ops)
	_ = zw.Close()
	zlibWriters.Put(zw)
	w.stream(n, "/Filter/FlateDecode", z.Bytes())
	return n
}

// saveStream is a content stream holding only "q", shared by every page
// whose own content is wrapped before an overlay.
func (w *pdfWriter) saveStream() int {
	if w.saveID == 0 {
		w.saveID = w.contentStream([]byte("q\n"))
	}
	return w.saveID
}

// fontDescriptors are the metrics of the standard fonts (from their AFM
// files): flags, bounding box, italic angle, ascent, descent, cap height,
// stem width. PDF 1.7 readers know these fonts without them, but the
// specification deprecated that shortcut, and strict validators want a
// complete font dictionary.
var fontDescriptors = map[string]string{
	fontRegular: "/Flags 32/FontBBox[-166 -225 1000 931]/ItalicAngle 0/Ascent 718/Descent -207/CapHeight 718/StemV 88",
	fontBold:    "/Flags 262176/FontBBox[-170 -228 1003 962]/ItalicAngle 0/Ascent 718/Descent -207/CapHeight 718/StemV 140",
	fontOblique: "/Flags 96/FontBBox[-170 -225 1116 931]/ItalicAngle -12/Ascent 718/Descent -207/CapHeight 718/StemV 88",
	fontMono:    "/Flags 33/FontBBox[-23 -250 715 805]/ItalicAngle 0/Ascent 629/Descent -157/CapHeight 562/StemV 51",
}

// widthsArrays are the /Widths arrays (codes 32 to 255) of the fonts.
var widthsArrays = func() map[string]string {
	out := map[string]string{}
	for _, f := range fontOrder {
		var b strings.Builder
		for c := 32; c < 256; c++ {
			if c > 32 {
				b.WriteByte(' ')
			}
			b.WriteString(num(glyphWidths[f][c]))
		}
		out[f] = b.String()
	}
	return out
}()

// font returns the object of a standard font, writing it on first use.
func (w *pdfWriter) font(name string) int {
	if n, ok := w.fonts[name]; ok {
		return n
	}
	desc := w.alloc()
	w.object(desc, "<</Type/FontDescriptor/FontName/"+name+fontDescriptors[name]+">>")
	n := w.alloc()
	w.object(n, fmt.Sprintf("<</Type/Font/Subtype/Type1/BaseFont/%s/Encoding/WinAnsiEncoding/FirstChar 32/LastChar 255/Widths[%s]/FontDescriptor %d 0 R>>",
		name, widthsArrays[name], desc))
	w.fonts[name] = n
	return n
}

// fontDictEntries are the font resources of sandbox content, as dictionary
// entries ("/SbxF1 5 0 R...").
func (w *pdfWriter) fontDictEntries() string {
	var b strings.Builder
	for _, f := range fontOrder {
		fmt.Fprintf(&b, "/%s %d 0 R", fontResources[f], w.font(f))
	}
	return b.String()
}

// generatedPage adds a page the sandbox drew entirely (signature page, audit
// trail, placeholders).
func (w *pdfWriter) generatedPage(width, height float64, ops []byte) {
	content := w.contentStream(ops)
	n := w.alloc()
	w.object(n, fmt.Sprintf("<</Type/Page/Parent %d 0 R/MediaBox[0 0 %s %s]/Resources<</Font<<%s>>/ProcSet[/PDF/Text]>>/Contents %d 0 R>>",
		w.pagesID, num(width), num(height), w.fontDictEntries(), content))
	w.pages = append(w.pages, n)
}

// finish writes the page tree, catalog, document information, cross-reference
// table and trailer, and returns the file.
func (w *pdfWriter) finish(title string, at time.Time) []byte {
	var kids strings.Builder
	for i, p := range w.pages {
		if i > 0 {
			kids.WriteByte(' ')
		}
		fmt.Fprintf(&kids, "%d 0 R", p)
	}
	w.object(w.pagesID, fmt.Sprintf("<</Type/Pages/Kids[%s]/Count %d>>", kids.String(), len(w.pages)))
	catalog := w.alloc()
	w.object(catalog, fmt.Sprintf("<</Type/Catalog/Pages %d 0 R>>", w.pagesID))
	info := w.alloc()
	date := pdfDate(at)
	var ib strings.Builder
	ib.WriteString("<<")
	if title != "" {
		ib.WriteString("/Title")
		ib.WriteString(textString(title))
	}
	fmt.Fprintf(&ib, "/Producer(signsandbox)/CreationDate(%s)/ModDate(%s)>>", date, date)
	w.object(info, ib.String())

	sum := sha256.Sum256(w.buf.Bytes())
	id := strings.ToUpper(hex.EncodeToString(sum[:16]))

	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", len(w.offsets)+1)
	for _, off := range w.offsets {
		if off < 0 {
			// Reserved but never written (cannot happen for a finished
			// document, but a free entry keeps the table valid regardless).
			w.buf.WriteString("0000000000 65535 f \n")
			continue
		}
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&w.buf, "trailer\n<</Size %d/Root %d 0 R/Info %d 0 R/ID[<%s><%s>]>>\nstartxref\n%d\n%%%%EOF\n",
		len(w.offsets)+1, catalog, info, id, id, xref)
	return w.buf.Bytes()
}

// pdfDate formats a time as a PDF date in UTC.
func pdfDate(t time.Time) string {
	return t.UTC().Format("D:20060102150405") + "+00'00'"
}

// textString encodes a text string for /Info: a literal when it is ASCII,
// else UTF-16BE with a byte order mark, as hex.
func textString(s string) string {
	ascii := true
	for _, r := range s {
		if r < 0x20 || r > 0x7E {
			ascii = false
			break
		}
	}
	if ascii {
		var b strings.Builder
		pdfString(&b, s)
		return b.String()
	}
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// num formats a coordinate compactly and deterministically.
func num(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// FormatNum formats a number compactly and deterministically, as this
// package writes coordinates into content streams.
func FormatNum(f float64) string { return num(f) }
