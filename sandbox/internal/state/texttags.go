package state

// What reading a document's own content found: text tags (use_text_tags)
// and the form fields a PDF already has (use_preexisting_fields). They are
// kept on the Document (TextTags, TextTagError, PDFFields) so that a world's
// export shows what the request or template was built from.

// SigErrorTextTag is the status_code of the signatures of a request whose
// documents hold invalid text tags ("file contained invalid text tags").
const SigErrorTextTag = "error_text_tag"
