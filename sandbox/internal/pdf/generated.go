package pdf

import (
	"fmt"
	"strings"
	"time"
)

// This file draws the pages the sandbox adds or substitutes: the fax cover
// page, the signature page, the audit trail, and placeholders for files it
// does not convert.

// worldTime formats a world-clock instant for printed pages.
func worldTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// heading starts a generated page's text: a title and the object's id.
func heading(l *layout, title string, c *Composition) {
	l.line(fontBold, 18, 0, black, winAnsi(title))
	l.gap(6)
	if c.Title != "" {
		l.para(fontRegular, 10, 0, gray, "Title: "+c.Title)
	}
	if c.ID != "" {
		l.para(fontRegular, 10, 0, gray, "ID: "+c.ID)
	}
	l.rule()
}

// coverPageContent draws a fax cover sheet on one page; a message longer
// than the page is cut at its end.
func coverPageContent(c *Composition) []string {
	cp := c.CoverPage
	l := newLayout(1)
	l.line(fontBold, 28, 0, black, winAnsi("FAX"))
	l.gap(4)
	l.para(fontRegular, 10, 0, gray, worldTime(c.at()))
	l.rule()
	row := func(label, value string) {
		if value != "" {
			l.para(fontBold, 12, 0, black, label)
			l.para(fontRegular, 12, 12, black, value)
			l.gap(4)
		}
	}
	row("To:", cp.To)
	row("Fax:", cp.Recipient)
	row("From:", cp.From)
	row("Sender:", cp.Sender)
	row("Subject:", c.Title)
	if cp.Pages > 0 {
		row("Pages:", fmt.Sprintf("%d (this cover page included)", cp.Pages))
	}
	if cp.Message != "" {
		l.rule()
		l.gap(6)
		l.para(fontRegular, 11, 0, black, cp.Message)
	}
	return l.finish()
}

// auditContent draws the audit trail: one entry per event, oldest first.
func auditContent(c *Composition) []string {
	l := newLayout(0)
	heading(l, "Audit trail", c)
	l.para(fontRegular, 9, 0, gray, "Times are UTC on the clock of the signsandbox world that produced this document.")
	l.gap(6)
	for _, e := range c.Audit {
		l.need(40)
		l.para(fontBold, 9.5, 0, black, worldTime(e.Time)+"   "+e.Action)
		if e.Actor != "" {
			l.para(fontRegular, 9, 14, black, "By: "+e.Actor)
		}
		if e.Detail != "" {
			l.para(fontRegular, 9, 14, gray, e.Detail)
		}
		l.gap(5)
	}
	return l.finish()
}

// placeholderContent draws the page that stands in for a file the sandbox
// keeps but does not convert (office documents, HTML).
func placeholderContent(name, kind string, size int) []string {
	l := newLayout(1)
	l.line(fontBold, 18, 0, black, winAnsi("Placeholder page"))
	l.gap(10)
	l.para(fontRegular, 11, 0, black, "This page stands in for the file")
	l.gap(4)
	l.para(fontBold, 13, 12, black, name)
	l.gap(4)
	l.para(fontRegular, 10, 12, gray, fmt.Sprintf("Type: %s    Size: %d bytes", kind, size))
	l.gap(14)
	l.para(fontRegular, 10, 0, black, "signsandbox does not convert "+kind+" files to PDF. It keeps the original file "+
		"and uses this single page in its place, so this is a placeholder, not a rendering of the file: the real "+
		"service would show the converted document here, with as many pages as the conversion gives.")
	return l.finish()
}

// offlineContent draws the document that stands in for a file_urls entry
// when the world does not fetch URLs.
func offlineContent(url string) []string {
	l := newLayout(1)
	l.line(fontBold, 18, 0, black, winAnsi("Placeholder document"))
	l.gap(10)
	l.para(fontRegular, 11, 0, black, "This page stands in for the file at")
	l.gap(4)
	l.para(fontMono, 10, 12, black, url)
	l.gap(14)
	l.para(fontRegular, 10, 0, black, "signsandbox did not download it because this world does not fetch file URLs "+
		"(world configuration fetch_file_urls is false). This is a placeholder, not the file.")
	return l.finish()
}

// textPagesMax bounds the pages a text file becomes.
const textPagesMax = 200

// textContent draws a plain-text file in a monospaced font, wrapped to the
// page width.
func textContent(text string) []string {
	l := newLayout(textPagesMax)
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	text = strings.ReplaceAll(text, "\t", "    ")
	for _, para := range strings.Split(text, "\n") {
		lines := wrap(winAnsi(para), fontMono, 9, pageWidth-2*margin)
		for _, ln := range lines {
			l.line(fontMono, 9, 0, black, ln)
		}
		if l.full() {
			break
		}
	}
	pages := l.finish()
	if l.truncated {
		// The last page says the file went on.
		var b strings.Builder
		drawMarks(&b, []mark{{x: margin, y: margin - 20, font: fontOblique, size: 9, color: alertRed,
			text: winAnsi(fmt.Sprintf("[signsandbox stopped after %d pages; the file continues]", textPagesMax))}})
		pages[len(pages)-1] += b.String()
	}
	return pages
}

// drawnPDF writes pages drawn by a layout as a standalone PDF.
func drawnPDF(pages []string, title string, at time.Time) []byte {
	w := newPDFWriter()
	for _, p := range pages {
		w.generatedPage(pageWidth, pageHeight, []byte(p))
	}
	return w.finish(title, at)
}
