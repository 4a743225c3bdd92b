// Package pdf is the sandbox's PDF toolkit: inspecting uploaded PDFs (page
// count, size and orientation, within limits), turning other file types into
// PDF pages, reading AcroForm fields, and composing the downloadable PDF of
// a request or template (documents, signature page, stamps, test-mode
// marking, audit trail) and its ZIP form. Text extraction and text tags are
// its subpackage pdftext, which reads documents through Open, Objects and
// RewritePages. It holds no state: document takes files in, derived caches
// what this package derives.
package pdf

import "time"

// Composition describes the downloadable PDF of a request or template at one
// moment. The owner of the object (signature requests, templates) builds it;
// this package renders it.
type Composition struct {
	// ID is the signature request or template id, printed in page footers.
	ID    string
	Title string
	// CoverPage, when set, is drawn as the first page of the merged PDF
	// (fax cover sheets); it is always exactly one page.
	CoverPage *CoverPage
	// Documents are the object's documents as PDF, in order.
	Documents []Source
	// SignaturePage, when set, is the page appended for requests without
	// form_fields_per_document, where every signer signs.
	SignaturePage *SignaturePage
	// Stamps are values drawn where signers signed or filled fields.
	Stamps []Stamp
	// TestMode marks every page as a test document.
	TestMode bool
	// Audit, when not empty, adds an audit-trail page.
	Audit []AuditEntry
	// At is the world time the composition describes; it becomes the PDF's
	// creation date and the ZIP entries' modification time. The zero value
	// stands for the Unix epoch (never the wall clock).
	At time.Time
}

// Source is one document.
type Source struct {
	Name string
	PDF  []byte
}

// CoverPage is a fax cover sheet. Empty fields are left off the page.
type CoverPage struct {
	To, From, Message string
	// Recipient and Sender are the fax numbers or addresses.
	Recipient, Sender string
	// Pages is the page count printed on the sheet, the sheet included.
	Pages int
}

// SignaturePage lists the signers of the appended signature page.
type SignaturePage struct {
	Signers []SignerLine
}

// SignerLine is one signer on the signature page.
type SignerLine struct {
	Name  string
	Email string
	// SignedAt is nil until the signer has signed.
	SignedAt *time.Time
	// Status is the signature's status_code.
	Status string
	// Signature is what the signer signed with (a typed signature, or the
	// name a drawn or adopted one stands for); empty, the name is drawn.
	Signature string
}

// Stamp is text drawn on a page of a document (a signer's name in a
// signature field, a date, a field value). Coordinates are the API's: pixels
// from the top-left corner of the page at 72 dpi.
type Stamp struct {
	Document int // index into Documents
	Page     int // 1-based
	X, Y     float64
	Width    float64
	Height   float64
	Text     string
	// Kind picks the look: StampSignature and StampInitials are drawn in an
	// oblique blue "ink", StampCheckbox centres the text (an "X") in the
	// box, anything else ("" included) is plain black text.
	Kind string
}

// Stamp kinds (the API's form field types they stand for).
const (
	StampText      = "text"
	StampSignature = "signature"
	StampInitials  = "initials"
	StampCheckbox  = "checkbox"
	StampDate      = "date_signed"
)

// AuditEntry is one line of the audit trail.
type AuditEntry struct {
	Time   time.Time
	Actor  string
	Action string
	Detail string
}
