package fields

// The form fields a PDF already has (use_preexisting_fields) as API form
// fields. The mapping:
//
//	PDF text field          -> text
//	check box               -> checkbox (is_checked from its appearance state)
//	radio buttons           -> radio, one per button, grouped by the PDF field
//	                           (a form_field_groups entry: require_1 when the
//	                           PDF field is required, else require_0-1); a
//	                           radio field with one button becomes a checkbox
//	signature field         -> signature
//	combo box or list box   -> dropdown with the displayed options
//
// Every field is for the first signer (the first signer role of a
// template): a PDF does not say who fills its fields, and the real
// service's editor assigns them to the first signer until the sender moves
// them. The api_id is the PDF field's full name (radio buttons add _1, _2,
// ...; a name already used gets a numeric suffix), the name is the full
// name, required comes from the field's Required flag. Not carried over:
// read-only fields and push buttons (nothing to fill), values already in
// the PDF (text and choice values; check states are kept as is_checked),

import (
	"fmt"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// PDFFormFields turns the PDF form fields of documents into form field
// inputs for signer, with the groups their radio buttons need. taken holds
// the api_ids (and group ids) already used; it is updated.
func PDFFormFields(docs []document.Pending, signer string, taken map[string]bool) ([]Parsed, []model.FieldGroup) {
	var out []Parsed
	var groups []model.FieldGroup
	unique := func(base string) string {
		id := base
		for n := 2; taken[id]; n++ {
			id = base + "_" + strconv.Itoa(n)
		}
		taken[id] = true
		return id
	}
	for i, d := range docs {
		radios := map[string]int{}
		for _, pf := range d.Doc.PDFFields {
			if pf.Kind == pdf.PDFFieldRadio && !pf.ReadOnly {
				radios[pf.Name]++
			}
		}
		groupOf := map[string]string{}
		checkedIn := map[string]bool{}
		buttonNo := map[string]int{}
		for _, pf := range d.Doc.PDFFields {
			if pf.ReadOnly {
				continue
			}
			req := pf.Required
			f := FormField{DocumentIndex: intPtr(i), Name: pf.Name, X: intPtr(pf.X), Y: intPtr(pf.Y),
				Width: intPtr(pf.Width), Height: intPtr(pf.Height), Page: intPtr(pf.Page), Required: &req}
			s := signer
			f.Signer = &s
			kind := pf.Kind
			if kind == pdf.PDFFieldRadio && radios[pf.Name] < 2 {
				kind = pdf.PDFFieldCheckbox
			}
			switch kind {
			case pdf.PDFFieldText:
				f.Type = TypeText
			case pdf.PDFFieldSignature:
				f.Type = TypeSignature
			case pdf.PDFFieldDropdown:
				f.Type = TypeDropdown
				f.Options = append([]string(nil), pf.Options...)
			case pdf.PDFFieldCheckbox:
				f.Type = TypeCheckbox
				checked := pf.Checked
				f.IsChecked = &checked
			case pdf.PDFFieldRadio:
				f.Type = TypeRadio
				g, ok := groupOf[pf.Name]
				if !ok {
					g = unique(pf.Name)
					groupOf[pf.Name] = g
					rule := "require_0-1"
					if pf.Required {
						rule = "require_1"
					}
					groups = append(groups, model.FieldGroup{GroupID: g, GroupLabel: pf.Name, Requirement: rule})
				}
				f.Group = g
				checked := pf.Checked && !checkedIn[g]
				checkedIn[g] = checkedIn[g] || checked
				f.IsChecked = &checked
				req = false // the group's requirement says it
				buttonNo[pf.Name]++
				f.APIID = unique(fmt.Sprintf("%s_%d", pf.Name, buttonNo[pf.Name]))
			default:
				continue
			}
			if f.APIID == "" {
				f.APIID = unique(pf.Name)
			}
			out = append(out, Parsed{Path: "PDF field " + pf.Name, Doc: i, Field: f})
		}
	}
	return out, groups
}
