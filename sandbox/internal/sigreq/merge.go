package sigreq

// Merge fields: custom_fields fill the text-merge and checkbox-merge fields
// of a request (placed with form_fields_per_document or brought by
// templates). This file matches values to fields and lists the merged
// values in response_data; custom_fields.go warns about values that
// fill no field or do not fit theirs.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// fillsMergeField reports whether custom field cf fills merge field f (by
// api_id or by name).
func fillsMergeField(cf model.CustomField, f model.FormField) bool {
	return (cf.APIID != "" && cf.APIID == f.APIID) || cf.Name == f.Name || cf.Name == f.APIID
}

// mergeValueOf answers the custom field that fills merge field f.
func mergeValueOf(req *model.SignatureRequest, f model.FormField) (model.CustomField, bool) {
	for _, cf := range req.CustomFields {
		if fillsMergeField(cf, f) {
			return cf, true
		}
	}
	return model.CustomField{}, false
}

// mergeChecked is the state of a checkbox-merge field filled with value.
func mergeChecked(value string) bool { return value == "true" || value == "1" }

// mergeResponses are the response_data entries of a request's merge fields,
// present from creation since the sender filled them: a text-merge field's
// value is the text merged, a checkbox-merge field's is "true" or "false"
// (the official SignatureRequestResponseDataValueCheckboxMerge types it as
// a string). Each is linked to the signature of the custom field's editor
// role, else to the first signer.
func mergeResponses(req *model.SignatureRequest) []model.ResponseValue {
	if len(req.Signatures) == 0 {
		return nil
	}
	var out []model.ResponseValue
	for _, f := range req.FormFields {
		if !fields.IsMerge(f) {
			continue
		}
		cf, _ := mergeValueOf(req, f)
		rv := model.ResponseValue{APIID: f.APIID, SignatureID: req.Signatures[0].ID, Name: f.Name, Type: f.Type,
			Required: f.Required, Value: cf.Value}
		if rv.Name == "" {
			rv.Name = cf.Name
		}
		if f.Type == fields.TypeCheckboxMerge {
			rv.Value = "false"
			if mergeChecked(cf.Value) {
				rv.Value = "true"
			}
		}
		if cf.Editor != "" {
			for _, sg := range req.Signatures {
				if sg.Role == cf.Editor {
					rv.SignatureID = sg.ID
					break
				}
			}
		}
		out = append(out, rv)
	}
	return out
}
