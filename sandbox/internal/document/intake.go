package document

// This file is the contract between the objects that have documents
// (signature requests, templates, faxes) and the documents subsystem:
// Collect reads and converts a create call's files before the
// write transaction, Store keeps them in the world, and
// Registry.FileOwners, ScheduleFiles and GoneFiles (prepare.go) drive
// the downloads.
//
// Which failures answer at once and which later: what the call itself shows
// to be wrong answers 400 naming the field (both or neither of files and
// file_urls, an entry that is not an absolute http(s) URL, an empty upload,
// an upload over the world's MaxFileBytes, files that would exceed the
// world's MaxWorldBytes). What the real service only finds out while
// processing (a URL that cannot be fetched, a fetched file over the limit,
// a file it cannot read or convert: corrupt, truncated, encrypted, no pages,
// unsupported type) is recorded on the document (Document.Error); the
// request then ends in error_file / file_error, a template in
// template_error.

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/derived"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Kinds of objects that own documents.
const (
	KindSignatureRequest = model.FileSetKindRequest
	KindTemplate         = "template"
)

// Pending is a document read and inspected before the transaction
// that stores it (network fetches and PDF parsing never run inside a write).
type Pending struct {
	Doc  model.Document
	Data []byte // original bytes (nil for an offline placeholder)
	PDF  []byte // the document as PDF (nil when doc.Error is set)
	// Converted is true when pdf is not data itself (a conversion or a
	// placeholder), so it is stored as a blob of its own.
	Converted bool
	// Field is the request parameter the document came in (files[0],
	// file_urls[1]), for error paths.
	Field string
}

// Collect reads the documents of a create call: uploads (files[N],
// and file[N] from older clients, which the decoder also gives as files) or
// file_urls, never both. Uploads are converted here; file_urls are fetched
// (or replaced by a placeholder when the world does not fetch) and then
// converted. It answers 400s for what the call shows to be wrong; a file
// that fails later comes back with Document.Error set.
func Collect(s *api.Host, c *api.Call, uploads []wire.File, fileURLs []string) ([]Pending, error) {
	if len(uploads) > 0 && len(fileURLs) > 0 {
		return nil, apierr.Badf("file_urls", "Use either files or file_urls, not both.")
	}
	if len(uploads) == 0 && len(fileURLs) == 0 {
		return nil, apierr.Badf("files", "Missing required parameter: files or file_urls.")
	}
	cfg := c.Config()
	out := make([]Pending, 0, len(uploads)+len(fileURLs))
	for i, f := range uploads {
		field := f.Field
		if field == "" {
			field = fmt.Sprintf("files[%d]", i)
		}
		name := f.Name
		if name == "" {
			name = fmt.Sprintf("document-%d", i+1)
		}
		if len(f.Data) == 0 {
			return nil, apierr.Badf(field, "The file %q is empty.", name)
		}
		if cfg.MaxFileBytes > 0 && int64(len(f.Data)) > cfg.MaxFileBytes {
			return nil, apierr.Badf(field, "The file %q is %d bytes, over the limit of %d bytes per file.", name, len(f.Data), cfg.MaxFileBytes)
		}
		d := convertDocument(name, f.ContentType, f.Data)
		d.Field = field
		out = append(out, d)
	}
	if len(fileURLs) == 0 {
		return out, nil
	}
	for i, u := range fileURLs {
		if err := CheckURL(u); err != nil {
			return nil, apierr.Badf(fmt.Sprintf("file_urls[%d]", i), "%s", err.Error())
		}
	}
	if !cfg.FetchFileURLs {
		for i, u := range fileURLs {
			conv := derived.OfflinePlaceholder(u)
			out = append(out, Pending{
				Doc:       model.Document{Name: urlFileName(u), ContentType: "application/pdf", SourceURL: u, Pages: statePages(conv.Info)},
				PDF:       conv.PDF,
				Converted: true,
				Field:     fmt.Sprintf("file_urls[%d]", i),
			})
		}
		return out, nil
	}
	for i, f := range fetchAll(s, c.Request.Context(), c.World.Logger(), fileURLs, cfg.MaxFileBytes) {
		var d Pending
		if f.err != "" {
			d = Pending{Doc: model.Document{Name: f.name, ContentType: f.contentType, Error: f.err}}
		} else {
			d = convertDocument(f.name, f.contentType, f.data)
		}
		d.Doc.SourceURL = fileURLs[i]
		d.Field = fmt.Sprintf("file_urls[%d]", i)
		out = append(out, d)
	}
	return out, nil
}

// convertDocument turns one file into a pending document: its PDF and page
// sizes, or the reason it cannot be used.
func convertDocument(name, contentType string, data []byte) Pending {
	d := Pending{Doc: model.Document{Name: name, ContentType: contentType}, Data: data}
	conv, err := derived.Convert(name, contentType, data)
	if err != nil {
		d.Doc.Error = err.Error()
		return d
	}
	d.PDF = conv.PDF
	d.Converted = conv.How != pdf.AsPDF
	d.Doc.Pages = statePages(conv.Info)
	return d
}

func statePages(info pdf.Info) []model.Page {
	out := make([]model.Page, len(info.Pages))
	for i, p := range info.Pages {
		out[i] = model.Page{Width: p.Width, Height: p.Height}
	}
	return out
}

// CheckURL accepts absolute http and https URLs with a host.
func CheckURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("%q is not a valid URL: give an absolute http or https URL", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q is not an http or https URL", raw)
	}
	return nil
}

// Store writes collected documents into the world and returns them
// as stored, enforcing the world's storage cap (MaxWorldBytes).
func Store(tx *state.Txn, docs []Pending) ([]model.Document, error) {
	if err := checkWorldCapacity(tx, docs); err != nil {
		return nil, err
	}
	out := make([]model.Document, 0, len(docs))
	for _, d := range docs {
		doc := d.Doc
		if single := singleBlob(d); single != nil {
			// One blob serves as both forms: identical uploads share it.
			id, upload, err := state.PutUpload(tx, single)
			if err != nil {
				return nil, err
			}
			if d.Data != nil {
				doc.BlobID = id
			}
			doc.PDFBlobID, doc.Upload = id, upload
			out = append(out, doc)
			continue
		}
		if d.Data != nil {
			id, err := state.PutBlob(tx, d.Data)
			if err != nil {
				return nil, err
			}
			doc.BlobID = id
		}
		switch {
		case d.PDF == nil:
		case d.Converted || doc.BlobID == "":
			id, err := state.PutBlob(tx, d.PDF)
			if err != nil {
				return nil, err
			}
			doc.PDFBlobID = id
		default:
			doc.PDFBlobID = doc.BlobID
		}
		out = append(out, doc)
	}
	return out, nil
}

// singleBlob is the bytes of a document that is stored as one blob (a PDF
// upload, or a PDF with no original such as an offline placeholder), nil
// for the others (a conversion keeps its original and its PDF apart, a
// file that failed has no PDF). A document keeps one upload number, so
// only such documents share rows with identical uploads.
func singleBlob(d Pending) []byte {
	switch {
	case d.PDF == nil:
		return nil
	case d.Data == nil:
		return d.PDF
	case !d.Converted:
		return d.Data
	}
	return nil
}

// checkWorldCapacity refuses documents that would take the world's stored
// file bytes over MaxWorldBytes, or the server's over its budget
// (WithMaxStoredBytes). Both refusals name the parameter and the limit.
func checkWorldCapacity(tx *state.Txn, docs []Pending) error {
	if len(docs) == 0 {
		return nil
	}
	var add int64
	for _, d := range docs {
		add += int64(len(d.Data))
		if d.Converted {
			add += int64(len(d.PDF))
		}
	}
	if limit := state.GetConfig(tx).MaxWorldBytes; limit > 0 {
		used, err := state.StoredBytes(tx)
		if err != nil {
			return err
		}
		if used+add > limit {
			return apierr.Badf(capacityField(docs), "These files (%d bytes) would take this world's stored files to %d bytes, over its limit of %d bytes (world configuration max_world_bytes).",
				add, used+add, limit)
		}
	}
	// add bounds what the files can add; only when even that would not fit
	// are the files hashed to learn which bytes the world already holds (the
	// store hashes them once more when it keeps them).
	if b := state.ServerBudget(tx); b != nil && !b.Fits(add) {
		var datas [][]byte
		for _, d := range docs {
			datas = append(datas, d.Data)
			if d.Converted {
				datas = append(datas, d.PDF)
			}
		}
		fresh, err := state.NewContentBytes(tx, datas...)
		if err != nil {
			return err
		}
		if !b.Fits(fresh) {
			return apierr.Badf(capacityField(docs), "These files (%d new bytes) would take the server's stored files to %d bytes, over its limit of %d bytes (--max-stored-bytes).",
				fresh, b.Used()+fresh, b.Limit())
		}
	}
	return nil
}

// capacityField names the parameter whose files a capacity check refuses.
func capacityField(docs []Pending) string {
	if strings.HasPrefix(docs[0].Field, "file_urls") {
		return "file_urls"
	}
	return "files"
}
