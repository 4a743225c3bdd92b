package model

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
