package fields

// Fields that documents carry themselves, as signature requests, drafts
// and templates read them: text tags (use_text_tags, with hide_text_tags)
// and the form fields a PDF already has (use_preexisting_fields). The
// scan keeps what it found on each collected document; each area then
// turns the findings into its own fields.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftext"
)

// DocOptions says what to read from a create call's documents.
type DocOptions struct {
	TextTags  bool // use_text_tags
	Hide      bool // hide_text_tags (with use_text_tags)
	PDFFields bool // use_preexisting_fields
}

// ScanDocuments reads the text tags and PDF form fields of collected
// documents and keeps them on each document. With hide, a document whose
// tags were found is replaced by a copy without them (the original upload
// stays the document's original bytes). Documents that could not be read
// are left alone: they end in error_file before their tags matter.
func ScanDocuments(docs []document.Pending, o DocOptions) {
	for i := range docs {
		d := &docs[i]
		if d.PDF == nil || d.Doc.Error != "" {
			continue
		}
		if o.PDFFields {
			if fields, err := pdf.ReadFormFields(d.PDF); err == nil {
				for _, f := range fields {
					d.Doc.PDFFields = append(d.Doc.PDFFields, model.DocumentPDFField{Name: f.Name, Kind: f.Kind, Page: f.Page,
						X: f.X, Y: f.Y, Width: f.Width, Height: f.Height, Required: f.Required, ReadOnly: f.ReadOnly,
						Checked: f.Checked, Options: f.Options, Value: f.Value})
				}
			}
		}
		if o.TextTags {
			scan, err := pdftext.ScanTextTags(d.PDF, o.Hide)
			if err != nil {
				continue // read at inspection but not here: no tags found
			}
			for _, t := range scan.Tags {
				d.Doc.TextTags = append(d.Doc.TextTags, model.DocumentTextTag{Text: t.Text, Page: t.Page,
					X: t.X, Y: t.Y, Width: t.Width, Height: t.Height})
			}
			if scan.Hidden != nil {
				d.PDF, d.Converted = scan.Hidden, true
			}
		}
	}
}

// TagProblem words a malformed tag for the document's TextTagError (the
// request's error message and event_message).
func TagProblem(ft model.DocumentTextTag, msg string) string {
	return fmt.Sprintf("Invalid text tag %s on page %d: %s.", ft.Text, ft.Page, strings.TrimSuffix(msg, "."))
}

// TagField is a tag as the form field it stands for: placed where the
// tag is, labelled with its label, assigned to signer (an index or
// "sender").
func TagField(t pdftext.TextTag, ft model.DocumentTextTag, doc int, id, signer string) FormField {
	f := FormField{
		DocumentIndex: intPtr(doc), APIID: id, Name: t.Label, Type: t.FieldType,
		X: intPtr(ft.X), Y: intPtr(ft.Y), Width: intPtr(ft.Width), Height: intPtr(ft.Height), Page: intPtr(ft.Page),
		Required: &t.Required, Signer: &signer,
	}
	switch t.FieldType {
	case TypeText:
		f.ValidationType, f.AutoFillType = t.Validation, t.AutoFill
	case TypeCheckbox:
		off := false
		f.IsChecked = &off
	}
	return f
}

// TagIDs hands out the api_ids of tag fields: the tag's id when it has one
// (an id already used is an error), else a generated one that depends only
// on where the tag is (texttag_<document index>_<tag index in the
// document>, with a suffix when that is taken).
type TagIDs struct{ taken map[string]bool }

func NewTagIDs(taken map[string]bool) *TagIDs { return &TagIDs{taken: taken} }

func (t *TagIDs) Take(id string, doc, k int) (string, string) {
	if id != "" {
		if t.taken[id] {
			return "", fmt.Sprintf("the id %q is used by more than one field (ids must be unique across all documents)", id)
		}
		t.taken[id] = true
		return id, ""
	}
	base := fmt.Sprintf("texttag_%d_%d", doc, k)
	id = base
	for n := 2; t.taken[id]; n++ {
		id = base + "_" + strconv.Itoa(n)
	}
	t.taken[id] = true
	return id, ""
}

// intPtr is a pointer to a copy of v, for the optional ints of a field.
func intPtr(v int) *int { return &v }
