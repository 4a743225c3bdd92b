package pdf

import (
	"fmt"
	"math"
	"strings"
)

// rgb is a fill colour.
type rgb [3]float64

var (
	black     = rgb{0, 0, 0}
	gray      = rgb{0.45, 0.45, 0.45}
	inkBlue   = rgb{0.08, 0.2, 0.55}
	alertRed  = rgb{0.75, 0.05, 0.05}
	lightGray = rgb{0.8, 0.8, 0.8}
)

// mark is one line of text drawn on a page, in displayed-page coordinates:
// points from the bottom-left corner of the page as a reader shows it.
type mark struct {
	x, y  float64 // start of the baseline
	font  string
	size  float64
	text  string // Windows-1252
	color rgb
}

// geometry says how displayed-page coordinates map to the page's user space.
type geometry struct {
	vis    box // the visible area (crop box) in user space
	rotate int
}

// size is the page as displayed.
func (g geometry) size() PageSize {
	if g.rotate == 90 || g.rotate == 270 {
		return PageSize{Width: g.vis.height(), Height: g.vis.width()}
	}
	return PageSize{Width: g.vis.width(), Height: g.vis.height()}
}

// matrix maps displayed coordinates (u, v) to user space: a page with
// /Rotate is turned clockwise when shown, so the overlay is turned the other
// way to come out upright.
func (g geometry) matrix() [6]float64 {
	v := g.vis
	switch g.rotate {
	case 90:
		return [6]float64{0, 1, -1, 0, v.urx, v.lly}
	case 180:
		return [6]float64{-1, 0, 0, -1, v.urx, v.ury}
	case 270:
		return [6]float64{0, -1, 1, 0, v.llx, v.ury}
	default:
		return [6]float64{1, 0, 0, 1, v.llx, v.lly}
	}
}

// overlayOps is the content stream that draws marks on a page.
func overlayOps(g geometry, marks []mark) []byte {
	if len(marks) == 0 {
		return nil
	}
	var b strings.Builder
	m := g.matrix()
	fmt.Fprintf(&b, "q %s %s %s %s %s %s cm\n", num(m[0]), num(m[1]), num(m[2]), num(m[3]), num(m[4]), num(m[5]))
	drawMarks(&b, marks)
	b.WriteString("Q\n")
	return []byte(b.String())
}

// drawMarks writes text-showing operators for marks.
func drawMarks(b *strings.Builder, marks []mark) {
	for _, mk := range marks {
		fmt.Fprintf(b, "BT %s %s %s rg /%s %s Tf %s %s Td ", num(mk.color[0]), num(mk.color[1]), num(mk.color[2]),
			fontResources[mk.font], num(mk.size), num(mk.x), num(mk.y))
		pdfString(b, mk.text)
		b.WriteString(" Tj ET\n")
	}
}

// pageMarks are the marks the sandbox puts on every page of a composition:
// the object id in the footer and, for test-mode requests, a banner.
func pageMarks(c *Composition, size PageSize) []mark {
	var out []mark
	if c.ID != "" {
		out = append(out, mark{x: 18, y: 8, font: fontRegular, size: 6.5, color: gray,
			text: winAnsi("signsandbox document ID: " + c.ID)})
	}
	if c.TestMode {
		t := winAnsi(testModeText)
		sz := 9.0
		w := textWidth(t, fontBold, sz)
		out = append(out, mark{x: math.Max(4, (size.Width-w)/2), y: size.Height - 14, font: fontBold, size: sz, color: alertRed, text: t})
	}
	return out
}

// testModeText is the banner on every page of a test_mode request.
const testModeText = "TEST MODE - this document is not legally binding (signsandbox)"

// StampFits reports whether a stamp's text is drawn whole. Text is shrunk
// down to minStampFont points to fit the stamp's width (less a point of
// padding on each side); text still wider than that is cut, and StampFits
// is false. Stamps without a width always fit.
func StampFits(s Stamp) bool {
	m := stampMark(s, PageSize{Width: pageWidth, Height: pageHeight})
	return m.text == winAnsi(strings.ReplaceAll(s.Text, "\n", " "))
}

// minStampFont is the smallest font size stamps are shrunk to.
const minStampFont = 5.0

// stampMark turns a stamp into a mark on a page of the given size: the text
// is centred vertically in the stamp's box, shrunk to fit its width, and cut
// when it still does not fit at the smallest size.
func stampMark(s Stamp, size PageSize) mark {
	text := winAnsi(strings.ReplaceAll(s.Text, "\n", " "))
	fnt, color := fontRegular, black
	switch s.Kind {
	case StampSignature, StampInitials:
		fnt, color = fontOblique, inkBlue
	case StampCheckbox:
		fnt = fontBold
	}
	fs := 10.0
	if s.Height > 0 {
		fs = math.Max(minStampFont, math.Min(14, s.Height*0.7))
	}
	if s.Width > 0 {
		for fs > minStampFont && textWidth(text, fnt, fs) > s.Width-2 {
			fs -= 0.5
		}
		if textWidth(text, fnt, fs) > s.Width-2 && len(text) > 1 {
			text = text[:fitPrefix(text, fnt, fs, math.Max(1, s.Width-2))]
		}
	}
	x := s.X + 1
	if s.Kind == StampCheckbox && s.Width > 0 {
		x = s.X + (s.Width-textWidth(text, fnt, fs))/2
	}
	top := size.Height - s.Y
	y := top - fs
	if s.Height > 0 {
		y = top - s.Height/2 - fs*0.35
	}
	return mark{x: x, y: y, font: fnt, size: fs, text: text, color: color}
}
