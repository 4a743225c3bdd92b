package sigreq

// The values a signer enters when signing: checked against each field's
// type, validation_type, dropdown options, group requirements and
// conditional logic, and turned into response_data. Fields the signer
// leaves out get the value a signer who just clicks through would leave
// (defaults, plausible values for required fields), so that simulated
// signers need not spell out every field.

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
)

// validationSamples are values that pass each validation type.
var validationSamples = map[string]string{
	"numbers_only": "12345", "letters_only": "Sample", "phone_number": "4155550123", "bank_routing_number": "123456789",
	"bank_account_number": "12345678", "zip_code": "94105", "social_security_number": "123456789",
	"employer_identification_number": "123456789",
}

// signerFields are the fields a signature fills: its slot's fields, and
// its box on the appended signature page when the request has one.
func signerFields(req *model.SignatureRequest, sg *model.Signature) []model.FormField {
	var out []model.FormField
	for _, f := range req.FormFields {
		if n, ok := f.SlotIndex(); ok && n == sg.Slot {
			out = append(out, f)
		}
	}
	if req.AppendSignaturePage {
		out = append(out, signaturePageField(sg.Slot))
	}
	return out
}

// goDateLayouts maps the API's date formats to Go layouts.
var goDateLayouts = map[string]string{
	"MM / DD / YYYY": "01 / 02 / 2006", "MM - DD - YYYY": "01 - 02 - 2006", "DD / MM / YYYY": "02 / 01 / 2006",
	"DD - MM - YYYY": "02 - 01 - 2006", "YYYY / MM / DD": "2006 / 01 / 02", "YYYY - MM - DD": "2006 - 01 - 02",
}

// formatDateSigned renders the signing date in the request's date format
// (MM/DD/YYYY by default, as the official example shows).
func formatDateSigned(req *model.SignatureRequest, now time.Time) string {
	if l, ok := goDateLayouts[req.DateFormat]; ok {
		return now.UTC().Format(l)
	}
	return now.UTC().Format("01/02/2006")
}

// signerValues turns the values a signer gave (by api_id) into
// response_data entries for all of the signer's fields. path prefixes error
// paths ("values").
func signerValues(req *model.SignatureRequest, sg *model.Signature, given map[string]any, now time.Time, path string) ([]model.ResponseValue, *apierr.Error) {
	formFields := signerFields(req, sg)
	mine := map[string]model.FormField{}
	for _, f := range formFields {
		mine[f.APIID] = f
	}
	ids := make([]string, 0, len(given))
	for id := range given {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, ok := mine[id]; !ok {
			if slices.ContainsFunc(req.FormFields, func(f model.FormField) bool { return f.APIID == id }) || isSignaturePageField(req, id) {
				return nil, apierr.Badf(path+"["+id+"]", "Field %s belongs to another signer.", id)
			}
			return nil, apierr.Badf(path+"["+id+"]", "No field has the api_id %s.", id)
		}
	}
	given, e := spreadLinkedValues(req, sg, formFields, given, path)
	if e != nil {
		return nil, e
	}
	values := map[string]any{}
	for _, f := range formFields {
		p := path + "[" + f.APIID + "]"
		raw, has := given[f.APIID]
		v, e := fieldValue(req, sg, f, raw, has, now, p)
		if e != nil {
			return nil, e
		}
		values[f.APIID] = v
	}
	if e := checkGroupValues(req, formFields, values, given, path); e != nil {
		return nil, e
	}
	hidden := hiddenFields(req, values)
	var out []model.ResponseValue
	for _, f := range formFields {
		v := values[f.APIID]
		if f.Type == fields.TypeHyperlink {
			continue
		}
		if f.Required && !hidden[f.APIID] && isEmptyValue(v) {
			if f.Type == fields.TypeText && f.ValidationType == "custom_regex" {
				return nil, apierr.Badf(path+"["+f.APIID+"]", "Field %s is required: give a value that matches its custom regex.", f.APIID)
			}
			return nil, apierr.Badf(path+"["+f.APIID+"]", "Field %s is required.", f.APIID)
		}
		rv := model.ResponseValue{APIID: f.APIID, SignatureID: sg.ID, Name: f.Name, Type: f.Type, Required: f.Required, Value: v}
		if f.Type == fields.TypeSignature || f.Type == fields.TypeInitials {
			signed := !hidden[f.APIID]
			rv.IsSigned = &signed
		}
		out = append(out, rv)
	}
	return out, nil
}

func isEmptyValue(v any) bool {
	s, ok := v.(string)
	return ok && s == ""
}

// fieldValue checks (or defaults) the value of one field.
func fieldValue(req *model.SignatureRequest, sg *model.Signature, f model.FormField, raw any, has bool, now time.Time, p string) (any, *apierr.Error) {
	switch f.Type {
	case fields.TypeCheckbox, fields.TypeRadio:
		if !has {
			return f.IsChecked, nil
		}
		b, ok := param.AsBool(raw)
		if !ok {
			return nil, apierr.Badf(p, "The value of a %s field is true or false.", f.Type)
		}
		return b, nil
	case fields.TypeDateSigned:
		if has {
			return nil, apierr.Badf(p, "date_signed fields are filled by the service with the signing date.")
		}
		return formatDateSigned(req, now), nil
	case fields.TypeTextMerge, fields.TypeCheckboxMerge:
		if has {
			return nil, apierr.Badf(p, "%s fields are filled from custom_fields, not by the signer.", f.Type)
		}
		cf, _ := mergeValueOf(req, f)
		return cf.Value, nil
	case fields.TypeHyperlink:
		if has {
			return nil, apierr.Badf(p, "hyperlink fields take no value.")
		}
		return "", nil
	case fields.TypeSignature, fields.TypeInitials:
		if !has {
			if f.Type == fields.TypeInitials {
				return initialsOf(sg.Name), nil
			}
			return sg.Name, nil
		}
		if b, ok := raw.(bool); ok {
			if !b {
				return "", nil
			}
			return sg.Name, nil
		}
		s, ok := raw.(string)
		if !ok {
			return nil, apierr.Badf(p, "The value of a %s field is the typed text or true.", f.Type)
		}
		return s, nil
	case fields.TypeDropdown:
		if !has {
			if f.Content != "" || !f.Required {
				return f.Content, nil
			}
			return f.Options[0], nil
		}
		s, ok := raw.(string)
		if !ok || !slices.Contains(f.Options, s) {
			return nil, apierr.Badf(p, "The value of dropdown %s must be one of its options (%s).", f.APIID, strings.Join(f.Options, ", "))
		}
		return s, nil
	}
	// text
	if !has {
		if f.Content != "" {
			return f.Content, nil
		}
		if v := autoFillValue(req, sg, f); v != "" {
			return v, nil
		}
		if !f.Required {
			return "", nil
		}
		return sampleText(req, sg, f), nil
	}
	s, ok := textOf(raw)
	if !ok {
		return nil, apierr.Badf(p, "The value of text field %s must be a string.", f.APIID)
	}
	if msg := fields.ValidateText(f, s); msg != "" {
		return nil, apierr.Badf(p, "%s", msg)
	}
	return s, nil
}

// sampleText is what a click-through signer types in a required text field:
// their own data for an auto-fill type, a sample company or job title, or
// a value valid for the validation type.
func sampleText(req *model.SignatureRequest, sg *model.Signature, f model.FormField) string {
	if v := signerData(sg, f.AutoFillType); v != "" {
		return v
	}
	switch f.AutoFillType {
	case "company":
		return "Sample Company"
	case "title":
		return "Signer"
	}
	switch f.ValidationType {
	case "email_address":
		return sg.Email
	case "custom_regex":
		return ""
	case "":
		return "Sample text"
	}
	return validationSamples[f.ValidationType]
}

func initialsOf(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		b.WriteString(strings.ToUpper(string(r[0])))
	}
	return b.String()
}

// checkGroupValues enforces group requirements on checkbox and radio
// groups; a required radio group with nothing selected gets its first
// option when the signer left the whole group out.
func checkGroupValues(req *model.SignatureRequest, fields []model.FormField, values, given map[string]any, path string) *apierr.Error {
	for _, g := range req.FieldGroups {
		var members []model.FormField
		touched := false
		for _, f := range fields {
			if f.Group == g.GroupID {
				members = append(members, f)
				if _, ok := given[f.APIID]; ok {
					touched = true
				}
			}
		}
		if len(members) == 0 {
			continue
		}
		count := func() int {
			n := 0
			for _, f := range members {
				if b, _ := values[f.APIID].(bool); b {
					n++
				}
			}
			return n
		}
		n := count()
		needOne := g.Requirement == "require_1" || g.Requirement == "require_1-ormore"
		if n == 0 && needOne && !touched {
			values[members[0].APIID] = true
			n = 1
		}
		p := path + "[" + members[0].APIID + "]"
		switch {
		case needOne && n == 0:
			return apierr.Badf(p, "Group %s (%s) needs at least one field checked (%s).", g.GroupID, g.GroupLabel, g.Requirement)
		case (g.Requirement == "require_1" || g.Requirement == "require_0-1") && n > 1:
			return apierr.Badf(p, "Group %s (%s) allows at most one field checked (%s).", g.GroupID, g.GroupLabel, g.Requirement)
		}
	}
	return nil
}

// hiddenFields evaluates conditional logic on the signer's values: the
// fields (and group members) a satisfied rule hides.
func hiddenFields(req *model.SignatureRequest, values map[string]any) map[string]bool {
	hidden := map[string]bool{}
	for _, r := range req.FieldRules {
		if len(r.Triggers) != 1 {
			continue
		}
		t := r.Triggers[0]
		v, ok := values[t.ID]
		if !ok || !triggerMatches(t, v) {
			continue
		}
		for _, a := range r.Actions {
			if !a.Hidden {
				continue
			}
			if a.FieldID != "" {
				hidden[a.FieldID] = true
			}
			for _, f := range req.FormFields {
				if a.GroupID != "" && f.Group == a.GroupID {
					hidden[f.APIID] = true
				}
			}
		}
	}
	return hidden
}

func triggerMatches(t model.RuleTrigger, v any) bool {
	var s string
	switch x := v.(type) {
	case bool:
		s = "0"
		if x {
			s = "1"
		}
	case string:
		s = x
	}
	switch t.Operator {
	case "is":
		return s == t.Value
	case "not":
		return s != t.Value
	case "match":
		re, err := regexp.Compile(t.Value)
		return err == nil && re.MatchString(s)
	case "any":
		return slices.Contains(t.Values, s)
	case "none":
		return !slices.Contains(t.Values, s)
	}
	return false
}
