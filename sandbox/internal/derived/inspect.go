package derived

import (
	"bytes"
	"crypto/sha256"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// inspectedEntries bounds the PDF inspections kept (each is a page list,
// not the file).
const inspectedEntries = 1024

var inspected = NewCache[[sha256.Size]byte, pdf.Info](inspectedEntries)

// Convert is pdf.Convert with the inspection of PDFs remembered by the
// SHA-256 of their bytes: a suite that uploads the same document on every
// send has it parsed once. Only what inspection found is kept, never the
// bytes: the answer's PDF is always the caller's data. Everything else
// (files not sniffed as PDF, files that fail) is converted afresh. The
// sniff is pdf.Convert's: "%PDF-" in the first KiB makes a PDF whatever
// the name or type, so the bytes alone decide the answer.
func Convert(name, contentType string, data []byte) (pdf.Converted, error) {
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		// Not sniffed as a PDF: pdf.Convert may go by name or type.
		return pdf.Convert(name, contentType, data)
	}
	sum := sha256.Sum256(data)
	if info, ok := inspected.Lookup(sum); ok {
		return pdf.Converted{PDF: data, Info: info, How: pdf.AsPDF}, nil
	}
	conv, err := pdf.Convert(name, contentType, data)
	if err == nil && conv.How == pdf.AsPDF {
		inspected.Get(sum, func([sha256.Size]byte) pdf.Info { return conv.Info })
	}
	return conv, err
}
