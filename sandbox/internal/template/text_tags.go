package template

// Templates whose documents carry their fields. template/create and
// create_embedded_draft officially have use_preexisting_fields (the PDF's
// form fields, for the first signer role); the sandbox also takes the
// signature request parameters use_text_tags and hide_text_tags there,
// which the official template schemas do not list (the SDKs cannot send
// them), so that tagged documents can become templates: signerN is the N-th
// signer role, sender merge tags are the sender's merge fields. A malformed
// tag fails the template's preparation (template_error), as a bad file
// does.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftext"
)

// addTemplateDocumentFields is the hook of template creation: it reads the
// collected documents when the body asks for it and adds their fields to
// the template's content (after the checks of the given fields).
func addTemplateDocumentFields(in *ContentInput, content *Content, docs []document.Pending) {
	o := fields.DocOptions{TextTags: in.UseTextTags, Hide: in.UseTextTags && in.HideTextTags, PDFFields: in.UsePreexistingFields}
	if !o.TextTags && !o.PDFFields {
		return
	}
	fields.ScanDocuments(docs, o)
	taken := map[string]bool{}
	for _, f := range content.Fields {
		taken[f.APIID] = true
	}
	groupIdx := map[string]int{}
	for i, g := range content.Groups {
		groupIdx[g.GroupID] = i
		taken[g.GroupID] = true
	}
	if o.PDFFields && len(content.Roles) > 0 {
		inputs, groups := fields.PDFFormFields(docs, "0", taken)
		for _, g := range groups {
			groupIdx[g.GroupID] = len(content.Groups)
			content.Groups = append(content.Groups, g)
		}
		for _, pf := range inputs {
			if pf.Field.DocumentIndex != nil && *pf.Field.DocumentIndex < len(docs) {
				if tf, err := tplField(pf.Field, pf.Path, content.Roles, groupIdx); err == nil {
					content.Fields = append(content.Fields, tf)
					content.fieldPaths = append(content.fieldPaths, pf.Path)
				}
			}
		}
	}
	if o.TextTags {
		templateTagFields(content, docs, taken, groupIdx)
	}
}

// templateTagFields turns the documents' text tags into template fields; a
// malformed tag is recorded on its document and then no tag becomes a
// field (the template fails preparation).
func templateTagFields(content *Content, docs []document.Pending, taken map[string]bool, groupIdx map[string]int) {
	var formFields []model.TemplateField
	var paths []string
	var merges []model.TemplateMergeField
	declared := map[string]string{}
	for _, m := range content.MergeFields {
		declared[m.Name] = m.Type
	}
	failed := false
	ids := fields.NewTagIDs(taken)
	for i := range docs {
		d := &docs[i]
		for k, ft := range d.Doc.TextTags {
			if d.Doc.TextTagError != "" {
				break
			}
			problem := func(msg string) { d.Doc.TextTagError = fields.TagProblem(ft, msg) }
			t, err := pdftext.ParseTextTag(ft.Text)
			if err != nil {
				problem(strings.TrimPrefix(err.Error(), "invalid text tag "+ft.Text+": "))
				continue
			}
			if t.Signer > len(content.Roles) {
				problem(fmt.Sprintf("signer%d is not a signer role of this template (it has %d)", t.Signer, len(content.Roles)))
				continue
			}
			if t.Merge() && t.Label == "" {
				problem("a merge tag needs a label: it is the name custom_fields fill it by")
				continue
			}
			id, msg := ids.Take(t.ID, i, k)
			if msg != "" {
				problem(msg)
				continue
			}
			signer := fields.SignerSender
			if t.Signer > 0 {
				signer = strconv.Itoa(t.Signer - 1)
			}
			path := "text tag " + ft.Text
			tf, err := tplField(fields.TagField(t, ft, i, id, signer), path, content.Roles, groupIdx)
			if err != nil {
				msg := err.Error()
				if e, ok := apierr.As(err); ok {
					msg = e.Msg
				}
				problem(msg)
				continue
			}
			if tf.IsMerge() {
				want := "text"
				if tf.Type == fields.TypeCheckboxMerge {
					want = "checkbox"
				}
				if have, ok := declared[tf.Name]; ok && have != want {
					problem(fmt.Sprintf("merge field %q is declared as %s in merge_fields", tf.Name, have))
					continue
				} else if !ok {
					declared[tf.Name] = want
					merges = append(merges, model.TemplateMergeField{Name: tf.Name, Type: want})
				}
			}
			formFields, paths = append(formFields, tf), append(paths, path)
		}
		failed = failed || d.Doc.TextTagError != ""
	}
	if failed {
		return
	}
	content.Fields = append(content.Fields, formFields...)
	content.fieldPaths = append(content.fieldPaths, paths...)
	content.MergeFields = append(content.MergeFields, merges...)
}
