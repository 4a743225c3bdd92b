package sandbox

// Fields that documents carry themselves: text tags (use_text_tags, with
// hide_text_tags) and the form fields a PDF already has
// (use_preexisting_fields). The create operations collect their documents
// outside any transaction; the hooks here then read those documents
// (files.ScanTextTags, files.ReadFormFields), keep what they found on each
// document, and add the fields to the request, draft or template as if they
// had been given in form_fields_per_document.
//
// A malformed tag is not a 400: the real service only reads the documents
// while processing, so the call succeeds and the request ends in
// error_text_tag with the signature_request_invalid event (the official
// event list gives "error in request data (e.g. bad text tags)" for it), a
// template in template_error. Malformed: what files.ParseTextTag refuses, a
// signerN beyond the request's signers (or a template's roles), an id used
// by two fields, and a field the form field checks would refuse.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/files"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
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
			if fields, err := files.ReadFormFields(d.PDF); err == nil {
				for _, f := range fields {
					d.Doc.PDFFields = append(d.Doc.PDFFields, state.DocumentPDFField{Name: f.Name, Kind: f.Kind, Page: f.Page,
						X: f.X, Y: f.Y, Width: f.Width, Height: f.Height, Required: f.Required, ReadOnly: f.ReadOnly,
						Checked: f.Checked, Options: f.Options, Value: f.Value})
				}
			}
		}
		if o.TextTags {
			scan, err := files.ScanTextTags(d.PDF, o.Hide)
			if err != nil {
				continue // read at inspection but not here: no tags found
			}
			for _, t := range scan.Tags {
				d.Doc.TextTags = append(d.Doc.TextTags, state.DocumentTextTag{Text: t.Text, Page: t.Page,
					X: t.X, Y: t.Y, Width: t.Width, Height: t.Height})
			}
			if scan.Hidden != nil {
				d.PDF, d.Converted = scan.Hidden, true
			}
		}
	}
}

// warnNonPDFTextTags gives the official non_pdf_text_tags warning when text
// tags are enabled for a document that is not a PDF (a converted text
// file, image or office document; the warning is decided from the file
// type, as the real service answers before it converts anything).
func warnNonPDFTextTags(c *api.Call, docs []document.Pending) {
	for _, d := range docs {
		if d.Doc.Error == "" && d.Converted && d.Data != nil {
			c.Warn("non_pdf_text_tags", "Text Tags were enabled for a file that is not a PDF ("+d.Doc.Name+"), which may result in imprecise positioning.")
			return
		}
	}
}

// addDocumentFields is the hook of the signature request create and edit
// operations and of unclaimed drafts: with use_text_tags or
// use_preexisting_fields it reads the collected documents and adds the
// fields they carry to the spec. Its signers must be set (drafts without
// signers set placeholders first).
func (spec *sigreqSpec) addDocumentFields(c *api.Call, docs []document.Pending, usePreexistingFields bool) {
	o := DocOptions{TextTags: spec.UseTextTags, Hide: spec.UseTextTags && spec.HideTextTags, PDFFields: usePreexistingFields}
	if !o.TextTags && !o.PDFFields {
		return
	}
	if o.TextTags {
		warnNonPDFTextTags(c, docs)
	}
	ScanDocuments(docs, o)
	slots := 0
	for _, sg := range spec.Signers {
		slots = max(slots, sg.Slot+1)
	}
	fc := fields.Limits{Slots: slots, Docs: len(docs)}
	for _, d := range docs {
		fc.Pages = append(fc.Pages, d.Doc.PageCount())
	}
	taken := map[string]bool{}
	for _, f := range spec.FormFields {
		taken[f.APIID] = true
	}
	var added []state.FormField
	if o.PDFFields {
		fields, groups := requestPDFFields(docs, fc, taken)
		added = append(added, fields...)
		spec.FieldGroups = append(spec.FieldGroups, groups...)
	}
	if o.TextTags {
		stored := make([]*state.Document, len(docs))
		for i := range docs {
			stored[i] = &docs[i].Doc
		}
		added = append(added, requestTagFields(stored, 0, fc, taken, false)...)
	}
	spec.FormFields = append(spec.FormFields, added...)
	fields.BindCustomFieldTypes(spec.CustomFields, added)
}

// requestTagFields turns the text tags of documents (the request's
// documents from index first on) into request fields. A malformed tag is
// recorded on its document (TextTagError) and then no tag becomes a field:
// the request fails processing. skipOtherSigners ignores tags for signers
// the request does not have instead of refusing them.
func requestTagFields(docs []*state.Document, first int, fc fields.Limits, taken map[string]bool, skipOtherSigners bool) []state.FormField {
	var out []state.FormField
	failed := false
	ids := NewTagIDs(taken)
	for n, d := range docs {
		i := first + n
		for k, ft := range d.TextTags {
			if d.TextTagError != "" {
				break
			}
			t, err := files.ParseTextTag(ft.Text)
			if err != nil {
				d.TextTagError = TagProblem(ft, strings.TrimPrefix(err.Error(), "invalid text tag "+ft.Text+": "))
				continue
			}
			if t.Signer > fc.Slots {
				if skipOtherSigners {
					continue
				}
				d.TextTagError = TagProblem(ft, fmt.Sprintf("signer%d is not a signer of this request (it has %d)", t.Signer, fc.Slots))
				continue
			}
			id, msg := ids.Take(t.ID, i, k)
			if msg != "" {
				d.TextTagError = TagProblem(ft, msg)
				continue
			}
			signer := fields.SignerSender
			if t.Signer > 0 {
				signer = strconv.Itoa(t.Signer - 1)
			}
			pf := fields.Parsed{Path: "text tag " + ft.Text, Doc: i, Field: TagField(t, ft, i, id, signer)}
			checked, e := fields.Check([]fields.Parsed{pf}, fc)
			if e != nil {
				d.TextTagError = TagProblem(ft, strings.TrimPrefix(e.Msg, pf.Path+" "))
				continue
			}
			out = append(out, checked...)
		}
		failed = failed || d.TextTagError != ""
	}
	if failed {
		return nil
	}
	return out
}

// scanAppendedFiles is the hook of unclaimed_draft/create_embedded_with_template
// before its transaction: the files given with the templates are parsed for
// text tags (the official description says so; the operation has no
// use_text_tags).
func scanAppendedFiles(docs []document.Pending) {
	ScanDocuments(docs, DocOptions{TextTags: true})
}

// addAppendedTagFields is its hook once the templates are bound: the text
// tags of the last appended documents (after the templates' own) become
// fields of the signers in the templates' role order; tags for signers the
// templates do not have are ignored, as the official description says.
func (spec *sigreqSpec) addAppendedTagFields(appended int) {
	first := len(spec.Documents) - appended
	if appended <= 0 || first < 0 {
		return
	}
	fc := fields.Limits{Slots: len(spec.Signers), Docs: len(spec.Documents)}
	for _, sg := range spec.Signers {
		fc.Slots = max(fc.Slots, sg.Slot+1)
	}
	for _, d := range spec.Documents {
		fc.Pages = append(fc.Pages, d.PageCount())
	}
	taken := map[string]bool{}
	for _, f := range spec.FormFields {
		taken[f.APIID] = true
	}
	docs := make([]*state.Document, appended)
	for i := range docs {
		docs[i] = &spec.Documents[first+i]
	}
	formFields := requestTagFields(docs, first, fc, taken, true)
	spec.FormFields = append(spec.FormFields, formFields...)
	fields.BindCustomFieldTypes(spec.CustomFields, formFields)
}

// TagProblem words a malformed tag for the document's TextTagError (the
// request's error message and event_message).
func TagProblem(ft state.DocumentTextTag, msg string) string {
	return fmt.Sprintf("Invalid text tag %s on page %d: %s.", ft.Text, ft.Page, strings.TrimSuffix(msg, "."))
}

// TagField is a tag as the form field it stands for: placed where the
// tag is, labelled with its label, assigned to signer (an index or
// "sender").
func TagField(t files.TextTag, ft state.DocumentTextTag, doc int, id, signer string) fields.FormField {
	f := fields.FormField{
		DocumentIndex: intPtr(doc), APIID: id, Name: t.Label, Type: t.FieldType,
		X: intPtr(ft.X), Y: intPtr(ft.Y), Width: intPtr(ft.Width), Height: intPtr(ft.Height), Page: intPtr(ft.Page),
		Required: &t.Required, Signer: &signer,
	}
	switch t.FieldType {
	case fields.TypeText:
		f.ValidationType, f.AutoFillType = t.Validation, t.AutoFill
	case fields.TypeCheckbox:
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

// documentsTextTagProblem is the first text tag problem of a set of
// documents ("" when none), naming the document.
func documentsTextTagProblem(docs []state.Document) string {
	for i, d := range docs {
		if d.TextTagError != "" {
			return fmt.Sprintf("Document %d (%s): %s", i, d.Name, d.TextTagError)
		}
	}
	return ""
}

// tTextTagError ends the processing of a request whose documents hold
// invalid text tags: every signature in error_text_tag and the
// signature_request_invalid event. It answers nil (tProcess decides) when
// the request is not processing, when a failure was injected (fail), when a
// document cannot be read at all (that is error_file), or when the tags are
// fine.
func tTextTagError(req *state.SignatureRequest, fail string, now int64) *outcome {
	if req.Phase != state.PhaseProcessing || fail != "" {
		return nil
	}
	for _, d := range req.Documents {
		if d.Error != "" {
			return nil
		}
	}
	msg := documentsTextTagProblem(req.Documents)
	if msg == "" {
		return nil
	}
	return tFail(req, processFailure{StatusCode: state.SigErrorTextTag, Message: msg}, now) // sigreq_failures.go
}
