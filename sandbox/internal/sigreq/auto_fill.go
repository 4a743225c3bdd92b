package sigreq

// Auto-fill fields: a text field with an auto_fill_type is filled with the
// signer's own data when the request was sent with
// populate_auto_fill_fields. The signing page shows the value in the field
// (the signer may change it), and signing without a value for the field
// keeps it. The sandbox knows a signer's name and e-mail address; it holds
// no profile with a company or a job title, so those stay for the signer
// to type (a simulated signer types a sample where they are required).

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// autoFillValue is what auto-fill puts in f for sg: "" when the request
// does not populate auto-fill fields, the field has no auto_fill_type, the
// signer's data for it is unknown, or the data does not pass the field's
// validation type.
func autoFillValue(req *model.SignatureRequest, sg *model.Signature, f model.FormField) string {
	if !req.PopulateAutoFillFields || f.Type != fields.TypeText || f.AutoFillType == "" {
		return ""
	}
	v := signerData(sg, f.AutoFillType)
	if v == "" || fields.ValidateText(f, v) != "" {
		return ""
	}
	return v
}

// signerData is the signer's own data of an auto-fill type ("" when the
// sandbox does not know it). A one-word name is the first name and the
// last name alike.
func signerData(sg *model.Signature, autoFillType string) string {
	name := strings.TrimSpace(sg.Name)
	first, last, _ := strings.Cut(name, " ")
	switch autoFillType {
	case "name":
		return name
	case "email":
		return sg.Email
	case "firstName":
		return first
	case "lastName":
		if last = strings.TrimSpace(last); last == "" {
			return first
		}
		return last
	}
	return ""
}
