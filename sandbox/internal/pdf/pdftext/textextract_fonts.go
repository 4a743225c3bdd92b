package pdftext

// Fonts as text extraction needs them: how a string splits into character
// codes, what text each code stands for, and how far it advances. What is
// read: simple fonts (Type1, TrueType, Type3, MMType1) with a base encoding
// (WinAnsi, Standard, MacRoman: their printable ASCII range) and
// /Differences glyph names for ASCII and uniXXXX; Type0 fonts with two-byte
// codes; /ToUnicode maps (bfchar and bfrange) for both, which take
// precedence; widths from /Widths, /W and /DW, or the metrics of the
// standard 14 fonts. Codes nothing maps are U+FFFD, so text in fonts that
// carry no text information (subset fonts without /ToUnicode and with
// made-up glyph names) is not found.

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// pdfFont is a font of a content stream, read for extraction.
type pdfFont struct {
	twoByte bool
	toUni   map[uint32]string
	enc     [256]rune // simple fonts: code to character (0: unknown)
	// widths in glyph space (thousandths of the font size, or Type3
	// glyph units); scale turns them into text space units per unit of
	// font size.
	widths       map[uint32]float64
	defaultWidth float64
	scale        float64
	// core names the standard font whose metrics stand in for missing
	// widths.
	core string
}

// codes splits a string into character codes.
func (f *pdfFont) codes(s []byte) []uint32 {
	if !f.twoByte {
		out := make([]uint32, len(s))
		for i, c := range s {
			out[i] = uint32(c)
		}
		return out
	}
	out := make([]uint32, 0, (len(s)+1)/2)
	for i := 0; i < len(s); i += 2 {
		if i+1 < len(s) {
			out = append(out, uint32(s[i])<<8|uint32(s[i+1]))
		} else {
			out = append(out, uint32(s[i])<<8)
		}
	}
	return out
}

// codeBytes writes a code back as the bytes of a string.
func (f *pdfFont) codeBytes(c uint32) []byte {
	if f.twoByte {
		return []byte{byte(c >> 8), byte(c)}
	}
	return []byte{byte(c)}
}

// text is what a code stands for ("\uFFFD" when unknown).
func (f *pdfFont) text(c uint32) string {
	if s, ok := f.toUni[c]; ok && s != "" {
		return s
	}
	if !f.twoByte && c < 256 && f.enc[c] != 0 {
		return string(f.enc[c])
	}
	return "\uFFFD"
}

// width is a code's advance in text space units per unit of font size.
func (f *pdfFont) width(c uint32) float64 {
	if w, ok := f.widths[c]; ok {
		return w * f.scale
	}
	if f.core != "" && !f.twoByte && c < 256 {
		if w, err := font.CharWidth(f.core, rune(c)); err == nil && w > 0 {
			return float64(w) / 1000
		}
	}
	return f.defaultWidth * f.scale
}

// fontLoader reads and caches the fonts of one document, reading its
// objects within the document's decoding budget (pdf.Objects).
type fontLoader struct {
	*pdf.Objects
	cache map[int]*pdfFont
}

func newFontLoader(ctx *model.Context) *fontLoader {
	return &fontLoader{Objects: pdf.NewObjects(ctx), cache: map[int]*pdfFont{}}
}

// font reads the font a resource dictionary names (nil when it cannot).
func (fl *fontLoader) font(ref types.Object) *pdfFont {
	key := -1
	if ir, ok := ref.(types.IndirectRef); ok {
		key = ir.ObjectNumber.Value()
		if f, ok := fl.cache[key]; ok {
			return f
		}
	}
	d := fl.Dict(ref)
	if d == nil {
		return nil
	}
	f := fl.read(d)
	if key >= 0 {
		fl.cache[key] = f
	}
	return f
}

func (fl *fontLoader) read(d types.Dict) *pdfFont {
	f := &pdfFont{widths: map[uint32]float64{}, scale: 0.001, defaultWidth: 500}
	sub := fl.Name(d["Subtype"])
	if tu, ok := d.Find("ToUnicode"); ok {
		f.toUni = parseToUnicode(fl.StreamContent(tu))
	}
	if sub == "Type0" {
		f.twoByte = true
		f.defaultWidth = 1000
		desc := fl.Array(d["DescendantFonts"])
		if len(desc) > 0 {
			if cid := fl.Dict(desc[0]); cid != nil {
				if dw, ok := fl.Number(cid["DW"]); ok {
					f.defaultWidth = dw
				}
				fl.cidWidths(f, fl.Array(cid["W"]))
			}
		}
		return f
	}
	base := strings.TrimSpace(fl.Name(d["BaseFont"]))
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[i+1:] // subset prefix ABCDEF+
	}
	f.core = coreFontName(base)
	if sub == "Type3" {
		if m := fl.Array(d["FontMatrix"]); len(m) == 6 {
			if a, ok := fl.Number(m[0]); ok && a != 0 {
				f.scale = a
			}
		}
	}
	if fd := fl.Dict(d["FontDescriptor"]); fd != nil {
		if mw, ok := fl.Number(fd["MissingWidth"]); ok && mw > 0 {
			f.defaultWidth = mw
		}
	}
	if first, ok := fl.Number(d["FirstChar"]); ok {
		for i, w := range fl.Array(d["Widths"]) {
			if v, ok := fl.Number(w); ok {
				f.widths[uint32(int(first)+i)] = v
			}
		}
	}
	fl.encoding(f, d["Encoding"])
	return f
}

// cidWidths reads a /W array: c [w1 w2 ...] or cfirst clast w.
func (fl *fontLoader) cidWidths(f *pdfFont, w types.Array) {
	const maxEntries = 1 << 16
	n := 0
	for i := 0; i < len(w) && n < maxEntries; {
		c, ok := fl.Number(w[i])
		if !ok || i+1 >= len(w) {
			return
		}
		if arr := fl.Array(w[i+1]); arr != nil {
			for k, v := range arr {
				if x, ok := fl.Number(v); ok {
					f.widths[uint32(int(c)+k)] = x
					n++
				}
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			return
		}
		last, ok1 := fl.Number(w[i+1])
		x, ok2 := fl.Number(w[i+2])
		if !ok1 || !ok2 {
			return
		}
		for k := int(c); k <= int(last) && n < maxEntries; k++ {
			f.widths[uint32(k)] = x
			n++
		}
		i += 3
	}
}

// encoding fills a simple font's code-to-character table.
func (fl *fontLoader) encoding(f *pdfFont, enc types.Object) {
	baseName := ""
	var diffs types.Array
	switch v := fl.Resolve(enc).(type) {
	case types.Name:
		baseName = string(v)
	case types.Dict:
		baseName = fl.Name(v["BaseEncoding"])
		diffs = fl.Array(v["Differences"])
	}
	for c := 0x20; c < 0x7F; c++ {
		f.enc[c] = rune(c)
	}
	if baseName == "StandardEncoding" {
		f.enc['\''], f.enc['`'] = '’', '‘'
	}
	if baseName != "MacRomanEncoding" {
		for r, b := range pdf.WinAnsiHigh {
			f.enc[b] = r
		}
		for c := 0xA0; c <= 0xFF; c++ {
			f.enc[c] = rune(c)
		}
	}
	code := 0
	for _, o := range diffs {
		switch v := fl.Resolve(o).(type) {
		case types.Integer:
			code = int(v)
		case types.Float:
			code = int(v)
		case types.Name:
			if code >= 0 && code < 256 {
				f.enc[code] = glyphRune(string(v))
			}
			code++
		}
	}
}

// coreFontName maps a base font name to one of the standard 14 fonts whose
// metrics pdfcpu knows ("" for other fonts).
func coreFontName(base string) string {
	b := strings.ReplaceAll(base, " ", "")
	switch b {
	case "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Courier", "Courier-Bold",
		"Courier-Oblique", "Courier-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic":
		return b
	case "Arial", "ArialMT":
		return "Helvetica"
	case "Arial,Bold", "Arial-BoldMT":
		return "Helvetica-Bold"
	case "CourierNew", "CourierNewPSMT":
		return "Courier"
	case "TimesNewRoman", "TimesNewRomanPSMT":
		return "Times-Roman"
	}
	return ""
}

// asciiGlyphNames are the glyph names of printable ASCII, from space.
var asciiGlyphNames = strings.Fields(`space exclam quotedbl numbersign dollar percent ampersand quotesingle
parenleft parenright asterisk plus comma hyphen period slash zero one two three four five six seven eight nine
colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z bracketleft
backslash bracketright asciicircum underscore grave a b c d e f g h i j k l m n o p q r s t u v w x y z braceleft
bar braceright asciitilde`)

var glyphNames = func() map[string]rune {
	m := map[string]rune{"quoteright": '’', "quoteleft": '‘', "minus": '-', "nbspace": ' ', "endash": '–', "emdash": '—'}
	for i, n := range asciiGlyphNames {
		m[n] = rune(0x20 + i)
	}
	return m
}()

// glyphRune maps a glyph name to its character (0 when unknown): the
// ASCII names, uniXXXX and uXXXX[XX].
func glyphRune(name string) rune {
	if r, ok := glyphNames[name]; ok {
		return r
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return glyphRune(name[:i]) // a.sc, bracketleft.alt
	}
	hexRune := func(s string) rune {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil || v > 0x10FFFF || (v >= 0xD800 && v < 0xE000) {
			return 0
		}
		return rune(v)
	}
	switch {
	case strings.HasPrefix(name, "uni") && len(name) == 7:
		return hexRune(name[3:])
	case strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7:
		return hexRune(name[1:])
	}
	return 0
}

// maxToUnicodeEntries bounds a /ToUnicode map.
const maxToUnicodeEntries = 1 << 16

// parseToUnicode reads the bfchar and bfrange sections of a CMap.
func parseToUnicode(data []byte) map[uint32]string {
	if len(data) == 0 {
		return nil
	}
	out := map[uint32]string{}
	work := 0 // entries written, overwrites included: bounds hostile maps
	codeOf := func(b []byte) uint32 {
		var v uint32
		for _, c := range b[:min(len(b), 4)] {
			v = v<<8 | uint32(c)
		}
		return v
	}
	eachOp(data, func(op contentOp) bool {
		switch op.name {
		case "endbfchar":
			for i := 0; i+1 < len(op.args) && work < maxToUnicodeEntries; i += 2 {
				if op.args[i].kind == opdString && op.args[i+1].kind == opdString {
					out[codeOf(op.args[i].str)] = utf16Text(op.args[i+1].str)
					work++
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(op.args) && work < maxToUnicodeEntries; i += 3 {
				lo, hi, dst := op.args[i], op.args[i+1], op.args[i+2]
				if lo.kind != opdString || hi.kind != opdString {
					continue
				}
				a, b := codeOf(lo.str), codeOf(hi.str)
				if b < a || b-a >= uint32(maxToUnicodeEntries-work) {
					continue
				}
				work += int(b-a) + 1
				switch dst.kind {
				case opdString:
					base := []rune(utf16Text(dst.str))
					if len(base) == 0 {
						continue
					}
					for c := a; c <= b; c++ {
						r := append([]rune(nil), base...)
						r[len(r)-1] += rune(c - a)
						out[c] = string(r)
					}
				case opdArray:
					for k, e := range dst.arr {
						if e.kind == opdString && a+uint32(k) <= b {
							out[a+uint32(k)] = utf16Text(e.str)
						}
					}
				}
			}
		}
		return work < maxToUnicodeEntries
	})
	return out
}

// utf16Text decodes UTF-16BE bytes.
func utf16Text(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(b)%2 == 1 {
		u = append(u, uint16(b[len(b)-1]))
	}
	return string(utf16.Decode(u))
}
