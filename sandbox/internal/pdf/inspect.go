package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// pdfConfig is a fresh pdfcpu configuration: relaxed validation (real-world
// PDFs bend the specification in ways every reader accepts), no password.
func pdfConfig() *model.Configuration {
	disableConfigDir()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Cmd = model.VALIDATE
	return conf
}

// PageSize is a page as a reader displays it, in points (1/72 inch): the
// visible area, turned by the page's rotation.
type PageSize struct {
	Width  float64
	Height float64
}

// Landscape reports whether the page is wider than tall.
func (p PageSize) Landscape() bool { return p.Width > p.Height }

// Info is what inspecting a PDF found.
type Info struct {
	Pages []PageSize
}

// Reasons a file is refused.
const (
	ReasonEmpty       = "empty"
	ReasonNotPDF      = "not_pdf"
	ReasonCorrupt     = "corrupt"
	ReasonTruncated   = "truncated"
	ReasonEncrypted   = "encrypted"
	ReasonNoPages     = "no_pages"
	ReasonUnsupported = "unsupported_type"
	ReasonUnreadable  = "unreadable"
	ReasonTooLarge    = "too_large"
)

// FileError says why a file cannot be used, in words fit for an API client.
type FileError struct {
	Reason string
	Msg    string
}

func (e *FileError) Error() string { return e.Msg }

func fileErr(reason, format string, args ...any) *FileError {
	return &FileError{Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// AsFileError finds a *FileError in err's chain.
func AsFileError(err error) (*FileError, bool) {
	var fe *FileError
	ok := errors.As(err, &fe)
	return fe, ok
}

// Inspect reads a PDF and returns its pages, or a *FileError saying why it
// is refused: empty, not a PDF, truncated, corrupt, encrypted, or without
// pages. It never panics, whatever the bytes.
func Inspect(data []byte) (Info, error) {
	_, pages, err := openPDF(data, true)
	if err != nil {
		return Info{}, err
	}
	info := Info{Pages: make([]PageSize, len(pages))}
	for i, p := range pages {
		info.Pages[i] = p.geometry().size()
	}
	return info, nil
}

// openPDF parses a PDF and walks its pages. validate runs pdfcpu's
// (relaxed) validation too, which uploads get; documents already inspected
// skip it when composed.
func openPDF(data []byte, validate bool) (ctx *model.Context, pages []Page, err error) {
	if len(data) == 0 {
		return nil, nil, fileErr(ReasonEmpty, "The file is empty.")
	}
	head := data[:min(len(data), 1024)]
	if !bytes.Contains(head, []byte("%PDF-")) {
		return nil, nil, fileErr(ReasonNotPDF, "The file is not a PDF (it does not start with a PDF header).")
	}
	if !hasEOFMarker(data) {
		return nil, nil, truncatedErr()
	}
	if err := checkObjectStreamPrologs(data); err != nil {
		return nil, nil, err
	}
	defer func() {
		// pdfcpu answers some malformed input with a panic; no input may
		// take the sandbox down.
		if r := recover(); r != nil {
			ctx, pages, err = nil, nil, classify(data, fmt.Errorf("pdf reader: %v", r))
		}
	}()
	conf := pdfConfig()
	limitReading(conf, int64(len(data)))
	ctx, err = readContext(bytes.NewReader(data), conf)
	if err != nil {
		return nil, nil, classify(data, err)
	}
	if ctx.Encrypt != nil {
		return nil, nil, encryptedErr()
	}
	if err := decodeObjectStreams(ctx); err != nil {
		return nil, nil, err
	}
	// The pages are walked before validation: pdfcpu's relaxed validation
	// repairs some damage in memory (it makes up missing pages), and a
	// document must read the same way when it is composed later, unvalidated.
	pages, err = pagesOf(ctx)
	if err != nil {
		return nil, nil, classify(data, err)
	}
	if len(pages) == 0 {
		return nil, nil, fileErr(ReasonNoPages, "The PDF has no pages.")
	}
	if validate {
		if err := validateContext(ctx); err != nil {
			return nil, nil, classify(data, err)
		}
	}
	return ctx, pages, nil
}

func truncatedErr() *FileError {
	return fileErr(ReasonTruncated, "The PDF is truncated (it ends before the end of the document); upload the complete file.")
}

func encryptedErr() *FileError {
	return fileErr(ReasonEncrypted, "The PDF is encrypted or password-protected; remove the protection and upload it again.")
}

// classify turns a reader error into the reason a client can act on.
func classify(data []byte, err error) *FileError {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "password") || strings.Contains(msg, "encrypt") || bytes.Contains(data, []byte("/Encrypt")):
		return encryptedErr()
	case strings.Contains(msg, "eof"):
		return truncatedErr()
	default:
		return fileErr(ReasonCorrupt, "The PDF is damaged and cannot be read (%s).", shorten(err.Error(), 160))
	}
}

// hasEOFMarker reports whether the file ends with %%EOF (allowing trailing
// whitespace), as a complete PDF does. A file without it is refused as
// truncated even when a reader could rebuild parts of it: what is missing
// cannot be known.
func hasEOFMarker(data []byte) bool {
	tail := bytes.TrimRight(data[max(0, len(data)-2048):], " \t\r\n\x00")
	return bytes.HasSuffix(tail, []byte("%%EOF"))
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
