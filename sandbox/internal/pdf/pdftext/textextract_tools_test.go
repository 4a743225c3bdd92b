package pdftext

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// A PDF as a common tool writes it: Chromium prints HTML with embedded
// TrueType subsets (Type0, Identity-H, /ToUnicode). The tags are found
// where poppler's pdftotext -bbox puts their words. Skipped without
// chromium (and pdftotext).
func TestScanTextTagsChromiumPDF(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed: the check against a browser-printed PDF is skipped")
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): check skipped")
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "tags.html")
	require.NoError(t, os.WriteFile(html, []byte(`<html><body style="font-family: sans-serif; font-size: 14px">
<p>Contract between the parties.</p>
<p>Signature: [sig|req|signer1|Signature|sig1] Date: [date|req|signer1]</p>
<p style="font-family: serif; font-size: 20px">Name: [text|req|signer2|Name|name2|letters_only|name]</p>
</body></html>`), 0o600))
	out := filepath.Join(dir, "out.pdf")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--print-to-pdf="+out, "file://"+html)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("chromium could not print (%v): %s", err, b)
	}
	doc, err := os.ReadFile(out)
	require.NoError(t, err)

	s, err := ScanTextTags(doc, true)
	require.NoError(t, err)
	var texts []string
	for _, tg := range s.Tags {
		texts = append(texts, tg.Text)
	}
	require.Equal(t, []string{"[sig|req|signer1|Signature|sig1]", "[date|req|signer1]", "[text|req|signer2|Name|name2|letters_only|name]"}, texts)

	bbox, err := exec.Command("pdftotext", "-bbox", out, "-").Output()
	require.NoError(t, err)
	words := regexp.MustCompile(`xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">(\[[^<]*\])</word>`).FindAllStringSubmatch(string(bbox), -1)
	require.Len(t, words, len(s.Tags))
	for i, w := range words {
		num := func(k int) float64 { v, _ := strconv.ParseFloat(w[k], 64); return v }
		tg := s.Tags[i]
		assert.Equal(t, tg.Text, w[5])
		assert.InDelta(t, num(1), float64(tg.X), 1, "%s x", tg.Text)
		assert.InDelta(t, num(3), float64(tg.X+tg.Width), 1.5, "%s right edge", tg.Text)
		// poppler's word box uses the font's own ascent and descent; the
		// sandbox's runs from 0.8 of the size above the baseline to 0.2
		// below: the boxes overlap by most of their height.
		top, bottom := float64(tg.Y), float64(tg.Y+tg.Height)
		overlap := min(bottom, num(4)) - max(top, num(2))
		assert.Greater(t, overlap, 0.7*(num(4)-num(2)), "%s vertical", tg.Text)
	}

	require.NotNil(t, s.Hidden)
	pdftest.Validate(t, s.Hidden)
	assert.NotContains(t, pdftest.Text(t, s.Hidden), "|req|")
	assert.Contains(t, pdftest.Text(t, s.Hidden), "Contract between the parties.")
}
