package pdf

import (
	"strings"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/font"
)

// The generated pages and stamps use the standard Type 1 fonts every PDF
// reader has (nothing is embedded, so output stays small and deterministic)
// with WinAnsiEncoding. Text is therefore limited to Windows-1252: other
// characters are shown as '?'.

// WinAnsiHigh maps the code points Windows-1252 puts in 0x80..0x9F.
var WinAnsiHigh = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87,
	'ˆ': 0x88, '‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E,
	'‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
	'˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// winAnsi converts UTF-8 text to Windows-1252 bytes. Line feeds stay (the
// page layout splits paragraphs on them), other control characters become
// spaces, characters outside the code page '?'.
func winAnsi(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteByte('\n')
		case r == utf8.RuneError:
			b.WriteByte('?')
		case r < 0x20 || r == 0x7F:
			b.WriteByte(' ')
		case r < 0x7F:
			b.WriteByte(byte(r))
		case r >= 0xA0 && r <= 0xFF:
			b.WriteByte(byte(r))
		default:
			if c, ok := WinAnsiHigh[r]; ok {
				b.WriteByte(c)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// pdfString writes Windows-1252 bytes as a PDF literal string.
func pdfString(b *strings.Builder, s string) {
	b.WriteByte('(')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', ')', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(')')
}

// Fonts the sandbox draws with, by resource name.
const (
	fontRegular = "Helvetica"
	fontBold    = "Helvetica-Bold"
	fontOblique = "Helvetica-Oblique"
	fontMono    = "Courier"
)

// fontResources are the resource names of the fonts in content streams the
// sandbox writes. The prefix keeps them apart from a document's own names.
var fontResources = map[string]string{
	fontRegular: "SbxF1",
	fontBold:    "SbxF2",
	fontOblique: "SbxF3",
	fontMono:    "SbxF4",
}

// fontOrder lists the fonts in a fixed order for deterministic output.
var fontOrder = []string{fontRegular, fontBold, fontOblique, fontMono}

// glyphWidths holds, per font, the width of each Windows-1252 code in
// thousandths of the font size, read once from pdfcpu's metrics of the
// standard fonts (its lookup goes through maps, too slow for wrapping
// whole text files).
var glyphWidths = func() map[string]*[256]float64 {
	out := map[string]*[256]float64{}
	for _, f := range fontOrder {
		var t [256]float64
		for c := range t {
			w, err := font.CharWidth(f, rune(c))
			if err != nil || w <= 0 {
				w = 600
			}
			t[c] = float64(w)
		}
		out[f] = &t
	}
	return out
}()

// textWidth is the width in points of Windows-1252 text.
func textWidth(s, fontName string, size float64) float64 {
	t := glyphWidths[fontName]
	if t == nil {
		return float64(len(s)) * size * 0.6
	}
	return glyphSum(t, s) * size / 1000
}

// glyphSum is the width of s in thousandths of the font size. The glyph
// widths are whole numbers, so sums are exact and the width of a line can be
// added up word by word (or byte by byte) with the same result as measuring
// it whole: wrapping stays linear in the text and gives the same lines.
func glyphSum(t *[256]float64, s string) float64 {
	var w float64
	for i := 0; i < len(s); i++ {
		w += t[s[i]]
	}
	return w
}

// wrap breaks Windows-1252 text into lines no wider than width, at spaces
// where possible and inside words that are longer than a line. Every byte
// is measured once, so a text of any length (a 2 MB line, a 2 MB name)
// costs time linear in its size.
func wrap(s, fontName string, size, width float64) []string {
	t := glyphWidths[fontName]
	if t == nil {
		t = &fallbackWidths
	}
	fits := func(sum float64) bool { return sum*size/1000 <= width }
	space := t[' ']
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		cur, curSum := "", 0.0
		for _, w := range words {
			wSum := glyphSum(t, w)
			if cur == "" && fits(wSum) {
				cur, curSum = w, wSum
				continue
			}
			if cur != "" && fits(curSum+space+wSum) {
				cur, curSum = cur+" "+w, curSum+space+wSum
				continue
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			for !fits(wSum) && len(w) > 1 {
				n, nSum := fitPrefixSum(t, w, size, width)
				lines = append(lines, w[:n])
				w, wSum = w[n:], wSum-nSum
			}
			cur, curSum = w, wSum
		}
		lines = append(lines, cur)
	}
	return lines
}

// fallbackWidths measure a font without metrics as textWidth does (600
// thousandths, 0.6 of the size, per byte).
var fallbackWidths = func() (t [256]float64) {
	for i := range t {
		t[i] = 600
	}
	return t
}()

// fitPrefix is the length of the longest prefix of s (at least one byte)
// that fits width.
func fitPrefix(s, fontName string, size, width float64) int {
	t := glyphWidths[fontName]
	if t == nil {
		t = &fallbackWidths
	}
	n, _ := fitPrefixSum(t, s, size, width)
	return n
}

// fitPrefixSum is fitPrefix with the prefix's glyph sum, measuring each
// byte once.
func fitPrefixSum(t *[256]float64, s string, size, width float64) (int, float64) {
	n, sum := 1, t[s[0]]
	for n < len(s) {
		next := sum + t[s[n]]
		if next*size/1000 > width {
			break
		}
		n, sum = n+1, next
	}
	return n, sum
}
