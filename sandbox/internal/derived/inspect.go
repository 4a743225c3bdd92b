package derived

import (
	"bytes"
	"crypto/sha256"

	"github.com/signsandbox/signsandbox/sandbox/internal/files"
)

// inspectedEntries bounds the PDF inspections kept (each is a page list,
// not the file).
const inspectedEntries = 1024

var inspected = NewCache[[sha256.Size]byte, files.Info](inspectedEntries)

// Convert is files.Convert with the inspection of PDFs remembered by the
// SHA-256 of their bytes: a suite that uploads the same document on every
// send has it parsed once. Only what inspection found is kept, never the
// bytes: the answer's PDF is always the caller's data. Everything else
// (files not sniffed as PDF, files that fail) is converted afresh. The
// sniff is files.Convert's: "%PDF-" in the first KiB makes a PDF whatever
// the name or type, so the bytes alone decide the answer.
func Convert(name, contentType string, data []byte) (files.Converted, error) {
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		// Not sniffed as a PDF: files.Convert may go by name or type.
		return files.Convert(name, contentType, data)
	}
	sum := sha256.Sum256(data)
	if info, ok := inspected.Lookup(sum); ok {
		return files.Converted{PDF: data, Info: info, How: files.AsPDF}, nil
	}
	conv, err := files.Convert(name, contentType, data)
	if err == nil && conv.How == files.AsPDF {
		inspected.Get(sum, func([sha256.Size]byte) files.Info { return conv.Info })
	}
	return conv, err
}
