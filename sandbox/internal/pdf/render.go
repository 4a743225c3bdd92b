package pdf

import (
	"fmt"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// Rendered is a composition as files.
type Rendered struct {
	// PDF is the merged document: the cover page, the documents in order,
	// the signature page, the audit trail.
	PDF []byte
	// ZIP holds one PDF per document (no cover, signature or audit page).
	ZIP []byte
	// Pages is the page count of PDF.
	Pages int
}

// Render draws a composition as the merged PDF and the ZIP of documents.
// The output depends only on the composition: the same composition gives
// the same bytes. A document that cannot be read (it passed inspection, so
// this means a reader bug) is replaced by a page that says so rather than
// failing the whole composition.
func Render(c Composition) (Rendered, error) {
	docs := parseSources(c.Documents)
	pdf, pages, err := renderPDF(&c, docs)
	if err != nil {
		return Rendered{}, err
	}
	zip, err := renderZIP(&c, docs)
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{PDF: pdf, ZIP: zip, Pages: pages}, nil
}

// RenderPDF draws only the merged PDF (for callers that never need the
// ZIP) and returns it with its page count.
func RenderPDF(c Composition) ([]byte, int, error) {
	return renderPDF(&c, parseSources(c.Documents))
}

// parsed is one source document ready to copy.
type parsed struct {
	name  string
	doc   *copySource
	fault string // why the document could not be read ("" when it could)
}

func parseSources(srcs []Source) []parsed {
	out := make([]parsed, len(srcs))
	for i, s := range srcs {
		out[i].name = s.Name
		src, err := openSource(s.PDF)
		if err != nil {
			out[i].fault = err.Error()
			continue
		}
		out[i].doc = src
	}
	return out
}

// at is the composition's instant (the Unix epoch when unset).
func (c *Composition) at() time.Time {
	if c.At.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return c.At.UTC()
}

// renderPDF writes the merged document and returns it with its page count.
func renderPDF(c *Composition, docs []parsed) ([]byte, int, error) {
	w := newPDFWriter()
	if c.CoverPage != nil {
		addDrawn(w, c, coverPageContent(c))
	}
	for i, d := range docs {
		if err := addDocument(w, c, i, d); err != nil {
			return nil, 0, fmt.Errorf("document %d (%s): %w", i+1, d.name, err)
		}
	}
	if c.SignaturePage != nil {
		pages, _ := signaturePage(c)
		addDrawn(w, c, pages)
	}
	if len(c.Audit) > 0 {
		addDrawn(w, c, auditContent(c))
	}
	return w.finish(c.Title, c.at()), len(w.pages), nil
}

// addDocument copies document i with its stamps and page marks.
func addDocument(w *pdfWriter, c *Composition, i int, d parsed) error {
	if d.doc == nil {
		addDrawn(w, c, unreadableContent(d.name, d.fault))
		return nil
	}
	cp := newCopier(w, d.doc.ctx)
	nums := cp.preparePages(d.doc.pages)
	for j, p := range d.doc.pages {
		g := p.geometry()
		size := g.size()
		marks := pageMarks(c, size)
		for _, s := range c.Stamps {
			if s.Document == i && s.Page == j+1 && s.Text != "" {
				marks = append(marks, stampMark(s, size))
			}
		}
		if err := cp.page(p, nums[j], overlayOps(g, marks)); err != nil {
			return err
		}
	}
	return nil
}

// addDrawn adds pages the sandbox drew, with the page marks.
func addDrawn(w *pdfWriter, c *Composition, pages []string) {
	size := PageSize{Width: pageWidth, Height: pageHeight}
	for _, p := range pages {
		var b []byte
		b = append(b, p...)
		b = append(b, overlayOps(geometry{vis: box{0, 0, pageWidth, pageHeight}}, pageMarks(c, size))...)
		w.generatedPage(pageWidth, pageHeight, b)
	}
}

// unreadableContent stands in for a document that could not be read at
// composition time.
func unreadableContent(name, why string) []string {
	l := newLayout(1)
	l.line(fontBold, 18, 0, black, winAnsi("Document could not be read"))
	l.gap(10)
	l.para(fontRegular, 11, 0, black, "signsandbox could not read the document "+name+" when it prepared this file: "+why)
	return l.finish()
}

// copySource is a parsed document and its pages.
type copySource struct {
	ctx   *model.Context
	pages []Page
}

// openSource parses a document that was inspected when it was stored.
func openSource(data []byte) (*copySource, error) {
	ctx, pages, err := openPDF(data, false)
	if err != nil {
		return nil, err
	}
	return &copySource{ctx: ctx, pages: pages}, nil
}
