package pdftext

// Text extraction for text tags: the page content streams of a PDF are
// interpreted (graphics state, text state and text matrix; the operators
// q Q cm BT Tc Tw Tz TL Tf Ts Td TD Tm T* Tj TJ ' ") to place every
// character of text on its page; characters are joined into lines in the
// order the content stream draws them, and bracketed text with a | in it is
// a text tag, located by the boxes of its characters.
//
// This is a reasonable reading of simple PDFs, such as those common tools
// write with standard or embedded fonts that carry their text (see
// textextract_fonts.go), and of the sandbox's own typeset .txt files. Its
// limits: text drawn inside form XObjects, annotations or Type3 glyph
// procedures is not read; fonts whose codes map to no text are not read;
// a tag must be drawn in one run of characters on one line (a tag broken
// across lines, or drawn out of reading order, is not found); character
// boxes take the font's ascent and descent as 0.8 and 0.2 of the font
// size; vertical writing (Identity-V) is read as if it were horizontal.

import (
	"fmt"
	"math"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// Bounds of extraction: larger inputs are read up to the bound (the
// decoding of the whole document is bounded by pdf.Objects).
const (
	maxGlyphsPerPage  = 200_000 // a dense page has a few thousand
	maxGraphicsStates = 256     // q nesting
)

// FoundTag is a text tag found in a document: its text, and its page and
// box in the API's coordinates (points from the top-left corner of the
// page as displayed).
type FoundTag struct {
	Text   string
	Page   int // 1-based
	X, Y   int
	Width  int
	Height int
}

// TagScan is what scanning a PDF for text tags found.
type TagScan struct {
	Tags []FoundTag
	// Hidden is the PDF with the tags' characters removed (ScanTextTags
	// with hide, when tags were found); nil otherwise.
	Hidden []byte
}

// ScanTextTags finds the text tags of a PDF (anything that LooksLikeTextTag,
// malformed tags included: ParseTextTag judges them) in page order and, with
// hide, writes the PDF again without the tags' characters. The characters
// are removed from the content streams (replaced by equal spacing), not
// painted over, so text extraction no longer finds them either; the rest
// of each line keeps its place.
func ScanTextTags(doc []byte, hide bool) (out TagScan, err error) {
	ctx, pages, err := pdf.Open(doc)
	if err != nil {
		return TagScan{}, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = TagScan{}, fmt.Errorf("text extraction: %v", r)
		}
	}()
	fl := newFontLoader(ctx)
	rewritten := map[int][]byte{}
	for i, p := range pages {
		pt := readPageText(fl, p)
		hits := pt.tagHits()
		if len(hits) == 0 {
			continue
		}
		hidden := map[int]bool{}
		for _, h := range hits {
			ft := FoundTag{Text: h.text, Page: i + 1}
			ft.X, ft.Y, ft.Width, ft.Height = p.APIBox(h.box.llx, h.box.lly, h.box.urx, h.box.ury)
			out.Tags = append(out.Tags, ft)
			for _, gi := range h.glyphs {
				hidden[gi] = true
			}
		}
		if hide {
			rewritten[i] = pt.without(hidden)
		}
	}
	if fl.Exhausted() {
		return TagScan{}, fl.BudgetError()
	}
	if hide && len(rewritten) > 0 {
		out.Hidden, err = pdf.RewritePages(ctx, pages, rewritten)
		if err != nil {
			return TagScan{}, err
		}
	}
	return out, nil
}

// TextLine is a line of text as extraction reads it (for tests and
// diagnostics).
type TextLine struct {
	Page int
	Text string
}

// ExtractLines returns the text of a PDF line by line, as text tag
// detection sees it.
func ExtractLines(doc []byte) (out []TextLine, err error) {
	ctx, pages, err := pdf.Open(doc)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("text extraction: %v", r)
		}
	}()
	fl := newFontLoader(ctx)
	for i, p := range pages {
		for _, l := range readPageText(fl, p).lines() {
			out = append(out, TextLine{Page: i + 1, Text: l.text})
		}
	}
	if fl.Exhausted() {
		return nil, fl.BudgetError()
	}
	return out, nil
}

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m × n (m applied first).
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// box is a rectangle in user space.
type box struct{ llx, lly, urx, ury float64 }

// glyph is one character drawn on a page.
type glyph struct {
	text           string
	ox, oy, ex, ey float64 // origin and end of the advance, user space
	box            box     // the character's box, user space
	size           float64 // the font size in user space
	code           uint32
	// adj is the TJ adjustment that moves as far as the character does
	// (thousandths of text space units), to remove it in place.
	adj float64
}

// showElem is one element of a text-showing operator: a TJ number or a
// string, whose characters are glyph indices.
type showElem struct {
	isNum  bool
	num    float64
	glyphs []int
}

// showOp is a text-showing operator and the characters it drew.
type showOp struct {
	op    contentOp
	font  *pdfFont
	elems []showElem
}

// pageText is a page's content and the characters it draws.
type pageText struct {
	content []byte
	glyphs  []glyph
	shows   []showOp
}

// gstate is the part of the graphics state extraction follows.
type gstate struct {
	ctm                      matrix
	tc, tw, th, tl, rise, fs float64
	font                     *pdfFont
}

// pageContent decodes and joins a page's content streams.
func pageContent(fl *fontLoader, p pdf.Page) []byte {
	o, ok := p.Dict().Find("Contents")
	if !ok || o == nil {
		return nil
	}
	var parts []types.Object
	if ir, isRef := o.(types.IndirectRef); isRef {
		if a := fl.Array(ir); a != nil {
			parts = a
		} else {
			parts = []types.Object{ir}
		}
	} else if a, isArr := o.(types.Array); isArr {
		parts = a
	}
	var out []byte
	for _, part := range parts {
		sd, _, err := fl.Context().DereferenceStreamDict(part)
		if err != nil || sd == nil {
			continue
		}
		content, ok := fl.Decode(sd, int64(pdf.MaxContentBytes-len(out)))
		if !ok {
			if fl.Exhausted() {
				break
			}
			continue
		}
		out = append(out, content...)
		out = append(out, '\n')
	}
	return out
}

// readPageText interprets a page's content.
func readPageText(fl *fontLoader, p pdf.Page) *pageText {
	pt := &pageText{content: pageContent(fl, p)}
	fonts := fl.Dict(fl.Dict(p.Resources())["Font"])
	gs := gstate{ctm: identity, th: 1}
	var stack []gstate
	tm, tlm := identity, identity
	nums := func(args []operand, n int) ([]float64, bool) {
		if len(args) < n {
			return nil, false
		}
		out := make([]float64, n)
		for i, a := range args[len(args)-n:] {
			if a.kind != opdNumber {
				return nil, false
			}
			out[i] = a.num
		}
		return out, true
	}
	nextLine := func(tx, ty float64) {
		tlm = translate(tx, ty).mul(tlm)
		tm = tlm
	}
	show := func(op contentOp, elems []operand) {
		if gs.font == nil || len(pt.glyphs) >= maxGlyphsPerPage || len(pt.shows) >= maxGlyphsPerPage {
			return
		}
		so := showOp{op: op, font: gs.font}
		for _, e := range elems {
			switch e.kind {
			case opdNumber:
				tm = translate(-e.num/1000*gs.fs*gs.th, 0).mul(tm)
				so.elems = append(so.elems, showElem{isNum: true, num: e.num})
			case opdString:
				se := showElem{}
				for _, c := range gs.font.codes(e.str) {
					w0 := gs.font.width(c)
					tw := 0.0
					if !gs.font.twoByte && c == 32 {
						tw = gs.tw
					}
					adv := w0*gs.fs + gs.tc + tw
					tx := adv * gs.th
					m := tm.mul(gs.ctm)
					g := glyph{text: gs.font.text(c), code: c, size: math.Abs(gs.fs) * math.Hypot(m[2], m[3])}
					g.ox, g.oy = m.apply(0, gs.rise)
					g.ex, g.ey = m.apply(tx, gs.rise)
					g.box = boxOf(m, 0, gs.rise-0.2*gs.fs, w0*gs.fs*gs.th, gs.rise+0.8*gs.fs)
					if gs.fs != 0 {
						g.adj = -adv * 1000 / gs.fs
					}
					se.glyphs = append(se.glyphs, len(pt.glyphs))
					pt.glyphs = append(pt.glyphs, g)
					tm = translate(tx, 0).mul(tm)
				}
				so.elems = append(so.elems, se)
			}
		}
		pt.shows = append(pt.shows, so)
	}
	eachOp(pt.content, func(op contentOp) bool {
		a := op.args
		switch op.name {
		case "q":
			if len(stack) < maxGraphicsStates {
				stack = append(stack, gs)
			}
		case "Q":
			if n := len(stack); n > 0 {
				gs, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if v, ok := nums(a, 6); ok {
				gs.ctm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(gs.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tc":
			if v, ok := nums(a, 1); ok {
				gs.tc = v[0]
			}
		case "Tw":
			if v, ok := nums(a, 1); ok {
				gs.tw = v[0]
			}
		case "Tz":
			if v, ok := nums(a, 1); ok {
				gs.th = v[0] / 100
			}
		case "TL":
			if v, ok := nums(a, 1); ok {
				gs.tl = v[0]
			}
		case "Ts":
			if v, ok := nums(a, 1); ok {
				gs.rise = v[0]
			}
		case "Tf":
			if len(a) >= 2 && a[len(a)-2].kind == opdName && a[len(a)-1].kind == opdNumber {
				gs.fs = a[len(a)-1].num
				gs.font = nil
				if ref, ok := fonts.Find(a[len(a)-2].name); ok && ref != nil {
					gs.font = fl.font(ref)
				}
			}
		case "Td":
			if v, ok := nums(a, 2); ok {
				nextLine(v[0], v[1])
			}
		case "TD":
			if v, ok := nums(a, 2); ok {
				gs.tl = -v[1]
				nextLine(v[0], v[1])
			}
		case "Tm":
			if v, ok := nums(a, 6); ok {
				tm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}
				tlm = tm
			}
		case "T*":
			nextLine(0, -gs.tl)
		case "Tj":
			if len(a) >= 1 && a[len(a)-1].kind == opdString {
				show(op, a[len(a)-1:])
			}
		case "TJ":
			if len(a) >= 1 && a[len(a)-1].kind == opdArray {
				show(op, a[len(a)-1].arr)
			}
		case "'":
			nextLine(0, -gs.tl)
			if len(a) >= 1 && a[len(a)-1].kind == opdString {
				show(op, a[len(a)-1:])
			}
		case "\"":
			if len(a) >= 3 && a[len(a)-3].kind == opdNumber && a[len(a)-2].kind == opdNumber && a[len(a)-1].kind == opdString {
				gs.tw, gs.tc = a[len(a)-3].num, a[len(a)-2].num
				nextLine(0, -gs.tl)
				show(op, a[len(a)-1:])
			}
		}
		return true
	})
	return pt
}

// boxOf is the user-space bounding box of a text-space rectangle.
func boxOf(m matrix, x0, y0, x1, y1 float64) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		x, y := m.apply(p[0], p[1])
		b.llx, b.lly = math.Min(b.llx, x), math.Min(b.lly, y)
		b.urx, b.ury = math.Max(b.urx, x), math.Max(b.ury, y)
	}
	return b
}

// textRun is a line of text: its string and, per byte of it, the glyph
// that drew it (-1 for a space the reader inserted at a gap).
type textRun struct {
	text   string
	owners []int
}

// lines joins a page's characters into lines, in drawing order: a
// character continues the line when it starts near the previous one's end
// on the same baseline; a gap wider than a quarter of the font size reads
// as a space.
func (pt *pageText) lines() []textRun {
	var out []textRun
	var cur strings.Builder
	var owners []int
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, textRun{text: cur.String(), owners: owners})
		}
		cur.Reset()
		owners = nil
	}
	add := func(s string, owner int) {
		cur.WriteString(s)
		for range len(s) {
			owners = append(owners, owner)
		}
	}
	dx, dy := 1.0, 0.0
	for i, g := range pt.glyphs {
		if i > 0 {
			p := pt.glyphs[i-1]
			if l := math.Hypot(p.ex-p.ox, p.ey-p.oy); l > 1e-9 {
				dx, dy = (p.ex-p.ox)/l, (p.ey-p.oy)/l
			}
			mx, my := g.ox-p.ex, g.oy-p.ey
			along, perp := mx*dx+my*dy, my*dx-mx*dy
			tol := math.Max(math.Max(p.size, g.size), 1e-6)
			switch {
			case math.Abs(perp) > 0.35*tol || along < -0.6*tol:
				flush()
			case along > 0.25*tol && p.text != " " && g.text != " ":
				add(" ", -1)
			}
		}
		add(g.text, i)
	}
	flush()
	return out
}

// tagHit is bracketed text that looks like a tag, with its characters.
type tagHit struct {
	text   string
	glyphs []int
	box    box
}

// tagHits finds the tags of a page.
func (pt *pageText) tagHits() []tagHit {
	var out []tagHit
	for _, l := range pt.lines() {
		open := -1
		for k := 0; k < len(l.text); k++ {
			switch l.text[k] {
			case '[':
				open = k
			case ']':
				if open < 0 {
					continue
				}
				s := l.text[open : k+1]
				if LooksLikeTextTag(s) {
					h := tagHit{text: s, box: box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}}
					last := -1
					for _, gi := range l.owners[open : k+1] {
						if gi < 0 || gi == last {
							continue
						}
						last = gi
						h.glyphs = append(h.glyphs, gi)
						b := pt.glyphs[gi].box
						h.box = box{math.Min(h.box.llx, b.llx), math.Min(h.box.lly, b.lly), math.Max(h.box.urx, b.urx), math.Max(h.box.ury, b.ury)}
					}
					if len(h.glyphs) > 0 {
						out = append(out, h)
					}
				}
				open = -1
			}
		}
	}
	return out
}
