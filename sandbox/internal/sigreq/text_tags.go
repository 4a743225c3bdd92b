package sigreq

// Fields that documents carry themselves: text tags (use_text_tags, with
// hide_text_tags) and the form fields a PDF already has
// (use_preexisting_fields). The create operations collect their documents
// outside any transaction; the hooks here then read those documents
// (pdftext.ScanTextTags, pdf.ReadFormFields), keep what they found on each
// document, and add the fields to the request, draft or template as if they
// had been given in form_fields_per_document.
//
// A malformed tag is not a 400: the real service only reads the documents
// while processing, so the call succeeds and the request ends in
// error_text_tag with the signature_request_invalid event (the official
// event list gives "error in request data (e.g. bad text tags)" for it), a
// template in template_error. Malformed: what pdftext.ParseTextTag refuses, a
// signerN beyond the request's signers (or a template's roles), an id used
// by two fields, and a field the form field checks would refuse.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftext"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

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
func (spec *Spec) addDocumentFields(c *api.Call, docs []document.Pending, usePreexistingFields bool) {
	o := fields.DocOptions{TextTags: spec.UseTextTags, Hide: spec.UseTextTags && spec.HideTextTags, PDFFields: usePreexistingFields}
	if !o.TextTags && !o.PDFFields {
		return
	}
	if o.TextTags {
		warnNonPDFTextTags(c, docs)
	}
	fields.ScanDocuments(docs, o)
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
	var added []model.FormField
	if o.PDFFields {
		fields, groups := requestPDFFields(docs, fc, taken)
		added = append(added, fields...)
		spec.FieldGroups = append(spec.FieldGroups, groups...)
	}
	if o.TextTags {
		stored := make([]*model.Document, len(docs))
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
func requestTagFields(docs []*model.Document, first int, fc fields.Limits, taken map[string]bool, skipOtherSigners bool) []model.FormField {
	var out []model.FormField
	failed := false
	ids := fields.NewTagIDs(taken)
	for n, d := range docs {
		i := first + n
		for k, ft := range d.TextTags {
			if d.TextTagError != "" {
				break
			}
			t, err := pdftext.ParseTextTag(ft.Text)
			if err != nil {
				d.TextTagError = fields.TagProblem(ft, strings.TrimPrefix(err.Error(), "invalid text tag "+ft.Text+": "))
				continue
			}
			if t.Signer > fc.Slots {
				if skipOtherSigners {
					continue
				}
				d.TextTagError = fields.TagProblem(ft, fmt.Sprintf("signer%d is not a signer of this request (it has %d)", t.Signer, fc.Slots))
				continue
			}
			id, msg := ids.Take(t.ID, i, k)
			if msg != "" {
				d.TextTagError = fields.TagProblem(ft, msg)
				continue
			}
			signer := fields.SignerSender
			if t.Signer > 0 {
				signer = strconv.Itoa(t.Signer - 1)
			}
			pf := fields.Parsed{Path: "text tag " + ft.Text, Doc: i, Field: fields.TagField(t, ft, i, id, signer)}
			checked, e := fields.Check([]fields.Parsed{pf}, fc)
			if e != nil {
				d.TextTagError = fields.TagProblem(ft, strings.TrimPrefix(e.Msg, pf.Path+" "))
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

// ScanAppendedFiles is the hook of unclaimed_draft/create_embedded_with_template
// before its transaction: the files given with the templates of tb are
// parsed for text tags (the official description says so; the operation has no
// use_text_tags).
func (tb *TemplateBody) ScanAppendedFiles(docs []document.Pending) {
	fields.ScanDocuments(docs, fields.DocOptions{TextTags: true})
}

// AddAppendedTagFields is its hook once the templates are bound: the text
// tags of the last appended documents (after the templates' own) become
// fields of the signers in the templates' role order; tags for signers the
// templates do not have are ignored, as the official description says.
func (spec *Spec) AddAppendedTagFields(appended int) {
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
	docs := make([]*model.Document, appended)
	for i := range docs {
		docs[i] = &spec.Documents[first+i]
	}
	formFields := requestTagFields(docs, first, fc, taken, true)
	spec.FormFields = append(spec.FormFields, formFields...)
	fields.BindCustomFieldTypes(spec.CustomFields, formFields)
}

// documentsTextTagProblem is the first text tag problem of a set of
// documents ("" when none), naming the document.
func documentsTextTagProblem(docs []model.Document) string {
	for i, d := range docs {
		if d.TextTagError != "" {
			return fmt.Sprintf("Document %d (%s): %s", i, d.Name, d.TextTagError)
		}
	}
	return ""
}

// tTextTagError ends the processing of a request whose documents hold
// invalid text tags: every signature in error_text_tag and the
// signature_request_invalid event. It answers nil (process decides) when
// the request is not processing, when a failure was injected (failure), when a
// document cannot be read at all (that is error_file), or when the tags are
// fine.
func tTextTagError(req *model.SignatureRequest, failure string, now int64) *outcome {
	if req.Phase != model.PhaseProcessing || failure != "" {
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
	return fail(req, api.ProcessFailure{StatusCode: state.SigErrorTextTag, Message: msg}, now) // failures.go
}
