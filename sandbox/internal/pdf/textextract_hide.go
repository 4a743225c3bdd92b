package pdf

// Removing text tags from a PDF (hide_text_tags): every text-showing
// operator that drew a character of a tag is rewritten as a TJ array in
// which those characters are replaced by the spacing they took, so the text
// after them on the line stays where it was. The page then gets the
// rewritten content as one stream; everything else is copied as it was.

import (
	"fmt"
	"strings"
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
		fmt.Fprintf(&b, "%s Tw %s Tc T* ", num(a[len(a)-3].num), num(a[len(a)-2].num))
	}
	b.WriteByte('[')
	pending := 0.0
	flushAdj := func() {
		if pending != 0 {
			fmt.Fprintf(&b, " %s ", num(pending))
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

// pageWithContent writes one page as object n with content as its only
// content stream (the page's other entries are copied as page does).
func (c *copier) pageWithContent(p srcPage, n int, content []byte) error {
	var b strings.Builder
	if err := c.pageEntries(&b, p); err != nil {
		return err
	}
	if p.resources != nil {
		b.WriteString("/Resources ")
		if err := c.serialize(&b, p.resources, 1); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "/Contents %d 0 R>>", c.w.contentStream(content))
	return c.finishPage(n, b.String())
}
