package template

// The form fields of template create requests: decoding
// form_fields_per_document (flat or one list per document, JSON text from
// form bodies), one field with its signer role, conditional logic rules,
// and the checks that need the documents. The checks of a field's keys are
// shared with signature requests (package fields).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// FieldsPath is the request parameter of form fields.
const FieldsPath = "form_fields_per_document"

// decodeTemplateFields turns form_fields_per_document into field inputs
// with their paths. The legacy form (one list per document) gives each
// field its list's index as document_index.
func decodeTemplateFields(raw []any) ([]fields.FormField, []string, error) {
	var out []fields.FormField
	var paths []string
	for i, item := range raw {
		p := fmt.Sprintf("%s[%d]", FieldsPath, i)
		item, err := tplJSONText(item, p)
		if err != nil {
			return nil, nil, err
		}
		if m, ok := item.(map[string]any); ok && len(m) > 0 {
			// A document's list of fields with gaps in its keys (PHP).
			if list, _, isList := wire.IndexedList(m); isList {
				item = list
			}
		}
		switch t := item.(type) {
		case map[string]any:
			var f fields.FormField
			if err := tplDecodeObject(t, &f, p); err != nil {
				return nil, nil, err
			}
			out, paths = append(out, f), append(paths, p)
		case []any:
			for j, sub := range t {
				sp := fmt.Sprintf("%s[%d]", p, j)
				sub, err := tplJSONText(sub, sp)
				if err != nil {
					return nil, nil, err
				}
				m, ok := sub.(map[string]any)
				if !ok {
					return nil, nil, apierr.Badf(sp, "%s must be a form field object", sp)
				}
				var f fields.FormField
				if err := tplDecodeObject(m, &f, sp); err != nil {
					return nil, nil, err
				}
				if f.DocumentIndex == nil {
					f.DocumentIndex = intPtr(i)
				}
				out, paths = append(out, f), append(paths, sp)
			}
		default:
			return nil, nil, apierr.Badf(p, "%s must be a form field object", p)
		}
	}
	return out, paths, nil
}

// tplJSONText parses a string holding a JSON object or array (how form
// bodies carry nested values); other values pass through.
func tplJSONText(v any, path string) (any, error) {
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, apierr.Badf(path, "%s is not valid JSON: %v", path, err)
	}
	return out, nil
}

// tplDecodeObject decodes one nested object, prefixing error paths with the
// object's own path.
func tplDecodeObject(m map[string]any, dst any, path string) error {
	if err := wire.DecodeTree(m, dst); err != nil {
		if e, ok := apierr.As(err); ok {
			c := *e
			if c.Path != "" {
				first, rest, _ := strings.Cut(c.Path, "[")
				c.Path = path + "[" + first + "]"
				if rest != "" {
					c.Path += "[" + rest
				}
			} else {
				c.Path = path
			}
			c.Msg = strings.ReplaceAll(c.Msg, e.Path, c.Path)
			return &c
		}
		return err
	}
	return nil
}

// tplField validates one form field and resolves its signer to a role.
func tplField(f fields.FormField, p string, roles []model.TemplateRole, groups map[string]int) (model.TemplateField, error) {
	var tf model.TemplateField
	at := fields.Path(p)
	if e := fields.CheckType(at, f.Type); e != nil {
		return tf, e
	}
	if strings.TrimSpace(f.APIID) == "" {
		return tf, apierr.Missing(p + "[api_id]")
	}
	if f.DocumentIndex == nil {
		return tf, apierr.Missing(p + "[document_index]")
	}
	if *f.DocumentIndex < 0 {
		return tf, apierr.Badf(p+"[document_index]", "document_index must be 0 or greater.")
	}
	if e := fields.CheckBox(at, f.X, f.Y, f.Width, f.Height); e != nil {
		return tf, e
	}
	tf = model.TemplateField{
		APIID: strings.TrimSpace(f.APIID), Name: f.Name, Type: f.Type, DocumentIndex: *f.DocumentIndex,
		X: *f.X, Y: *f.Y, Width: *f.Width, Height: *f.Height, Group: f.Group,
		FieldKeys: model.FieldKeys{
			Placeholder: f.Placeholder, AutoFillType: f.AutoFillType, LinkID: f.LinkID, Masked: f.Masked,
			ValidationType: f.ValidationType, ValidationCustomRegex: f.ValidationCustomRegex,
			ValidationCustomRegexFormatLabel: f.ValidationCustomRegexFormatLabel,
			Content:                          param.Deref(f.Content), ContentURL: f.ContentURL, Options: f.Options, FontFamily: f.FontFamily,
		},
	}
	if f.Required != nil {
		tf.Required = *f.Required
	}
	if f.IsChecked != nil {
		tf.IsChecked = *f.IsChecked
	} else if f.Checked != nil {
		tf.IsChecked = *f.Checked
	}
	if f.Page != nil {
		if *f.Page < 1 {
			return tf, apierr.Badf(p+"[page]", "page must be 1 or greater.")
		}
		tf.Page = *f.Page
	}
	if e := fields.CheckFont(at, f.FontSize, f.FontFamily); e != nil {
		return tf, e
	}
	if f.FontSize != nil {
		tf.FontSize = *f.FontSize
	}
	role, err := tplFieldRole(f.Signer, tf.IsMerge(), p+"[signer]", roles)
	if err != nil {
		return tf, err
	}
	tf.Role = role
	if tf.Name == "" && tf.IsMerge() {
		return tf, apierr.Missing(p + "[name]")
	}

	switch tf.Type {
	case fields.TypeDropdown:
		if e := fields.CheckDropdownKeys(at, f.Options, tf.Content); e != nil {
			return tf, e
		}
	case fields.TypeHyperlink:
		if e := fields.CheckHyperlinkKeys(at, tf.Content, f.ContentURL); e != nil {
			return tf, e
		}
	case "radio":
		if f.Group == "" {
			return tf, apierr.Missing(p + "[group]")
		}
	case "text":
		if e := fields.CheckTextKeys(at, f.ValidationType, f.ValidationCustomRegex, f.AutoFillType); e != nil {
			return tf, e
		}
	}
	if f.Group != "" {
		if tf.Type != "checkbox" && tf.Type != "radio" {
			return tf, apierr.Badf(p+"[group]", "Only checkbox and radio fields can be grouped.")
		}
		if _, ok := groups[f.Group]; !ok {
			return tf, apierr.Badf(p+"[group]", "Group %q is not defined in form_field_groups.", f.Group)
		}
	}
	return tf, nil
}

// tplFieldRole resolves a field's signer (nil when absent): a 0-based role
// index or a role name; merge fields belong to the sender ("sender", or no
// signer).
func tplFieldRole(signer *string, merge bool, path string, roles []model.TemplateRole) (int, error) {
	v := strings.TrimSpace(param.Deref(signer))
	if merge && (v == "" || strings.EqualFold(v, fields.SignerSender)) {
		return -1, nil
	}
	if v == "" {
		return 0, apierr.Missing(path)
	}
	if strings.EqualFold(v, fields.SignerSender) || strings.EqualFold(v, fields.SignerMeNow) {
		return 0, apierr.Badf(path, "signer %q can only be used for merge fields (text-merge, checkbox-merge) of a template.", v)
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 || n >= len(roles) {
			return 0, apierr.Badf(path, "signer %d does not name a signer role: the template has %d signer role(s), indexed from 0.", n, len(roles))
		}
		return n, nil
	}
	for i, r := range roles {
		if r.Name == v {
			return i, nil
		}
	}
	return 0, apierr.Badf(path, "signer %q does not name a signer role of this template.", v)
}

// tplRules validates conditional logic: one trigger per rule, AND only,
// triggers and actions of the same signer, a field targeted once.
func tplRules(in []fields.Rule, fields []model.TemplateField, apiIDs map[string]int, groups map[string]int) ([]model.FieldRule, error) {
	var out []model.FieldRule
	ruleIDs := map[string]bool{}
	targeted := map[string]bool{}
	for i, r := range in {
		p := fmt.Sprintf("form_field_rules[%d]", i)
		if strings.TrimSpace(r.ID) == "" {
			return nil, apierr.Missing(p + "[id]")
		}
		if ruleIDs[r.ID] {
			return nil, apierr.Badf(p+"[id]", "Duplicate rule id %q.", r.ID)
		}
		ruleIDs[r.ID] = true
		op := r.TriggerOperator
		if op == "" {
			op = "AND"
		}
		if op != "AND" {
			return nil, apierr.Badf(p+"[trigger_operator]", "Only the AND trigger_operator is supported.")
		}
		if len(r.Triggers) != 1 {
			return nil, apierr.Badf(p+"[triggers]", "A rule must have exactly one trigger.")
		}
		if len(r.Actions) == 0 {
			return nil, apierr.Missing(p + "[actions]")
		}
		tr := r.Triggers[0]
		tp := p + "[triggers][0]"
		fi, ok := apiIDs[tr.ID]
		if !ok {
			return nil, apierr.Badf(tp+"[id]", "Trigger %q does not reference the api_id of a form field.", tr.ID)
		}
		if !slices.Contains(tplTriggerOps, tr.Operator) {
			return nil, apierr.Badf(tp+"[operator]", "Invalid operator %q: use one of %s.", tr.Operator, strings.Join(tplTriggerOps, ", "))
		}
		if (tr.Value == nil) == (tr.Values == nil) {
			return nil, apierr.Badf(tp+"[value]", "Give either value or values, not both.")
		}
		signer := fields[fi].Role
		rule := model.FieldRule{ID: r.ID, TriggerOperator: op, Triggers: []model.RuleTrigger{{ID: tr.ID, Operator: tr.Operator, Values: tr.Values}}}
		if tr.Value != nil {
			rule.Triggers[0].Value = *tr.Value
		}
		for j, a := range r.Actions {
			ap := fmt.Sprintf("%s[actions][%d]", p, j)
			if (a.FieldID == "") == (a.GroupID == "") {
				return nil, apierr.Badf(ap+"[field_id]", "Give either field_id or group_id, not both.")
			}
			if a.Hidden == nil {
				return nil, apierr.Missing(ap + "[hidden]")
			}
			target := a.FieldID
			if a.FieldID != "" {
				if a.Type != "change-field-visibility" {
					return nil, apierr.Badf(ap+"[type]", "An action with field_id has type change-field-visibility.")
				}
				ti, ok := apiIDs[a.FieldID]
				if !ok {
					return nil, apierr.Badf(ap+"[field_id]", "Action field %q does not reference the api_id of a form field.", a.FieldID)
				}
				if fields[ti].Role != signer {
					return nil, apierr.Badf(ap+"[field_id]", "Trigger and action fields must belong to the same signer.")
				}
			} else {
				target = "group:" + a.GroupID
				if a.Type != "change-group-visibility" {
					return nil, apierr.Badf(ap+"[type]", "An action with group_id has type change-group-visibility.")
				}
				if _, ok := groups[a.GroupID]; !ok {
					return nil, apierr.Badf(ap+"[group_id]", "Action group %q is not defined in form_field_groups.", a.GroupID)
				}
				for _, f := range fields {
					if f.Group == a.GroupID && f.Role != signer {
						return nil, apierr.Badf(ap+"[group_id]", "Trigger and action groups must belong to the same signer.")
					}
				}
			}
			if targeted[target] {
				return nil, apierr.Badf(ap, "A field or group can be the target of only one rule action.")
			}
			targeted[target] = true
			rule.Actions = append(rule.Actions, model.RuleAction{FieldID: a.FieldID, GroupID: a.GroupID, Hidden: *a.Hidden, Type: a.Type})
		}
		out = append(out, rule)
	}
	return out, nil
}

// CheckDocuments checks what needs the documents: every field on an
// existing document and page.
func CheckDocuments(content *Content, docs []model.Document) error {
	for i, f := range content.Fields {
		p := content.fieldPaths[i]
		if f.DocumentIndex >= len(docs) {
			return apierr.Badf(p+"[document_index]", "document_index %d does not name a document: %d document(s) were given.", f.DocumentIndex, len(docs))
		}
		d := docs[f.DocumentIndex]
		if f.Page > 0 && d.Error == "" && len(d.Pages) > 0 && f.Page > len(d.Pages) {
			return apierr.Badf(p+"[page]", "page %d is beyond the last page of document %d (%d pages).", f.Page, f.DocumentIndex, len(d.Pages))
		}
	}
	return nil
}
