package pdf

import (
	"bytes"
	"go/parser"
	"go/token"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// pdfcpuTestPDFs are the documents the calls are compared on: generated
// ones, damaged ones, the fuzz seeds of FuzzInspect and the reference
// samples when present.
func pdfcpuTestPDFs(t *testing.T) map[string][]byte {
	docs := map[string][]byte{
		"letter":    pdftest.MakePDF(pdftest.Letter("a")),
		"two pages": pdftest.MakePDF(pdftest.Letter("a"), pdftest.Page{Width: 842, Height: 595, Text: "b"}),
		"no pages":  pdftest.WritePDF("1.4", []string{"<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[]/Count 0>>"}, 1),
		"garbage":   []byte("%PDF-1.4\nnot really\n%%EOF\n"),
	}
	full := docs["letter"]
	docs["cut"] = full[:len(full)/2]
	docs["flipped byte"] = append(bytes.Clone(full[:len(full)/3]), append([]byte{'#'}, full[len(full)/3+1:]...)...)
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzInspect", "*"))
	for _, p := range seeds {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if lit, ok := strings.CutPrefix(line, "[]byte("); ok {
				data, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				docs["seed "+filepath.Base(p)] = []byte(data)
			}
		}
	}
	for _, name := range pdftest.SampleNames {
		if data := pdftest.SampleIfPresent(name); data != nil {
			docs[name] = data
		}
	}
	return docs
}

// TestPDFReadingAnswersAsPkgAPI: reading and validating a PDF through
// pdfcpu's lower packages gives what pkg/api gave: the same errors, the
// same pages.
func TestPDFReadingAnswersAsPkgAPI(t *testing.T) {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for name, data := range pdfcpuTestPDFs(t) {
		t.Run(name, func(t *testing.T) {
			conf := pdfConfig()
			limitReading(conf, int64(len(data)))
			ours, errOurs := safely(func() (any, error) { return readContext(bytes.NewReader(data), conf) })
			conf = pdfConfig()
			limitReading(conf, int64(len(data)))
			theirs, errTheirs := safely(func() (any, error) { return api.ReadContext(bytes.NewReader(data), conf) })
			if errText(errOurs) != errText(errTheirs) {
				t.Fatalf("read: %v, pkg/api: %v", errOurs, errTheirs)
			}
			if errOurs != nil {
				return
			}
			a, b := ours.(*model.Context), theirs.(*model.Context)
			if a.PageCount != b.PageCount {
				t.Fatalf("pages %d, pkg/api %d", a.PageCount, b.PageCount)
			}
			_, errOurs = safely(func() (any, error) { return nil, validateContext(a) })
			_, errTheirs = safely(func() (any, error) { return nil, api.ValidateContext(b) })
			if errText(errOurs) != errText(errTheirs) {
				t.Fatalf("validate: %v, pkg/api: %v", errOurs, errTheirs)
			}
		})
	}
}

// TestImagePDFAsPkgAPI: an image becomes the same document as through
// api.ImportImages (compared after the sandbox's rewrite, which drops the
// wall-clock dates pdfcpu writes), and a broken image fails both ways.
func TestImagePDFAsPkgAPI(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 41))
	for y := 0; y < 41; y++ {
		for x := 0; x < 300; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y * 6), 90, 255})
		}
	}
	var pngData, jpegData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpegData, img, nil); err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{
		"png": pngData.Bytes(), "jpeg": jpegData.Bytes(),
		"broken png": pngData.Bytes()[:60], "not an image": []byte("hello"),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			imp, err := importSettings("form:Letter, pos:c, scale:0.9 rel", types.POINTS)
			if err != nil {
				t.Fatal(err)
			}
			ours, errOurs := imagePDF(bytes.NewReader(data), imp, pdfConfig())
			impAPI, err := api.Import("form:Letter, pos:c, scale:0.9 rel", types.POINTS)
			if err != nil {
				t.Fatal(err)
			}
			var theirs bytes.Buffer
			errTheirs := api.ImportImages(nil, &theirs, []io.Reader{bytes.NewReader(data)}, impAPI, pdfConfig())
			if (errOurs == nil) != (errTheirs == nil) {
				t.Fatalf("imagePDF: %v, pkg/api: %v", errOurs, errTheirs)
			}
			if errOurs != nil {
				return
			}
			a, err := rewrite(ours, "scan.png")
			if err != nil {
				t.Fatal(err)
			}
			b, err := rewrite(theirs.Bytes(), "scan.png")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("documents differ: %d and %d bytes", len(a), len(b))
			}
		})
	}
}

// safely turns a panic into an error, as openPDF does.
func safely(fn func() (any, error)) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError{r}
		}
	}()
	return fn()
}

type panicError struct{ v any }

func (p panicError) Error() string { return "panic" }

// TestNoPdfcpuAPIInTheBinary: the package's non-test code stays off
// pdfcpu's pkg/api, which would link go-runewidth and its start-up table
// back into the binary (see pdfcpu.go).
func TestNoPdfcpuAPIInTheBinary(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/pdfcpu/pdfcpu/pkg/api" || strings.Contains(path, "go-runewidth") {
				t.Errorf("%s imports %s", p, path)
			}
		}
	}
}
