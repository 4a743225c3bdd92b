package derived

import "github.com/signsandbox/signsandbox/sandbox/internal/pdf"

// placeholderEntries bounds the offline placeholders kept: a suite sends
// the same few file_urls over and over.
const placeholderEntries = 256

var placeholders = NewCache[string, pdf.Converted](placeholderEntries)

// OfflinePlaceholder is pdf.OfflinePlaceholder remembered per URL: the
// placeholder is drawn and inspected once, not on every offline send
// (about half the cost of a JSON send). Callers must not modify the
// answer's bytes or slices; the stored blob shares them.
func OfflinePlaceholder(url string) pdf.Converted {
	return placeholders.Get(url, pdf.OfflinePlaceholder)
}
