package pdf

// The few pdfcpu operations the sandbox uses, called on pdfcpu's lower
// packages (pdfcpu, validate, model) rather than through its pkg/api.
// pkg/api also links pdfcpu's form filling, whose go-runewidth dependency
// fills a 2.2 MB table at program start (about 20 ms and 2 MB of idle RSS
// in the binary); the sandbox fills no forms. Each function does what the
// pkg/api function named in its comment does for the sandbox's arguments.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/fault"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/validate"
)

// noConfigDir tells pdfcpu, once, before its first configuration is made,
// not to create and read a configuration directory under the user's home:
// the sandbox needs neither user fonts nor settings (api.DisableConfigDir).
// model.ConfigPath is pdfcpu's own process-wide setting.
var noConfigDir sync.Once

// disableConfigDir runs noConfigDir; pdfConfig calls it.
func disableConfigDir() {
	noConfigDir.Do(func() { model.ConfigPath = "disable" })
}

// readContext parses a PDF (api.ReadContext): pdfcpu's internal panics
// come back as errors.
func readContext(rs io.ReadSeeker, conf *model.Configuration) (ctx *model.Context, err error) {
	defer fault.Catch(&err)
	return pdfcpu.Read(rs, conf)
}

// validateContext runs pdfcpu's validation of a parsed PDF
// (api.ValidateContext).
func validateContext(ctx *model.Context) error {
	if ctx == nil || ctx.XRefTable == nil {
		return errors.New("pdfcpu: no document to validate")
	}
	return validate.XRefTable(ctx)
}

// imagePDF writes a new PDF with the image on its pages as imp places it
// (api.ImportImages into a new document).
func imagePDF(img io.Reader, imp *pdfcpu.Import, conf *model.Configuration) (out []byte, err error) {
	defer fault.Catch(&err)
	conf.Cmd = model.IMPORTIMAGES
	ctx, err := pdfcpu.CreateContextWithXRefTable(conf, imp.PageDim)
	if err != nil {
		return nil, err
	}
	pagesRef, err := ctx.Pages()
	if err != nil {
		return nil, err
	}
	if pagesRef == nil {
		return nil, errors.New("pdfcpu: new document without a page tree")
	}
	pagesDict, err := ctx.DereferenceDict(*pagesRef)
	if err != nil {
		return nil, err
	}
	if pagesDict == nil {
		return nil, errors.New("pdfcpu: new document without a page tree")
	}
	refs, err := pdfcpu.NewPagesForImage(ctx.XRefTable, img, pagesRef, imp)
	if err != nil {
		return nil, err
	}
	for _, ref := range refs {
		if ref == nil {
			return nil, errors.New("pdfcpu: image page without a reference")
		}
		if err := ctx.SetValid(*ref); err != nil {
			return nil, err
		}
		if err := model.AppendPageTree(ref, 1, pagesDict); err != nil {
			return nil, err
		}
		ctx.PageCount++
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	ctx.Write.Writer = w
	if err := pdfcpu.WriteContext(ctx); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// importSettings parses pdfcpu's image placement description
// (api.Import).
func importSettings(s string, u types.DisplayUnit) (*pdfcpu.Import, error) {
	return pdfcpu.ParseImportDetails(s, u)
}
