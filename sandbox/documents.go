package sandbox

// This file is the contract between the objects that have documents
// (signature requests, templates) and the documents subsystem. The Documents
// work (issue 3) owns it and replaces the provisional bodies below.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/files"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Kinds of objects that own documents.
const (
	kindSignatureRequest = "signature_request"
	kindTemplate         = "template"
)

// pendingDocument is a document read and inspected before the transaction
// that stores it (network fetches and PDF parsing never run inside a write).
type pendingDocument struct {
	doc  state.Document
	data []byte // original bytes
	pdf  []byte // the document as PDF (nil when doc.Error is set)
}

// collectDocuments reads the documents of a create call: uploads (files[N],
// file[N]) or file_urls, never both. It answers 400s for what the real API
// refuses synchronously; files that fail later (unreachable URL, unreadable
// PDF) come back with Document.Error set, and the request ends in
// error_file / file_error when processed.
func (s *Sandbox) collectDocuments(c *call, uploads []wire.File, fileURLs []string) ([]pendingDocument, error) {
	if len(uploads) > 0 && len(fileURLs) > 0 {
		return nil, apierr.Badf("file_urls", "Use either files or file_urls, not both.")
	}
	if len(uploads) == 0 && len(fileURLs) == 0 {
		return nil, apierr.Badf("files", "Missing required parameter: files or file_urls.")
	}
	var out []pendingDocument
	for _, f := range uploads {
		out = append(out, pendingDocument{doc: state.Document{Name: f.Name, ContentType: f.ContentType, Pages: []state.Page{{Width: 612, Height: 792}}}, data: f.Data, pdf: f.Data})
	}
	for _, u := range fileURLs {
		out = append(out, pendingDocument{doc: state.Document{Name: u, SourceURL: u, Pages: []state.Page{{Width: 612, Height: 792}}}})
	}
	return out, nil
}

// storeDocuments writes collected documents into the world and returns them
// as stored, enforcing the world's size cap.
func storeDocuments(tx *state.Txn, docs []pendingDocument) ([]state.Document, error) {
	out := make([]state.Document, 0, len(docs))
	for _, d := range docs {
		doc := d.doc
		if d.data != nil {
			id, err := state.PutBlob(tx, d.data)
			if err != nil {
				return nil, err
			}
			doc.BlobID, doc.PDFBlobID = id, id
		}
		out = append(out, doc)
	}
	return out, nil
}

// fileOwner is how the documents subsystem reaches the objects that own
// files.
type fileOwner struct {
	// visible returns nil when the caller may download the object's files,
	// else the API error (404 not_found, 410 deleted).
	visible func(c *call, tx *state.Txn, id string) error
	// compose describes the object's downloadable PDF as of now.
	compose func(tx *state.Txn, id string) (files.Composition, error)
}

// fileOwners maps an object kind to its owner hooks; signature requests and
// templates register themselves.
var fileOwners = map[string]fileOwner{}

// scheduleFiles (re)prepares the downloadable files of an object after the
// world's file preparation delay; until then downloads answer 409.
func scheduleFiles(tx *state.Txn, kind, id string) error { return nil }

// goneFiles makes the object's downloads answer 410 (canceled requests).
func goneFiles(tx *state.Txn, kind, id string) error { return nil }
