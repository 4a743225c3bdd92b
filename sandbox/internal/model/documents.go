package model

// Page is the size of one PDF page in points (1/72 inch).
type Page struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Document is one document of a signature request or template: the file as
// it arrived and what inspecting it found.
type Document struct {
	// Name is the file name (of the upload, or the last path segment of the
	// URL it was fetched from).
	Name        string `json:"name"`
	ContentType string `json:"content_type,omitempty"`
	// SourceURL is the file_urls entry it came from ("" for uploads).
	SourceURL string `json:"source_url,omitempty"`
	// BlobID holds the original bytes.
	BlobID string `json:"blob_id,omitempty"`
	// PDFBlobID holds the document as PDF (the original for PDFs, a
	// conversion for other types).
	PDFBlobID string `json:"pdf_blob_id,omitempty"`
	// Upload tells the uploads that share a blob row apart: 0 for the
	// upload that made the row, otherwise the number of the world's id
	// sequence the upload took (see blob_uploads.go).
	Upload uint64 `json:"upload,omitempty"`
	// Pages are the sizes of the PDF's pages.
	Pages []Page `json:"pages,omitempty"`
	// Error says why the file cannot be used (it could not be fetched,
	// converted or read); such a request ends in error_file / file_error.
	Error string `json:"error,omitempty"`
	// TextTags are the text tags found in the document (use_text_tags);
	// TextTagError says why they cannot be used: the request ends in
	// error_text_tag / signature_request_invalid, a template in
	// template_error. PDFFields are the form fields the PDF already had
	// (use_preexisting_fields). See sigreq/text_tags.go.
	TextTags     []DocumentTextTag  `json:"text_tags,omitempty"`
	TextTagError string             `json:"text_tag_error,omitempty"`
	PDFFields    []DocumentPDFField `json:"pdf_fields,omitempty"`
}

// PageCount is the number of pages.
func (d Document) PageCount() int { return len(d.Pages) }
