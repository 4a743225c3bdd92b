package state

// What reading a document's own content found: text tags (use_text_tags)
// and the form fields a PDF already has (use_preexisting_fields). They are
// kept on the Document (TextTags, TextTagError, PDFFields) so that a world's
// export shows what the request or template was built from.

// SigErrorTextTag is the status_code of the signatures of a request whose
// documents hold invalid text tags ("file contained invalid text tags").
const SigErrorTextTag = "error_text_tag"

// DocumentTextTag is a text tag found in a document: its text as written
// and its box in the API's coordinates (points from the page's top-left
// corner).
type DocumentTextTag struct {
	Text   string `json:"text"`
	Page   int    `json:"page"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// DocumentPDFField is one widget of a form field the PDF already had.
type DocumentPDFField struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"` // text, checkbox, radio, signature, dropdown
	Page     int      `json:"page"`
	X        int      `json:"x"`
	Y        int      `json:"y"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Required bool     `json:"required,omitempty"`
	ReadOnly bool     `json:"read_only,omitempty"`
	Checked  bool     `json:"checked,omitempty"`
	Options  []string `json:"options,omitempty"`
	Value    string   `json:"value,omitempty"`
}
