package sigreq

// custom_fields the real service accepts but cannot use as given: values
// that fill no merge field are ignored, values wider than their field are
// cut. Both are answered with the official warnings, not errors.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// dropUnusedCustomFields keeps the custom fields that fill a merge field of
// fields and answers them; every other one is ignored with the official
// parameter_ignored warning (the real service leaves such values unused).
// Requests with text tags keep them all: their merge fields are in the
// documents, which the sandbox does not read.
func dropUnusedCustomFields(c *api.Call, cfs []model.CustomField, formFields []model.FormField, textTags bool) []model.CustomField {
	if textTags {
		return cfs
	}
	var out []model.CustomField
	for i, cf := range cfs {
		used := false
		for _, f := range formFields {
			if fields.IsMerge(f) && fillsMergeField(cf, f) {
				used = true
				break
			}
		}
		if !used {
			warnUnusedCustomField(c, i, cf.Name)
			continue
		}
		out = append(out, cf)
	}
	return out
}

// warnUnusedCustomField is the warning for custom_fields[i], which names no
// merge field.
func warnUnusedCustomField(c *api.Call, i int, name string) {
	warnOnce(c, "parameter_ignored", "custom_fields["+itoa(i)+"] ("+name+
		") was ignored: no text-merge or checkbox-merge field of the request or its templates has that name.")
}

// warnLongMergeValues warns about text merged into fields too narrow for
// it. A value is too long when the sandbox cannot draw it whole in a
// text-merge field it fills: the text is shrunk to fit the field's width
// down to a 5-point font, and what is still wider is cut on the document
// (pdf.StampFits). One such value gives custom_field_value_too_long; two
// or more give a single custom_field_values_too_long naming them all.
func warnLongMergeValues(c *api.Call, cfs []model.CustomField, formFields []model.FormField) {
	var long []string
	for _, cf := range cfs {
		if cf.Value == "" {
			continue
		}
		for _, f := range formFields {
			if f.Type != fields.TypeTextMerge || !fillsMergeField(cf, f) || f.Width <= 0 {
				continue
			}
			s := pdf.Stamp{Width: float64(f.Width), Height: float64(f.Height), Text: cf.Value, Kind: pdf.StampText}
			if !pdf.StampFits(s) {
				long = append(long, cf.Name)
				break
			}
		}
	}
	switch len(long) {
	case 0:
	case 1:
		warnOnce(c, "custom_field_value_too_long", "The value of custom field "+long[0]+
			" is too long for its field and will be cut on the document.")
	default:
		warnOnce(c, "custom_field_values_too_long", "The values of custom fields "+strings.Join(long, ", ")+
			" are too long for their fields and will be cut on the document.")
	}
}

// warnOnce adds a warning unless the call already has the same one (bulk
// send binds every signer list entry to the same templates).
func warnOnce(c *api.Call, name, msg string) {
	if c == nil {
		return
	}
	for _, w := range c.Warnings {
		if w.WarningName == name && w.WarningMsg == msg {
			return
		}
	}
	c.Warn(name, msg)
}
