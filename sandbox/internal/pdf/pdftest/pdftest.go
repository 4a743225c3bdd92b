// Package pdftest helps tests check the PDFs and ZIPs the sandbox hands
// out: pdfcpu validation, rendering every page with poppler's pdftoppm
// (skipped when it is not installed), the sample PDFs of the reference
// material, and small generated PDFs for tests that must always run.
package pdftest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// SampleNames are the sample PDFs of the official SDK test fixtures.
var SampleNames = []string{"pdf-sample.pdf", "pdf-sample-2.pdf"}

// SamplePath is where a sample PDF is expected: the reference material
// beside the repository ("" when the repository root cannot be found).
func SamplePath(name string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "reference", "dropbox-sign", "test_fixtures", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Sample reads a sample PDF, or skips the test when the reference material
// is not beside the repository.
func Sample(t testing.TB, name string) []byte {
	t.Helper()
	p := SamplePath(name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("sample PDF %s not available (%v): put ../shared/reference beside the repository to run this test", name, err)
	}
	return data
}

// SampleIfPresent reads a sample PDF, or returns nil.
func SampleIfPresent(name string) []byte {
	data, err := os.ReadFile(SamplePath(name))
	if err != nil {
		return nil
	}
	return data
}

// Validate checks a PDF with pdfcpu (relaxed mode, as readers are) and
// returns its page count.
func Validate(t testing.TB, pdf []byte) int {
	t.Helper()
	api.DisableConfigDir()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadAndValidate(bytes.NewReader(pdf), conf)
	if err != nil {
		t.Fatalf("pdfcpu rejects the PDF: %v", err)
	}
	return ctx.PageCount
}

// HavePdftoppm reports whether poppler's pdftoppm is installed.
func HavePdftoppm() bool {
	_, err := exec.LookPath("pdftoppm")
	return err == nil
}

// Render rasterizes every page with pdftoppm (at a low resolution) and
// returns the number of pages rendered; it fails the test when pdftoppm
// reports an error or a warning, and skips when pdftoppm is absent
// (install Debian's poppler-utils to run it).
func Render(t testing.TB, pdf []byte) int {
	t.Helper()
	if !HavePdftoppm() {
		t.Skip("pdftoppm not installed (apt-get install poppler-utils): rendering check skipped")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdftoppm", "-r", "12", "-gray", in, filepath.Join(dir, "page"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftoppm failed: %v: %s", err, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Fatalf("pdftoppm complained: %s", s)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "page*.pgm"))
	return len(pages)
}

// Text extracts the text of a PDF with poppler's pdftotext, or skips when
// it is absent.
func Text(t testing.TB, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): text check skipped")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext failed: %v", err)
	}
	return string(out)
}

// Unzip returns the entries of a ZIP in order, name and content.
func Unzip(t testing.TB, data []byte) (names []string, contents [][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a ZIP: %v", err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("zip entry %s: %v", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatalf("zip entry %s: %v", f.Name, err)
		}
		names = append(names, f.Name)
		contents = append(contents, b)
	}
	return names, contents
}

// Page describes one page of a generated test PDF.
type Page struct {
	Width, Height float64
	Rotate        int
	Text          string
}

// MakePDF writes a small valid PDF with the given pages (Helvetica text,
// resources inherited from the page tree root, as many real files do).
func MakePDF(pages ...Page) []byte {
	// 1 catalog, 2 pages, 3 font, then per page: page, content.
	objs := []string{"<</Type/Catalog/Pages 2 0 R>>"}
	var kids []string
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", 4+2*i))
	}
	objs = append(objs, fmt.Sprintf("<</Type/Pages/Kids[%s]/Count %d/Resources<</Font<</F1 3 0 R>>>>/MediaBox[0 0 612 792]>>", strings.Join(kids, " "), len(pages)),
		"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
	for i, p := range pages {
		extra := ""
		if p.Width > 0 && p.Height > 0 {
			extra += fmt.Sprintf("/MediaBox[0 0 %g %g]", p.Width, p.Height)
		}
		if p.Rotate != 0 {
			extra += fmt.Sprintf("/Rotate %d", p.Rotate)
		}
		objs = append(objs, fmt.Sprintf("<</Type/Page/Parent 2 0 R%s/Contents %d 0 R>>", extra, 5+2*i))
		text := p.Text
		if text == "" {
			text = fmt.Sprintf("Test page %d", i+1)
		}
		h := p.Height
		if h <= 0 {
			h = 792
		}
		content := fmt.Sprintf("BT /F1 24 Tf 72 %g Td (%s) Tj ET", h-92, text)
		objs = append(objs, fmt.Sprintf("<</Length %d>>\nstream\n%s\nendstream", len(content), content))
	}
	return WritePDF("1.4", objs, 1)
}

// WritePDF writes a PDF file of the given object bodies, numbered from 1
// in order, with its cross-reference table and root as the catalog.
func WritePDF(version string, objs []string, root int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-" + version + "\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, root, xref)
	return b.Bytes()
}

// Letter is a portrait US Letter page.
func Letter(text string) Page { return Page{Width: 612, Height: 792, Text: text} }
