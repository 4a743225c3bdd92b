package pdftext

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/font"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// wantBox is the API box of text from x0 to x1 (user space) on baseline y
// at font size size, on an unrotated page whose visible area has its top
// at pageTop and its left edge at ox: the box extraction gives a character
// run (0.8 of the size above the baseline, 0.2 below), grown to whole
// points.
func wantBox(x0, x1, y, size, pageTop, ox float64) (int, int, int, int) {
	left, right := math.Floor(x0-ox), math.Ceil(x1-ox)
	top, bottom := math.Floor(pageTop-(y+0.8*size)), math.Ceil(pageTop-(y-0.2*size))
	return int(left), int(top), int(right - left), int(bottom - top)
}

// helv is the width of Helvetica text at a size.
// (pdfcpu's metrics of the standard font, as the composer and the
// extraction read them; 600 for a code it has no width for).
func helv(s string, size float64) float64 {
	var w float64
	for i := 0; i < len(s); i++ {
		cw, err := font.CharWidth("Helvetica", rune(s[i]))
		if err != nil || cw <= 0 {
			cw = 600
		}
		w += float64(cw)
	}
	return w * size / 1000
}

func scan(t *testing.T, doc []byte) []FoundTag {
	t.Helper()
	s, err := ScanTextTags(doc, false)
	require.NoError(t, err)
	return s.Tags
}

func tagAt(text string, page, x, y, w, h int) FoundTag {
	return FoundTag{Text: text, Page: page, X: x, Y: y, Width: w, Height: h}
}

func TestScanTextTagsPositions(t *testing.T) {
	const tag = "[sig|req|signer1]"
	t.Run("Tj with a standard font", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td (Sign: "+tag+" ok) Tj ET", "")
		x0 := 72 + helv("Sign: ", 12)
		x, y, w, h := wantBox(x0, x0+helv(tag, 12), 700, 12, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("TJ kerning and character spacing", func(t *testing.T) {
		doc := textPDF("BT /F1 10 Tf 2 Tc 100 600 Td [(AB) -500 ("+tag+")] TJ ET", "")
		x0 := 100 + helv("AB", 10) + 2*2 + 5
		x1 := x0 + helv(tag, 10) + 2*float64(len(tag)-1)
		x, y, w, h := wantBox(x0, x1, 600, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("word spacing applies to spaces", func(t *testing.T) {
		doc := textPDF("BT /F1 10 Tf 7 Tw 100 600 Td (a b "+tag+") Tj ET", "")
		x0 := 100 + helv("a b ", 10) + 2*7
		x, y, w, h := wantBox(x0, x0+helv(tag, 10), 600, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("horizontal scaling and text matrix", func(t *testing.T) {
		doc := textPDF("BT /F1 10 Tf 50 Tz 2 0 0 2 100 500 Tm ("+tag+") Tj ET", "")
		x, y, w, h := wantBox(100, 100+helv(tag, 10), 500, 20, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("cm inside q Q, TL and T*", func(t *testing.T) {
		doc := textPDF("q 1 0 0 1 50 50 cm BT /F1 10 Tf 10 10 Td ([a|b|c]) Tj ET Q BT /F1 10 Tf 14 TL 10 30 Td T* ([d|e|f]) Tj ET", "")
		x, y, w, h := wantBox(60, 60+helv("[a|b|c]", 10), 60, 10, 792, 0)
		x2, y2, w2, h2 := wantBox(10, 10+helv("[d|e|f]", 10), 16, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt("[a|b|c]", 1, x, y, w, h), tagAt("[d|e|f]", 1, x2, y2, w2, h2)}, scan(t, doc))
	})
	t.Run("text rise", func(t *testing.T) {
		doc := textPDF("BT /F1 10 Tf 3 Ts 100 600 Td ("+tag+") Tj ET", "")
		x, y, w, h := wantBox(100, 100+helv(tag, 10), 603, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("a tag drawn by two operators on one line", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td ([sig|re) Tj (q|signer1]) Tj ET", "")
		x, y, w, h := wantBox(72, 72+helv(tag, 12), 700, 12, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("apostrophe and quote operators", func(t *testing.T) {
		doc := textPDF("BT /F1 10 Tf 12 TL 100 600 Td (first line) Tj ("+tag+") ' 0 1 ([a|b]) \" ET", "")
		x, y, w, h := wantBox(100, 100+helv(tag, 10), 588, 10, 792, 0)
		x2, y2, w2, h2 := wantBox(100, 100+helv("[a|b]", 10)+4, 576, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h), tagAt("[a|b]", 1, x2, y2, w2, h2)}, scan(t, doc))
	})
	t.Run("a crop box moves the origin", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td ("+tag+") Tj ET", "/CropBox[36 36 576 756]")
		x, y, w, h := wantBox(72, 72+helv(tag, 12), 700, 12, 756, 36)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, doc))
	})
	t.Run("a rotated page is measured as displayed", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td ("+tag+") Tj ET", "/Rotate 90")
		// Displayed (u, v) = (y, 612 - x): the run stands upright.
		wd := helv(tag, 12)
		left, right := math.Floor(700-2.4), math.Ceil(700+9.6)
		top, bottom := math.Floor(612-(612-72)), math.Ceil(612-(612-72-wd))
		assert.Equal(t, []FoundTag{tagAt(tag, 1, int(left), int(top), int(right-left), int(bottom-top))}, scan(t, doc))
	})
	t.Run("not found: a tag broken across lines, text without a bar", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td ([sig|req|) Tj 0 -20 Td (signer1]) Tj 0 -20 Td (see [1] and [note]) Tj ET", "")
		assert.Empty(t, scan(t, doc))
	})
	t.Run("inline images and comments are skipped", func(t *testing.T) {
		doc := textPDF("% a comment (with [x|y|z])\nq BI /W 2 /H 1 /BPC 8 /CS /G ID (]) EI Q BT /F1 12 Tf 72 700 Td ("+tag+") Tj ET", "")
		require.Len(t, scan(t, doc), 1)
	})
	t.Run("escapes in literal strings", func(t *testing.T) {
		doc := textPDF(`BT /F1 12 Tf 72 700 Td (\133sig|req|signer1\135 \(x\)) Tj ET`, "")
		tags := scan(t, doc)
		require.Len(t, tags, 1)
		assert.Equal(t, tag, tags[0].Text)
	})
	t.Run("pages in order", func(t *testing.T) {
		b := &pdfBuild{}
		f := helvetica(b)
		_, cat := buildPages(b, []testPage{
			{content: "BT /F1 12 Tf 72 700 Td (no tags here) Tj ET", fonts: map[string]int{"F1": f}},
			{content: "BT /F1 12 Tf 72 700 Td ([text|req|signer2]) Tj ET", fonts: map[string]int{"F1": f}},
		}, "")
		tags := scan(t, b.bytes(cat))
		require.Len(t, tags, 1)
		assert.Equal(t, 2, tags[0].Page)
	})
}

func TestScanTextTagsFonts(t *testing.T) {
	const tag = "[sig|req|signer1]"
	t.Run("Type0 font with two-byte codes, /W widths and /ToUnicode", func(t *testing.T) {
		b := &pdfBuild{}
		cmap := b.stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"+
			"1 beginbfrange <0120> <017E> <0020> endbfrange\n1 beginbfchar <0300> <005B> endbfchar\nendcmap end end")
		cid := b.add("<</Type/Font/Subtype/CIDFontType2/BaseFont/ABCDEF+Embedded/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>/DW 500/W[768 [700]]>>")
		f := b.add(fmt.Sprintf("<</Type/Font/Subtype/Type0/BaseFont/ABCDEF+Embedded/Encoding/Identity-H/DescendantFonts[%d 0 R]/ToUnicode %d 0 R>>", cid, cmap))
		var hex strings.Builder
		for i, c := range tag {
			if i == 0 {
				hex.WriteString("0300") // the bfchar entry; width 700 from /W
				continue
			}
			fmt.Fprintf(&hex, "01%02X", c)
		}
		_, cat := buildPages(b, []testPage{{content: "BT /F2 10 Tf 100 500 Td <" + hex.String() + "> Tj ET", fonts: map[string]int{"F2": f}}}, "")
		x, y, w, h := wantBox(100, 100+7+float64(len(tag)-1)*5, 500, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, b.bytes(cat)))
	})
	t.Run("simple font with /Differences and /Widths", func(t *testing.T) {
		b := &pdfBuild{}
		names := map[rune]string{'[': "bracketleft", ']': "bracketright", '|': "bar", '1': "one"}
		diffs := "1"
		var codes strings.Builder
		seen := map[rune]int{}
		for _, r := range tag {
			if _, ok := seen[r]; !ok {
				seen[r] = len(seen) + 1
				n := names[r]
				if n == "" {
					n = string(r)
				}
				diffs += " /" + n
			}
			fmt.Fprintf(&codes, "\\%03o", seen[r])
		}
		widths := strings.TrimSpace(strings.Repeat("600 ", len(seen)))
		f := b.add(fmt.Sprintf("<</Type/Font/Subtype/Type1/BaseFont/ABCDEF+Custom/FirstChar 1/LastChar %d/Widths[%s]/Encoding<</Type/Encoding/Differences[%s]>>>>",
			len(seen), widths, diffs))
		_, cat := buildPages(b, []testPage{{content: "BT /F3 10 Tf 100 500 Td (" + codes.String() + ") Tj ET", fonts: map[string]int{"F3": f}}}, "")
		x, y, w, h := wantBox(100, 100+float64(len(tag))*6, 500, 10, 792, 0)
		assert.Equal(t, []FoundTag{tagAt(tag, 1, x, y, w, h)}, scan(t, b.bytes(cat)))
	})
	t.Run("a font that is not in the resources draws nothing readable", func(t *testing.T) {
		doc := textPDF("BT /F9 12 Tf 72 700 Td ("+tag+") Tj ET", "")
		assert.Empty(t, scan(t, doc))
	})
}

// The sandbox typesets .txt uploads in 9-point Courier from the top-left
// margin, 12.15 points per line: tags are located exactly.
func TestScanTextTagsInTextFiles(t *testing.T) {
	conv, err := pdf.Convert("terms.txt", "text/plain", []byte("Hello [sig|req|signer1]\nsecond [date|req|signer2] end\n"))
	require.NoError(t, err)
	const margin, pageHeight = 54.0, 792.0 // the typesetter's (pdf/layout.go)
	col := func(n int) float64 { return margin + float64(n)*5.4 }
	base1 := pageHeight - margin - 12.15
	x, y, w, h := wantBox(col(6), col(6+17), base1, 9, 792, 0)
	x2, y2, w2, h2 := wantBox(col(7), col(7+18), base1-12.15, 9, 792, 0)
	assert.Equal(t, []FoundTag{tagAt("[sig|req|signer1]", 1, x, y, w, h), tagAt("[date|req|signer2]", 1, x2, y2, w2, h2)},
		scan(t, conv.PDF))
	assert.Equal(t, FoundTag{Text: "[sig|req|signer1]", Page: 1, X: 86, Y: 58, Width: 93, Height: 10}, scan(t, conv.PDF)[0])
}

func TestScanTextTagsHide(t *testing.T) {
	const tag = "[sig|req|signer1|Sign here|s1]"
	doc := textPDF("BT /F1 12 Tf 12 TL 72 700 Td (Before "+tag+" after) Tj [(Kern) -200 ([a|b]) 50 (ed)] TJ ([c|d]) ' 1 0 ([e|f] tail) \" ET", "")
	s, err := ScanTextTags(doc, true)
	require.NoError(t, err)
	require.Len(t, s.Tags, 4)
	require.NotNil(t, s.Hidden)
	pdftest.Validate(t, s.Hidden)
	_, err = pdf.Inspect(s.Hidden)
	require.NoError(t, err)

	again, err := ScanTextTags(s.Hidden, false)
	require.NoError(t, err)
	assert.Empty(t, again.Tags)
	lines, err := ExtractLines(s.Hidden)
	require.NoError(t, err)
	var text []string
	for _, l := range lines {
		text = append(text, l.Text)
	}
	joined := strings.Join(text, "\n")
	for _, want := range []string{"Before", "after", "Kern", "ed", "tail"} {
		assert.Contains(t, joined, want)
	}
	assert.NotContains(t, joined, "|")

	// Every character but the tags' is still drawn, where it was.
	kept := keptGlyphs(t, doc)
	now := keptGlyphs(t, s.Hidden)
	require.Len(t, now, len(kept))
	for i := range kept {
		assert.Equal(t, kept[i].text, now[i].text)
		assert.InDelta(t, kept[i].ox, now[i].ox, 1e-6, kept[i].text)
		assert.InDelta(t, kept[i].oy, now[i].oy, 1e-6, kept[i].text)
	}

	if text := pdftotextOrSkip(t, s.Hidden); text != "" {
		assert.NotContains(t, text, "sig|req")
		assert.Contains(t, text, "Before")
		assert.Contains(t, text, "after")
	}
	pdftest.Render(t, s.Hidden)
}

// keptGlyphs are the characters of the first page that are not part of a
// tag, in drawing order.
func keptGlyphs(t *testing.T, doc []byte) []glyph {
	t.Helper()
	ctx, pages, err := pdf.Open(doc)
	require.NoError(t, err)
	pt := readPageText(newFontLoader(ctx), pages[0])
	inTag := map[int]bool{}
	for _, h := range pt.tagHits() {
		for _, g := range h.glyphs {
			inTag[g] = true
		}
	}
	var out []glyph
	for i, g := range pt.glyphs {
		if !inTag[i] {
			out = append(out, g)
		}
	}
	return out
}

func pdftotextOrSkip(t *testing.T, doc []byte) string {
	t.Helper()
	return pdftest.Text(t, doc)
}

func TestScanTextTagsRealSamples(t *testing.T) {
	for _, name := range pdftest.SampleNames {
		doc := pdftest.Sample(t, name)
		lines, err := ExtractLines(doc)
		require.NoError(t, err)
		require.NotEmpty(t, lines)
		assert.Equal(t, "Adobe Acrobat PDF Files", lines[0].Text, name)
		assert.Empty(t, scan(t, doc), name)
	}
}

// FuzzScanContent feeds arbitrary content streams to extraction and
// hiding: no panic, and a rewritten document is a valid PDF without tags.
func FuzzScanContent(f *testing.F) {
	for _, s := range []string{
		"BT /F1 12 Tf 72 700 Td ([sig|req|signer1]) Tj ET",
		"BT /F1 10 Tf [(a) -20 ([b|c]) 5 (d)] TJ ([e|f]) ' 1 2 ([g|h]) \" ET",
		"q 2 0 0 2 0 0 cm BT /F1 0 Tf 0 Tz ([x|y]) Tj ET Q Q Q",
		"BI /W 1 /H 1 ID \xff EI BT /F1 12 Tf <5B617C625D> Tj ET",
		"BT /F1 1e308 Tf 1e308 1e308 Td ([a|b]) Tj ET",
		"[[[[[[(", "(unterminated", "<</a [1 2 <<", "BT /F1 12 Tf ([a|b) Tj (]) Tj ET",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		doc := textPDF(content, "")
		s, err := ScanTextTags(doc, true)
		if err != nil {
			return
		}
		if _, err := ExtractLines(doc); err != nil {
			t.Fatalf("lines: %v", err)
		}
		if s.Hidden == nil {
			return
		}
		if _, err := pdf.Inspect(s.Hidden); err != nil {
			t.Fatalf("hidden copy does not inspect: %v", err)
		}
		again, err := ScanTextTags(s.Hidden, false)
		if err != nil {
			t.Fatalf("hidden copy: %v", err)
		}
		for _, tg := range again.Tags {
			for _, old := range s.Tags {
				if tg == old {
					t.Fatalf("tag %+v still found after hiding", tg)
				}
			}
		}
	})
}

// Hostile content is read in time and memory proportional to its size:
// long number tokens, endless operands, huge arrays, CMaps that rewrite
// the same codes over and over.
func TestScanTextTagsHostileContent(t *testing.T) {
	const tag = "[sig|req|signer1]"
	t.Run("a number token of 300,000 characters", func(t *testing.T) {
		doc := textPDF(strings.Repeat("1.", 150_000)+" 0 Tc BT /F1 12 Tf 72 700 Td ("+tag+") Tj ET", "")
		require.Len(t, scan(t, doc), 1)
	})
	t.Run("a million operands without an operator", func(t *testing.T) {
		doc := textPDF(strings.Repeat("1 ", 1_000_000)+"BT /F1 12 Tf 72 700 Td ("+tag+") Tj ET", "")
		require.Len(t, scan(t, doc), 1)
	})
	t.Run("a TJ array of a million elements", func(t *testing.T) {
		doc := textPDF("BT /F1 12 Tf 72 700 Td [("+tag+")"+strings.Repeat(" 0", 1_000_000)+"] TJ ET", "")
		require.Len(t, scan(t, doc), 1)
	})
	t.Run("a ToUnicode map of ranges that cover every code again and again", func(t *testing.T) {
		b := &pdfBuild{}
		hostile := strings.Repeat("<0000> <FFFF> <0041>\n", 5000)
		cmap := b.stream("", "begincmap 1 beginbfrange <0020> <007E> <0020> endbfrange 5000 beginbfrange "+hostile+"endbfrange endcmap")
		f := b.add(fmt.Sprintf("<</Type/Font/Subtype/Type1/BaseFont/Helvetica/ToUnicode %d 0 R>>", cmap))
		_, cat := buildPages(b, []testPage{{content: "BT /F1 12 Tf 72 700 Td (" + tag + ") Tj ET", fonts: map[string]int{"F1": f}}}, "")
		tags := scan(t, b.bytes(cat))
		require.Len(t, tags, 1)
		assert.Equal(t, tag, tags[0].Text)
	})
}
