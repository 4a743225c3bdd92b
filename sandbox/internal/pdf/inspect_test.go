package pdf_test

import (
	"bytes"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

func TestInspectPages(t *testing.T) {
	pdfDoc := pdftest.MakePDF(
		pdftest.Letter("portrait"),
		pdftest.Page{Width: 842, Height: 595, Text: "landscape"},
		pdftest.Page{Width: 595, Height: 842, Rotate: 90, Text: "portrait paper shown landscape"},
		pdftest.Page{Text: "inherits the root's Letter media box"},
	)
	info, err := pdf.Inspect(pdfDoc)
	require.NoError(t, err)
	assert.Equal(t, []pdf.PageSize{{Width: 612, Height: 792}, {Width: 842, Height: 595}, {Width: 842, Height: 595}, {Width: 612, Height: 792}}, info.Pages)
	assert.False(t, info.Pages[0].Landscape())
	assert.True(t, info.Pages[2].Landscape())
}

func TestInspectSample(t *testing.T) {
	info, err := pdf.Inspect(pdftest.Sample(t, "pdf-sample.pdf"))
	require.NoError(t, err)
	assert.Equal(t, []pdf.PageSize{{Width: 595, Height: 842}}, info.Pages)
}

func encrypt(t *testing.T, pdfDoc []byte, userPW string) []byte {
	t.Helper()
	conf := model.NewDefaultConfiguration()
	conf.UserPW, conf.OwnerPW = userPW, "owner-secret"
	var out bytes.Buffer
	require.NoError(t, api.Encrypt(bytes.NewReader(pdfDoc), &out, conf))
	return out.Bytes()
}

const zeroPagePDF = "%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[]/Count 0>>\nendobj\n" +
	"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000056 00000 n \ntrailer\n<</Size 3/Root 1 0 R>>\nstartxref\n104\n%%EOF\n"

func TestInspectRefuses(t *testing.T) {
	good := pdftest.MakePDF(pdftest.Letter("one"), pdftest.Letter("two"))
	cases := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"empty", nil, pdf.ReasonEmpty},
		{"not a pdf", []byte("just some text"), pdf.ReasonNotPDF},
		{"header only", []byte("%PDF-1.7\n"), pdf.ReasonTruncated},
		{"cut in half", good[:len(good)/2], pdf.ReasonTruncated},
		{"cut before %%EOF", good[:len(good)-7], pdf.ReasonTruncated},
		{"zero pages", []byte(zeroPagePDF), pdf.ReasonNoPages},
		{"encrypted with a user password", encrypt(t, good, "user-secret"), pdf.ReasonEncrypted},
		{"encrypted with an owner password only", encrypt(t, good, ""), pdf.ReasonEncrypted},
		{"garbage after the header", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x y z obj << >> endobj\n"), 20)...), pdf.ReasonTruncated},
		{"page tree missing", bytes.Replace(good, []byte("/Pages 2 0 R"), []byte("/Pages 9 0 R"), 1), pdf.ReasonCorrupt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pdf.Inspect(tc.data)
			fe, ok := pdf.AsFileError(err)
			require.True(t, ok, "want a FileError, got %v", err)
			assert.Equal(t, tc.reason, fe.Reason, fe.Msg)
			assert.NotEmpty(t, fe.Msg)
		})
	}
}

func TestInspectRepairsBrokenXref(t *testing.T) {
	// Readers rebuild a damaged cross-reference table from the objects;
	// so does pdfcpu, and such a file is accepted.
	good := pdftest.MakePDF(pdftest.Letter("one"), pdftest.Letter("two"))
	info, err := pdf.Inspect(bytes.Replace(good, []byte("xref"), []byte("xrex"), 1))
	require.NoError(t, err)
	assert.Len(t, info.Pages, 2)
}

func TestInspectSampleTruncations(t *testing.T) {
	sample := pdftest.Sample(t, "pdf-sample.pdf")
	for n := 0; n < len(sample); n += 97 {
		_, err := pdf.Inspect(sample[:n])
		assert.Error(t, err, "sample cut at %d bytes", n)
	}
}

// FuzzInspect feeds the inspection arbitrary bytes: it must answer (a page
// list or a FileError) and never panic; what it accepts must compose into a
// PDF that it accepts again.
func FuzzInspect(f *testing.F) {
	for _, name := range pdftest.SampleNames {
		if s := pdftest.SampleIfPresent(name); s != nil {
			f.Add(s)
			f.Add(s[:len(s)/2])
		}
	}
	gen := pdftest.MakePDF(pdftest.Letter("a"), pdftest.Page{Width: 300, Height: 200, Rotate: 270})
	f.Add(gen)
	f.Add(gen[:len(gen)-20])
	f.Add([]byte(zeroPagePDF))
	f.Add([]byte("%PDF-1.4\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := pdf.Inspect(data)
		if err != nil {
			if _, ok := pdf.AsFileError(err); !ok {
				t.Fatalf("not a FileError: %v", err)
			}
			return
		}
		if len(info.Pages) == 0 {
			t.Fatal("accepted a PDF without pages")
		}
		for _, p := range info.Pages {
			if !(p.Width > 0 && p.Height > 0) {
				t.Fatalf("page size %v", p)
			}
		}
		out, err := pdf.Render(pdf.Composition{ID: "fuzz", Documents: []pdf.Source{{Name: "f.pdf", PDF: data}}, TestMode: true})
		if err != nil {
			t.Fatalf("accepted PDF does not compose: %v", err)
		}
		again, err := pdf.Inspect(out.PDF)
		if err != nil {
			t.Fatalf("composed PDF is refused: %v", err)
		}
		if len(again.Pages) != len(info.Pages) {
			t.Fatalf("composed %d pages from %d", len(again.Pages), len(info.Pages))
		}
	})
}

// A leaf of the page tree whose /Contents is a dictionary (here the catalog)
// used to be accepted and then copied into a composed PDF that the reader
// refuses; it is refused at upload instead. Found by FuzzInspect (kept as the
// seed issue17-composed-refused).
func TestInspectRefusesContentsThatAreNotStreams(t *testing.T) {
	data := []byte("%PDF-1.0\n1 0 obj <</Type/Catalog/Pages 2 0 R000endobj\n2 0 obj <</Kids[4 0 R06 0 R]/Count 2/Type//Contents 1 0 R00\nendobj\n7 0 obj000000000%%EOF ")
	_, err := pdf.Inspect(data)
	fe, ok := pdf.AsFileError(err)
	require.True(t, ok, "want a FileError, got %v", err)
	assert.Equal(t, pdf.ReasonCorrupt, fe.Reason)
	assert.Contains(t, fe.Msg, "not a content stream")
}
