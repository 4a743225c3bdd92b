package pdf

import (
	"fmt"
	"strings"
)

// Pages the sandbox draws itself are US Letter with one-inch side margins.
const (
	pageWidth  = 612.0
	pageHeight = 792.0
	margin     = 54.0
)

// layout flows lines of text down pages, starting a new page when one is
// full. It produces the content stream of each page.
type layout struct {
	pages []string
	cur   strings.Builder
	y     float64
	// maxPages stops the flow (long text files); truncated says it did.
	maxPages  int
	truncated bool
}

func newLayout(maxPages int) *layout {
	l := &layout{maxPages: maxPages}
	l.y = pageHeight - margin
	return l
}

// full reports whether the page limit has been reached.
func (l *layout) full() bool { return l.maxPages > 0 && len(l.pages) >= l.maxPages }

func (l *layout) newPage() {
	l.pages = append(l.pages, l.cur.String())
	l.cur.Reset()
	l.y = pageHeight - margin
	if l.full() {
		l.truncated = true
	}
}

// need starts a new page unless h more points fit on this one.
func (l *layout) need(h float64) {
	if l.y-h < margin+12 && l.cur.Len() > 0 {
		l.newPage()
	}
}

// line draws one line of Windows-1252 text at the current position.
func (l *layout) line(fnt string, size float64, indent float64, color rgb, text string) {
	if l.full() {
		return
	}
	lh := size * 1.35
	l.need(lh)
	if l.full() {
		return
	}
	l.y -= lh
	drawMarks(&l.cur, []mark{{x: margin + indent, y: l.y, font: fnt, size: size, text: text, color: color}})
}

// para wraps UTF-8 text to the text width and draws it.
func (l *layout) para(fnt string, size, indent float64, color rgb, text string) {
	for _, ln := range wrap(winAnsi(text), fnt, size, pageWidth-2*margin-indent) {
		l.line(fnt, size, indent, color, ln)
	}
}

// gap leaves vertical space.
func (l *layout) gap(h float64) {
	if l.y-h < margin {
		return
	}
	l.y -= h
}

// rule draws a thin horizontal line.
func (l *layout) rule() {
	if l.full() {
		return
	}
	l.need(8)
	l.y -= 6
	fmt.Fprintf(&l.cur, "%s %s %s RG 0.5 w %s %s m %s %s l S\n", num(lightGray[0]), num(lightGray[1]), num(lightGray[2]),
		num(margin), num(l.y), num(pageWidth-margin), num(l.y))
	l.y -= 6
}

// finish returns the content of every page (at least one).
func (l *layout) finish() []string {
	if l.cur.Len() > 0 || len(l.pages) == 0 {
		if !l.full() {
			l.pages = append(l.pages, l.cur.String())
		}
	}
	return l.pages
}
