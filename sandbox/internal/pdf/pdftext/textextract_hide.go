package pdftext

// Removing text tags from a PDF (hide_text_tags): every text-showing
// operator that drew a character of a tag is rewritten as a TJ array in
// which those characters are replaced by the spacing they took, so the text
// after them on the line stays where it was. The page then gets the
// rewritten content as one stream; everything else is copied as it was.

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// without returns the page's content with the hidden glyphs removed.
func (pt *pageText) without(hidden map[int]bool) []byte {
	var out []byte
	last := 0
	for _, so := range pt.shows {
		touched := false
		for _, e := range so.elems {
			for _, gi := range e.glyphs {
				touched = touched || hidden[gi]
			}
		}
		if !touched || so.op.start < last {
			continue
		}
		out = append(out, pt.content[last:so.op.start]...)
		out = append(out, pt.rewriteShow(so, hidden)...)
		last = so.op.end
	}
	return append(out, pt.content[last:]...)
}

// rewriteShow writes a text-showing operator without the hidden glyphs.
func (pt *pageText) rewriteShow(so showOp, hidden map[int]bool) []byte {
	var b strings.Builder
	switch so.op.name {
	case "'":
		b.WriteString("T* ")
	case "\"":
		a := so.op.args
		fmt.Fprintf(&b, "%s Tw %s Tc T* ", pdf.FormatNum(a[len(a)-3].num), pdf.FormatNum(a[len(a)-2].num))
	}
	b.WriteByte('[')
	pending := 0.0
	flushAdj := func() {
		if pending != 0 {
			fmt.Fprintf(&b, " %s ", pdf.FormatNum(pending))
			pending = 0
		}
	}
	for _, e := range so.elems {
		if e.isNum {
			pending += e.num
			continue
		}
		var run []byte
		flushRun := func() {
			if len(run) > 0 {
				flushAdj()
				fmt.Fprintf(&b, "<%X>", run)
				run = run[:0]
			}
		}
		for _, gi := range e.glyphs {
			g := pt.glyphs[gi]
			if hidden[gi] {
				flushRun()
				pending += g.adj
				continue
			}
			if len(run) == 0 {
				flushAdj()
			}
			run = append(run, so.font.codeBytes(g.code)...)
		}
		flushRun()
	}
	flushAdj()
	b.WriteString("] TJ")
	return []byte(b.String())
}
