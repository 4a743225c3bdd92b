package pdf

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrapByRemeasuring is the wrapping rule written the obvious way, measuring
// every candidate line whole (quadratic on long words): wrap must give the
// same lines.
func wrapByRemeasuring(s, fontName string, size, width float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		cur := ""
		for _, w := range words {
			cand := w
			if cur != "" {
				cand = cur + " " + w
			}
			if textWidth(cand, fontName, size) <= width {
				cur = cand
				continue
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			for textWidth(w, fontName, size) > width && len(w) > 1 {
				n := 1
				for n < len(w) && textWidth(w[:n+1], fontName, size) <= width {
					n++
				}
				lines = append(lines, w[:n])
				w = w[n:]
			}
			cur = w
		}
		lines = append(lines, cur)
	}
	return lines
}

func TestWrapMatchesRemeasuring(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	alphabet := "aaaaeeiiWWmm.,;  \n\t-–—é" + "\xe9\x80"
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := rng.IntN(800); n > 0; n-- {
			if rng.IntN(40) == 0 {
				b.WriteString(strings.Repeat("M", rng.IntN(300)))
			}
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		text := winAnsi(b.String())
		for _, f := range fontOrder {
			size := []float64{9, 9.5, 10, 12, 22}[rng.IntN(5)]
			width := []float64{1, 30, 200, 504, 492}[rng.IntN(5)]
			require.Equal(t, wrapByRemeasuring(text, f, size, width), wrap(text, f, size, width), "font %s size %v width %v", f, size, width)
		}
	}
}

// TestTextLayoutIsLinear: a 2 MB single-line text file and a 2 MB name lay
// out in time proportional to their size (before: 10.7 s for the file).
func TestTextLayoutIsLinear(t *testing.T) {
	line := strings.Repeat("x", 2<<20)
	start := time.Now()
	pages := textContent(line)
	assert.Len(t, pages, textPagesMax)
	l := newLayout(0)
	l.para(fontOblique, 22, 12, inkBlue, strings.Repeat("Name", 1<<19))
	l.finish()
	// Generous (race detector, shared machine): the quadratic version took
	// minutes for this.
	assert.Less(t, time.Since(start), 20*time.Second)
}

func BenchmarkWrapLongLine(b *testing.B) {
	for _, n := range []int{256 << 10, 1 << 20, 2 << 20} {
		line := strings.Repeat("x", n)
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			for b.Loop() {
				wrap(line, fontMono, 9, pageWidth-2*margin)
			}
		})
	}
}
