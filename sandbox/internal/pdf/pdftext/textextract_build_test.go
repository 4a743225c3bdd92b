package pdftext

import (
	"fmt"
	"sort"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// pdfBuild writes small PDFs object by object for the text extraction and
// form field tests: objects are numbered in the order they are added.
type pdfBuild struct{ objs []string }

// add adds an object and returns its number.
func (b *pdfBuild) add(body string) int {
	b.objs = append(b.objs, body)
	return len(b.objs)
}

// reserve adds a placeholder to be set later (for objects that refer to
// each other).
func (b *pdfBuild) reserve() int { return b.add("null") }

func (b *pdfBuild) set(n int, body string) { b.objs[n-1] = body }

// stream adds a stream object with an uncompressed body.
func (b *pdfBuild) stream(dict, data string) int {
	return b.add(fmt.Sprintf("<<%s/Length %d>>\nstream\n%s\nendstream", dict, len(data), data))
}

// bytes writes the file with the given catalog object.
func (b *pdfBuild) bytes(root int) []byte { return pdftest.WritePDF("1.7", b.objs, root) }

// testPage is one page of a generated document: its content stream and
// the font resources it uses (resource name to object number).
type testPage struct {
	content string
	fonts   map[string]int
	// extra are more page dictionary entries ("/Rotate 90/CropBox[...]").
	extra string
}

// buildPages writes a document of pages on US Letter media boxes. It
// returns the builder (for more objects), the page object numbers and the
// catalog, which the caller completes with bytes(catalog).
func buildPages(b *pdfBuild, pages []testPage, catalogExtra string) (pageNums []int, catalog int) {
	catalog = b.reserve()
	tree := b.reserve()
	for _, p := range pages {
		content := b.stream("", p.content)
		fonts := ""
		names := make([]string, 0, len(p.fonts))
		for name := range p.fonts {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fonts += fmt.Sprintf("/%s %d 0 R", name, p.fonts[name])
		}
		pageNums = append(pageNums, b.add(fmt.Sprintf("<</Type/Page/Parent %d 0 R/MediaBox[0 0 612 792]/Resources<</Font<<%s>>>>/Contents %d 0 R%s>>",
			tree, fonts, content, p.extra)))
	}
	kids := ""
	for _, n := range pageNums {
		kids += fmt.Sprintf("%d 0 R ", n)
	}
	b.set(tree, fmt.Sprintf("<</Type/Pages/Kids[%s]/Count %d>>", kids, len(pageNums)))
	b.set(catalog, fmt.Sprintf("<</Type/Catalog/Pages %d 0 R%s>>", tree, catalogExtra))
	return pageNums, catalog
}

// helvetica adds a standard Helvetica font (no widths: the standard
// metrics apply).
func helvetica(b *pdfBuild) int {
	return b.add("<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>")
}

// textPDF is a one-page document drawing content with Helvetica as /F1.
func textPDF(content string, extra string) []byte {
	b := &pdfBuild{}
	f := helvetica(b)
	_, cat := buildPages(b, []testPage{{content: content, fonts: map[string]int{"F1": f}, extra: extra}}, "")
	return b.bytes(cat)
}
