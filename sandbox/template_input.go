package sandbox

// This file decodes the template parts of create requests (signer roles, CC
// roles, form fields, groups, rules, merge fields, attachments) into the
// stored model, refusing what the real API refuses with the field's path.
// template/create and template/create_embedded_draft share it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// tplRoleInput is SubTemplateRole.
type tplRoleInput struct {
	Name  *string `json:"name"`
	Order *int    `json:"order"`
}

// tplSigner is the int-or-string signer of a form field: a role index, a
// role name, or "sender" for merge fields.
type tplSigner struct {
	Value string
	Set   bool
}

// UnmarshalWire accepts a number or a string, as the official SDKs send
// either.
func (s *tplSigner) UnmarshalWire(v any, path string) error {
	switch t := v.(type) {
	case nil:
		return nil
	case json.Number:
		s.Value, s.Set = string(t), true
	case string:
		s.Value, s.Set = strings.TrimSpace(t), true
	default:
		return apierr.Badf(path, "%s must be a signer role index or name", path)
	}
	return nil
}

// tplFieldInput is SubFormFieldsPerDocumentBase with the keys of every
// subtype.
type tplFieldInput struct {
	DocumentIndex *int      `json:"document_index"`
	APIID         *string   `json:"api_id"`
	Name          string    `json:"name"`
	Type          *string   `json:"type"`
	Signer        tplSigner `json:"signer"`
	X             *int      `json:"x"`
	Y             *int      `json:"y"`
	Width         *int      `json:"width"`
	Height        *int      `json:"height"`
	Page          *int      `json:"page"`
	Required      *bool     `json:"required"`
	Group         string    `json:"group"`

	Placeholder                      string   `json:"placeholder"`
	AutoFillType                     string   `json:"auto_fill_type"`
	LinkID                           string   `json:"link_id"`
	Masked                           bool     `json:"masked"`
	ValidationType                   string   `json:"validation_type"`
	ValidationCustomRegex            string   `json:"validation_custom_regex"`
	ValidationCustomRegexFormatLabel string   `json:"validation_custom_regex_format_label"`
	Content                          string   `json:"content"`
	ContentURL                       string   `json:"content_url"`
	Options                          []string `json:"options"`
	IsChecked                        *bool    `json:"is_checked"`
	// Checked is the legacy spelling of is_checked (constants reference).
	Checked    *bool  `json:"checked"`
	FontFamily string `json:"font_family"`
	FontSize   *int   `json:"font_size"`
}

// tplGroupInput is SubFormFieldGroup.
type tplGroupInput struct {
	GroupID     string `json:"group_id"`
	GroupLabel  string `json:"group_label"`
	Requirement string `json:"requirement"`
}

// tplRuleInput is SubFormFieldRule.
type tplRuleInput struct {
	ID              string `json:"id"`
	TriggerOperator string `json:"trigger_operator"`
	Triggers        []struct {
		ID       string   `json:"id"`
		Operator string   `json:"operator"`
		Value    *string  `json:"value"`
		Values   []string `json:"values"`
	} `json:"triggers"`
	Actions []struct {
		FieldID string `json:"field_id"`
		GroupID string `json:"group_id"`
		Hidden  *bool  `json:"hidden"`
		Type    string `json:"type"`
	} `json:"actions"`
}

// tplMergeFieldInput is SubMergeField.
type tplMergeFieldInput struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// tplAttachmentInput is SubAttachment.
type tplAttachmentInput struct {
	Name         string `json:"name"`
	Instructions string `json:"instructions"`
	Required     bool   `json:"required"`
	SignerIndex  *int   `json:"signer_index"`
}

// tplContentInput is what template/create and create_embedded_draft share.
type tplContentInput struct {
	Files         []wire.File          `json:"files"`
	FileURLs      []string             `json:"file_urls"`
	AllowReassign bool                 `json:"allow_reassign"`
	Attachments   []tplAttachmentInput `json:"attachments"`
	CCRoles       []string             `json:"cc_roles"`
	ClientID      string               `json:"client_id"`
	FieldOptions  *struct {
		DateFormat string `json:"date_format"`
	} `json:"field_options"`
	FormFieldGroups []tplGroupInput `json:"form_field_groups"`
	FormFieldRules  []tplRuleInput  `json:"form_field_rules"`
	// FormFieldsPerDocument is decoded by hand: a list of field objects, or
	// the legacy list with one list of fields per document.
	FormFieldsPerDocument []any                `json:"form_fields_per_document"`
	MergeFields           []tplMergeFieldInput `json:"merge_fields"`
	Message               string               `json:"message"`
	Metadata              map[string]any       `json:"metadata"`
	SignerRoles           []tplRoleInput       `json:"signer_roles"`
	Subject               string               `json:"subject"`
	TestMode              bool                 `json:"test_mode"`
	Title                 string               `json:"title"`
	UsePreexistingFields  bool                 `json:"use_preexisting_fields"`
	SignerExperience      *struct {
		FormView string `json:"form_view"`
	} `json:"signer_experience"`
}

// tplContent is the validated template content (everything but the
// documents, which are collected separately).
type tplContent struct {
	Title, Subject, Message string
	Metadata                json.RawMessage
	Roles                   []state.TemplateRole
	CCRoles                 []string
	Fields                  []state.TemplateField
	// fieldPaths are the request paths of Fields, for document checks.
	fieldPaths       []string
	Groups           []state.TemplateFieldGroup
	Rules            []state.TemplateFieldRule
	MergeFields      []state.TemplateMergeField
	Attachments      []tplAttachmentInput
	DateFormat       string
	SignerExperience string
}

// Enumerations of the official request schemas.
var (
	tplFieldTypes = []string{"text", "checkbox", "date_signed", "dropdown", "hyperlink", "initials", "radio",
		"signature", "text-merge", "checkbox-merge"}
	tplFontFamilies = []string{"helvetica", "arial", "courier", "calibri", "cambria", "georgia", "times", "trebuchet",
		"verdana", "roboto", "robotoMono", "notoSans", "notoSerif", "notoCJK-JP-Regular", "notoHebrew-Regular",
		"notoSanThaiMerged"}
	tplValidationTypes = []string{"numbers_only", "letters_only", "phone_number", "bank_routing_number",
		"bank_account_number", "email_address", "zip_code", "social_security_number",
		"employer_identification_number", "custom_regex"}
	tplAutoFillTypes   = []string{"firstName", "lastName", "name", "email", "company", "title"}
	tplDateFormats     = []string{"MM / DD / YYYY", "MM - DD - YYYY", "DD / MM / YYYY", "DD - MM - YYYY", "YYYY / MM / DD", "YYYY - MM - DD"}
	tplFormViews       = []string{"disabled", "enabled", "enabled_by_default", "forced"}
	tplCheckboxRules   = []string{"require_0-1", "require_1", "require_1-ormore"}
	tplRadioRules      = []string{"require_0-1", "require_1"}
	tplTriggerOps      = []string{"any", "is", "match", "none", "not"}
	tplMergeFieldTypes = []string{"text", "checkbox"}
)

// tplFieldsPath is the request parameter of form fields.
const tplFieldsPath = "form_fields_per_document"

// decodeTemplateFields turns form_fields_per_document into field inputs
// with their paths. The legacy form (one list per document) gives each
// field its list's index as document_index.
func decodeTemplateFields(raw []any) ([]tplFieldInput, []string, error) {
	var out []tplFieldInput
	var paths []string
	for i, item := range raw {
		p := fmt.Sprintf("%s[%d]", tplFieldsPath, i)
		item, err := tplJSONText(item, p)
		if err != nil {
			return nil, nil, err
		}
		switch t := item.(type) {
		case map[string]any:
			var f tplFieldInput
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
				var f tplFieldInput
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

// buildTemplateContent validates everything of a create request but the
// documents. rolesRequired is false for embedded drafts, whose roles the
// user may still define in the editor.
func buildTemplateContent(in *tplContentInput, rolesRequired, fieldsRequired bool, hasFields bool) (*tplContent, error) {
	out := &tplContent{Title: in.Title, Subject: in.Subject, Message: in.Message}
	if err := checkMaxLen("subject", in.Subject, 200); err != nil {
		return nil, err
	}
	if err := checkMaxLen("message", in.Message, 5000); err != nil {
		return nil, err
	}
	if err := checkMaxLen("title", in.Title, 255); err != nil {
		return nil, err
	}
	md, err := tplMetadata(in.Metadata)
	if err != nil {
		return nil, err
	}
	out.Metadata = md

	// Signer roles: required, named, unique.
	if len(in.SignerRoles) == 0 && rolesRequired {
		return nil, apierr.Missing("signer_roles")
	}
	seen := map[string]bool{}
	orders := map[int]bool{}
	for i, r := range in.SignerRoles {
		p := fmt.Sprintf("signer_roles[%d]", i)
		if r.Name == nil || strings.TrimSpace(*r.Name) == "" {
			return nil, apierr.Missing(p + "[name]")
		}
		name := strings.TrimSpace(*r.Name)
		if err := checkMaxLen(p+"[name]", name, 255); err != nil {
			return nil, err
		}
		key := strings.ToLower(name)
		if seen[key] {
			return nil, apierr.Badf(p+"[name]", "Duplicate signer role name %q: role names must be unique.", name)
		}
		seen[key] = true
		role := state.TemplateRole{Name: name}
		if r.Order != nil {
			if *r.Order < 0 {
				return nil, apierr.Badf(p+"[order]", "%s[order] must be 0 or greater.", p)
			}
			if orders[*r.Order] {
				return nil, apierr.Badf(p+"[order]", "Two signer roles have order %d.", *r.Order)
			}
			orders[*r.Order] = true
			role.Order = intPtr(*r.Order)
		}
		out.Roles = append(out.Roles, role)
	}

	// CC roles: named, unique, distinct from signer roles.
	ccSeen := map[string]bool{}
	for i, name := range in.CCRoles {
		p := fmt.Sprintf("cc_roles[%d]", i)
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, apierr.Badf(p, "This value should not be blank")
		}
		key := strings.ToLower(name)
		if ccSeen[key] {
			return nil, apierr.Badf(p, "Duplicate CC role name %q: role names must be unique.", name)
		}
		if seen[key] {
			return nil, apierr.Badf(p, "%q is already a signer role: a CC role needs its own name.", name)
		}
		ccSeen[key] = true
		out.CCRoles = append(out.CCRoles, name)
	}

	// Merge fields: named, typed, unique.
	mergeSeen := map[string]string{}
	for i, m := range in.MergeFields {
		p := fmt.Sprintf("merge_fields[%d]", i)
		name := strings.TrimSpace(m.Name)
		if name == "" {
			return nil, apierr.Missing(p + "[name]")
		}
		if !slices.Contains(tplMergeFieldTypes, m.Type) {
			if m.Type == "" {
				return nil, apierr.Missing(p + "[type]")
			}
			return nil, apierr.Badf(p+"[type]", "Invalid merge field type %q: use text or checkbox.", m.Type)
		}
		if _, dup := mergeSeen[name]; dup {
			return nil, apierr.Badf(p+"[name]", "Duplicate merge field name %q: merge field names must be unique.", name)
		}
		mergeSeen[name] = m.Type
		out.MergeFields = append(out.MergeFields, state.TemplateMergeField{Name: name, Type: m.Type})
	}

	if in.FieldOptions != nil {
		if !slices.Contains(tplDateFormats, in.FieldOptions.DateFormat) {
			if in.FieldOptions.DateFormat == "" {
				return nil, apierr.Missing("field_options[date_format]")
			}
			return nil, apierr.Badf("field_options[date_format]", "Invalid date_format %q: use one of %s.", in.FieldOptions.DateFormat, strings.Join(tplDateFormats, ", "))
		}
		out.DateFormat = in.FieldOptions.DateFormat
	}
	if in.SignerExperience != nil {
		if !slices.Contains(tplFormViews, in.SignerExperience.FormView) {
			return nil, apierr.Badf("signer_experience[form_view]", "Invalid form_view %q: use one of %s.", in.SignerExperience.FormView, strings.Join(tplFormViews, ", "))
		}
		out.SignerExperience = in.SignerExperience.FormView
	}

	// Groups before fields, which reference them.
	groupIdx := map[string]int{}
	for i, g := range in.FormFieldGroups {
		p := fmt.Sprintf("form_field_groups[%d]", i)
		switch {
		case strings.TrimSpace(g.GroupID) == "":
			return nil, apierr.Missing(p + "[group_id]")
		case strings.TrimSpace(g.GroupLabel) == "":
			return nil, apierr.Missing(p + "[group_label]")
		case g.Requirement == "":
			return nil, apierr.Missing(p + "[requirement]")
		case !slices.Contains(tplCheckboxRules, g.Requirement):
			return nil, apierr.Badf(p+"[requirement]", "Invalid requirement %q: use one of %s.", g.Requirement, strings.Join(tplCheckboxRules, ", "))
		}
		if _, dup := groupIdx[g.GroupID]; dup {
			return nil, apierr.Badf(p+"[group_id]", "Duplicate group_id %q.", g.GroupID)
		}
		groupIdx[g.GroupID] = i
		out.Groups = append(out.Groups, state.TemplateFieldGroup{ID: g.GroupID, Label: g.GroupLabel, Requirement: g.Requirement})
	}

	if fieldsRequired && !hasFields {
		return nil, apierr.Missing(tplFieldsPath)
	}
	inputs, paths, err := decodeTemplateFields(in.FormFieldsPerDocument)
	if err != nil {
		return nil, err
	}
	apiIDs := map[string]int{}
	groupTypes := map[string]string{}
	radioCount := map[string]int{}
	radioChecked := map[string]bool{}
	for i, f := range inputs {
		tf, err := tplField(f, paths[i], out.Roles, groupIdx)
		if err != nil {
			return nil, err
		}
		if _, dup := apiIDs[tf.APIID]; dup {
			return nil, apierr.Badf(paths[i]+"[api_id]", "Duplicate api_id %q: api_id must be unique across all documents.", tf.APIID)
		}
		apiIDs[tf.APIID] = len(out.Fields)
		if tf.Group != "" {
			kind := "checkbox"
			if tf.Type == "radio" {
				kind = "radio"
				radioCount[tf.Group]++
				if tf.IsChecked {
					if radioChecked[tf.Group] {
						return nil, apierr.Badf(paths[i]+"[is_checked]", "Only one radio field of group %q can be checked.", tf.Group)
					}
					radioChecked[tf.Group] = true
				}
			}
			if prev, ok := groupTypes[tf.Group]; ok && prev != kind {
				return nil, apierr.Badf(paths[i]+"[group]", "Group %q mixes checkbox and radio fields.", tf.Group)
			}
			groupTypes[tf.Group] = kind
		}
		if tf.IsMerge() {
			want := "text"
			if tf.Type == "checkbox-merge" {
				want = "checkbox"
			}
			if t, ok := mergeSeen[tf.Name]; ok && t != want {
				return nil, apierr.Badf(paths[i]+"[type]", "Merge field %q is declared as %s in merge_fields.", tf.Name, t)
			}
		}
		out.Fields = append(out.Fields, tf)
		out.fieldPaths = append(out.fieldPaths, paths[i])
	}
	for i, g := range out.Groups {
		if groupTypes[g.ID] == "radio" {
			if !slices.Contains(tplRadioRules, g.Requirement) {
				return nil, apierr.Badf(fmt.Sprintf("form_field_groups[%d][requirement]", i), "Invalid requirement %q for a radio group: use require_0-1 or require_1.", g.Requirement)
			}
			if radioCount[g.ID] < 2 {
				return nil, apierr.Badf(fmt.Sprintf("form_field_groups[%d][group_id]", i), "Radio group %q needs at least two radio fields.", g.ID)
			}
		}
	}

	rules, err := tplRules(in.FormFieldRules, out.Fields, apiIDs, groupIdx)
	if err != nil {
		return nil, err
	}
	out.Rules = rules

	for i, a := range in.Attachments {
		p := fmt.Sprintf("attachments[%d]", i)
		if strings.TrimSpace(a.Name) == "" {
			return nil, apierr.Missing(p + "[name]")
		}
		if a.SignerIndex == nil {
			return nil, apierr.Missing(p + "[signer_index]")
		}
		if *a.SignerIndex < 0 || *a.SignerIndex >= len(out.Roles) {
			return nil, apierr.Badf(p+"[signer_index]", "signer_index %d does not name a signer role (the template has %d).", *a.SignerIndex, len(out.Roles))
		}
		out.Attachments = append(out.Attachments, a)
	}
	return out, nil
}

// tplField validates one form field and resolves its signer to a role.
func tplField(f tplFieldInput, p string, roles []state.TemplateRole, groups map[string]int) (state.TemplateField, error) {
	var tf state.TemplateField
	if f.Type == nil || *f.Type == "" {
		return tf, apierr.Missing(p + "[type]")
	}
	if !slices.Contains(tplFieldTypes, *f.Type) {
		return tf, apierr.Badf(p+"[type]", "Invalid form field type %q: use one of %s.", *f.Type, strings.Join(tplFieldTypes, ", "))
	}
	if f.APIID == nil || strings.TrimSpace(*f.APIID) == "" {
		return tf, apierr.Missing(p + "[api_id]")
	}
	if f.DocumentIndex == nil {
		return tf, apierr.Missing(p + "[document_index]")
	}
	if *f.DocumentIndex < 0 {
		return tf, apierr.Badf(p+"[document_index]", "document_index must be 0 or greater.")
	}
	for _, d := range []struct {
		name string
		v    *int
		min  int
	}{{"x", f.X, 0}, {"y", f.Y, 0}, {"width", f.Width, 1}, {"height", f.Height, 1}} {
		if d.v == nil {
			return tf, apierr.Missing(p + "[" + d.name + "]")
		}
		if *d.v < d.min {
			return tf, apierr.Badf(p+"["+d.name+"]", "%s must be %d or greater.", d.name, d.min)
		}
	}
	tf = state.TemplateField{
		APIID: strings.TrimSpace(*f.APIID), Name: f.Name, Type: *f.Type, DocumentIndex: *f.DocumentIndex,
		X: *f.X, Y: *f.Y, Width: *f.Width, Height: *f.Height, Group: f.Group,
		Placeholder: f.Placeholder, AutoFillType: f.AutoFillType, LinkID: f.LinkID, Masked: f.Masked,
		ValidationType: f.ValidationType, ValidationCustomRegex: f.ValidationCustomRegex,
		ValidationCustomRegexFormatLabel: f.ValidationCustomRegexFormatLabel,
		Content:                          f.Content, ContentURL: f.ContentURL, Options: f.Options, FontFamily: f.FontFamily,
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
	if f.FontSize != nil {
		if *f.FontSize < 7 || *f.FontSize > 49 {
			return tf, apierr.Badf(p+"[font_size]", "font_size must be between 7 and 49.")
		}
		tf.FontSize = *f.FontSize
	}
	if f.FontFamily != "" && !slices.Contains(tplFontFamilies, f.FontFamily) {
		return tf, apierr.Badf(p+"[font_family]", "Invalid font_family %q.", f.FontFamily)
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
	case "dropdown":
		if len(f.Options) == 0 {
			return tf, apierr.Missing(p + "[options]")
		}
		if f.Content != "" && !slices.Contains(f.Options, f.Content) {
			return tf, apierr.Badf(p+"[content]", "content %q is not one of the options.", f.Content)
		}
	case "hyperlink":
		if f.Content == "" {
			return tf, apierr.Missing(p + "[content]")
		}
		if f.ContentURL == "" {
			return tf, apierr.Missing(p + "[content_url]")
		}
	case "radio":
		if f.Group == "" {
			return tf, apierr.Missing(p + "[group]")
		}
	case "text":
		if f.ValidationType != "" && !slices.Contains(tplValidationTypes, f.ValidationType) {
			return tf, apierr.Badf(p+"[validation_type]", "Invalid validation_type %q.", f.ValidationType)
		}
		if f.ValidationType == "custom_regex" {
			if f.ValidationCustomRegex == "" {
				return tf, apierr.Missing(p + "[validation_custom_regex]")
			}
			if _, err := regexp.Compile(f.ValidationCustomRegex); err != nil {
				return tf, apierr.Badf(p+"[validation_custom_regex]", "validation_custom_regex is not a valid regular expression: %v", err)
			}
		}
		if f.AutoFillType != "" && !slices.Contains(tplAutoFillTypes, f.AutoFillType) {
			return tf, apierr.Badf(p+"[auto_fill_type]", "Invalid auto_fill_type %q: use one of %s.", f.AutoFillType, strings.Join(tplAutoFillTypes, ", "))
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

// tplFieldRole resolves a field's signer: a 0-based role index or a role
// name; merge fields belong to the sender ("sender", or no signer).
func tplFieldRole(s tplSigner, merge bool, path string, roles []state.TemplateRole) (int, error) {
	v := s.Value
	if merge && (!s.Set || v == "" || strings.EqualFold(v, "sender")) {
		return -1, nil
	}
	if !s.Set || v == "" {
		return 0, apierr.Missing(path)
	}
	if strings.EqualFold(v, "sender") || strings.EqualFold(v, "me_now") {
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
func tplRules(in []tplRuleInput, fields []state.TemplateField, apiIDs map[string]int, groups map[string]int) ([]state.TemplateFieldRule, error) {
	var out []state.TemplateFieldRule
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
		rule := state.TemplateFieldRule{ID: r.ID, TriggerOperator: op, Triggers: []state.TemplateRuleTrigger{{ID: tr.ID, Operator: tr.Operator, Values: tr.Values}}}
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
			rule.Actions = append(rule.Actions, state.TemplateRuleAction{FieldID: a.FieldID, GroupID: a.GroupID, Hidden: *a.Hidden, Type: a.Type})
		}
		out = append(out, rule)
	}
	return out, nil
}

// tplMetadata checks metadata as the official description states it (up
// to 10 keys, or 50 keys counting nested objects; keys of up to 40
// characters; values of up to 1000) and keeps it as exact JSON.
func tplMetadata(m map[string]any) (json.RawMessage, error) {
	if len(m) == 0 {
		return json.RawMessage(`{}`), nil
	}
	if len(m) > 10 {
		return nil, apierr.Badf("metadata", "metadata can have at most 10 keys (got %d).", len(m))
	}
	if n := tplCountKeys(m); n > 50 {
		return nil, apierr.Badf("metadata", "metadata can have at most 50 keys counting nested keys (got %d).", n)
	}
	for _, k := range sortedStringKeys(m) {
		if len([]rune(k)) > 40 {
			return nil, apierr.Badf("metadata["+k+"]", "metadata keys can be at most 40 characters.")
		}
		b, err := json.Marshal(m[k])
		if err != nil {
			return nil, apierr.Badf("metadata["+k+"]", "Invalid metadata value.")
		}
		n := len([]rune(string(b)))
		if s, ok := m[k].(string); ok {
			n = len([]rune(s))
		}
		if n > 1000 {
			return nil, apierr.Badf("metadata["+k+"]", "metadata values can be at most 1000 characters.")
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, apierr.Badf("metadata", "Invalid metadata.")
	}
	return b, nil
}

// tplCountKeys counts the keys of an object and of the objects nested in it.
func tplCountKeys(v any) int {
	n := 0
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			n += 1 + tplCountKeys(x)
		}
	case []any:
		for _, x := range t {
			n += tplCountKeys(x)
		}
	}
	return n
}

// sortedStringKeys returns a map's keys in order.
func sortedStringKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkTemplateDocuments checks what needs the documents: every field on an
// existing document and page.
func checkTemplateDocuments(content *tplContent, docs []state.Document) error {
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
