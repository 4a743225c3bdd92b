package sigreq

// The form fields a PDF already has (use_preexisting_fields) as fields of a
// request or draft; fields.PDFFormFields says how each PDF field maps.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// requestPDFFields turns the documents' PDF form fields into fields of a
// request's (or draft's) first signer. Fields the form field checks refuse
// (a rectangle off the page, say) are left out.
func requestPDFFields(docs []document.Pending, fc fields.Limits, taken map[string]bool) ([]model.FormField, []model.FieldGroup) {
	inputs, groups := fields.PDFFormFields(docs, "0", taken)
	var out []model.FormField
	used := map[string]bool{}
	for _, pf := range inputs {
		fields, e := fields.Check([]fields.Parsed{pf}, fc)
		if e != nil {
			continue
		}
		out = append(out, fields...)
		used[pf.Field.Group] = true
	}
	var kept []model.FieldGroup
	for _, g := range groups {
		if used[g.GroupID] {
			kept = append(kept, g)
		}
	}
	return out, kept
}
