package template

// This file decodes the template parts of create requests (signer roles, CC
// roles, form fields, groups, rules, merge fields, attachments) into the
// stored model, refusing what the real API refuses with the field's path.
// template/create and template/create_embedded_draft share it; the form
// fields themselves are checked in fields.go.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// tplRoleInput is SubTemplateRole.
type tplRoleInput struct {
	Name  *string `json:"name"`
	Order *int    `json:"order"`
}

// tplMergeFieldInput is SubMergeField.
type tplMergeFieldInput struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ContentInput is what template/create and create_embedded_draft share.
type ContentInput struct {
	Files           []wire.File             `json:"files"`
	FileURLs        []string                `json:"file_urls"`
	AllowReassign   bool                    `json:"allow_reassign"`
	Attachments     []fields.SubAttachment  `json:"attachments"`
	CCRoles         []string                `json:"cc_roles"`
	ClientID        string                  `json:"client_id"`
	FieldOptions    *fields.SubFieldOptions `json:"field_options"`
	FormFieldGroups []fields.Group          `json:"form_field_groups"`
	FormFieldRules  []fields.Rule           `json:"form_field_rules"`
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
	// UseTextTags and HideTextTags are the signature request parameters
	// the sandbox also takes for templates (text_tags.go); the
	// official template schemas do not list them.
	UseTextTags      bool `json:"use_text_tags"`
	HideTextTags     bool `json:"hide_text_tags"`
	SignerExperience *struct {
		FormView string `json:"form_view"`
	} `json:"signer_experience"`
}

// Content is the validated template content (everything but the
// documents, which are collected separately).
type Content struct {
	Title, Subject, Message string
	Metadata                json.RawMessage
	Roles                   []model.TemplateRole
	CCRoles                 []string
	Fields                  []model.TemplateField
	// fieldPaths are the request paths of Fields, for document checks.
	fieldPaths       []string
	Groups           []model.FieldGroup
	Rules            []model.FieldRule
	MergeFields      []model.TemplateMergeField
	Attachments      []fields.SubAttachment
	DateFormat       string
	SignerExperience string
}

// Enumerations of the template request schemas (the form field ones are in
// package fields).
var (
	tplTriggerOps      = []string{"any", "is", "match", "none", "not"}
	tplMergeFieldTypes = []string{"text", "checkbox"}
)

// BuildContent validates everything of a create request but the
// documents. rolesRequired is false for embedded drafts, whose roles the
// user may still define in the editor.
func BuildContent(in *ContentInput, rolesRequired, fieldsRequired bool, hasFields bool) (*Content, error) {
	out := &Content{Title: in.Title, Subject: in.Subject, Message: in.Message}
	if err := param.CheckMaxLen("subject", in.Subject, 200); err != nil {
		return nil, err
	}
	if err := param.CheckMaxLen("message", in.Message, 5000); err != nil {
		return nil, err
	}
	if err := param.CheckMaxLen("title", in.Title, 255); err != nil {
		return nil, err
	}
	md, e := param.MetadataJSON(in.Metadata)
	if e != nil {
		return nil, e
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
		if err := param.CheckMaxLen(p+"[name]", name, 255); err != nil {
			return nil, err
		}
		key := strings.ToLower(name)
		if seen[key] {
			return nil, apierr.Badf(p+"[name]", "Duplicate signer role name %q: role names must be unique.", name)
		}
		seen[key] = true
		role := model.TemplateRole{Name: name}
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

	merges, err := tplMergeFields(in.MergeFields)
	if err != nil {
		return nil, err
	}
	out.MergeFields = merges
	mergeSeen := map[string]string{}
	for _, m := range merges {
		mergeSeen[m.Name] = m.Type
	}

	if in.FieldOptions != nil {
		if e := fields.CheckDateFormat(in.FieldOptions.DateFormat); e != nil {
			return nil, e
		}
		out.DateFormat = in.FieldOptions.DateFormat
	}
	if in.SignerExperience != nil {
		if e := fields.CheckFormView(in.SignerExperience.FormView); e != nil {
			return nil, e
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
		case !slices.Contains(fields.CheckboxRequirements, g.Requirement):
			return nil, apierr.Badf(p+"[requirement]", "Invalid requirement %q: use one of %s.", g.Requirement, strings.Join(fields.CheckboxRequirements, ", "))
		}
		if _, dup := groupIdx[g.GroupID]; dup {
			return nil, apierr.Badf(p+"[group_id]", "Duplicate group_id %q.", g.GroupID)
		}
		groupIdx[g.GroupID] = i
		out.Groups = append(out.Groups, model.FieldGroup{GroupID: g.GroupID, GroupLabel: g.GroupLabel, Requirement: g.Requirement})
	}

	if fieldsRequired && !hasFields {
		return nil, apierr.Missing(FieldsPath)
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
		if groupTypes[g.GroupID] == "radio" {
			if !slices.Contains(fields.RadioRequirements, g.Requirement) {
				return nil, apierr.Badf(fmt.Sprintf("form_field_groups[%d][requirement]", i), "Invalid requirement %q for a radio group: use require_0-1 or require_1.", g.Requirement)
			}
			if radioCount[g.GroupID] < 2 {
				return nil, apierr.Badf(fmt.Sprintf("form_field_groups[%d][group_id]", i), "Radio group %q needs at least two radio fields.", g.GroupID)
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

// tplMergeFields checks merge_fields (SubMergeField, in template/create,
// create_embedded_draft and embedded/edit_url): every entry named, of type
// text or checkbox, names unique.
func tplMergeFields(in []tplMergeFieldInput) ([]model.TemplateMergeField, error) {
	var out []model.TemplateMergeField
	seen := map[string]bool{}
	for i, m := range in {
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
		if seen[name] {
			return nil, apierr.Badf(p+"[name]", "Duplicate merge field name %q: merge field names must be unique.", name)
		}
		seen[name] = true
		out = append(out, model.TemplateMergeField{Name: name, Type: m.Type})
	}
	return out, nil
}
