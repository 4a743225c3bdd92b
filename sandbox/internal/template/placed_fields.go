package template

// The fields a person places on a template's documents, in the template
// editor page or through the control plane (PUT /_sandbox/templates/{id}/
// fields): every field of the signer roles at once, each on a document and
// page, checked as form_fields_per_document is at creation. Merge fields
// are declared with merge_fields and stay as they are.

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// placedField is a template's field as the editor and the control plane
// show and take it: its signer role by name and its page, which the API's
// template view does not carry.
type placedField struct {
	APIID         string `json:"api_id"`
	Name          string `json:"name"`
	Type          string `json:"type"`
	DocumentIndex int    `json:"document_index"`
	Page          int    `json:"page"`
	X             int    `json:"x"`
	Y             int    `json:"y"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	Required      bool   `json:"required"`
	Signer        string `json:"signer"`
	Group         string `json:"group,omitempty"`
	model.FieldKeys
}

// placedFields lists the template's signer fields (merge fields left out),
// a field without a page on page 1.
func placedFields(t *model.Template) []placedField {
	out := []placedField{}
	for _, f := range t.Fields {
		if f.Role < 0 || f.IsMerge() {
			continue
		}
		p := placedField{APIID: f.APIID, Name: f.Name, Type: f.Type, DocumentIndex: f.DocumentIndex, Page: max(f.Page, 1),
			X: f.X, Y: f.Y, Width: f.Width, Height: f.Height, Required: f.Required, Group: f.Group, FieldKeys: f.FieldKeys}
		if f.Role < len(t.SignerRoles) {
			p.Signer = t.SignerRoles[f.Role].Name
		}
		out = append(out, p)
	}
	return out
}

// withoutSignerFields keeps only a template's merge fields.
func withoutSignerFields(in []model.TemplateField) []model.TemplateField {
	var out []model.TemplateField
	for _, f := range in {
		if f.Role < 0 || f.IsMerge() {
			out = append(out, f)
		}
	}
	return out
}

// replacePlacedFields sets the signer fields of c (a clone) to raw, a list
// of field objects (path names the list in errors): each is checked as a
// created template's field is, must name one of c's signer roles, lie on
// one of its documents' pages and have its own api_id; conditional rules
// must keep their fields.
func replacePlacedFields(c *model.Template, raw []any, path string) error {
	out := withoutSignerFields(c.Fields)
	groups := map[string]int{}
	for i, g := range c.Groups {
		groups[g.GroupID] = i
	}
	seen := map[string]bool{}
	for _, f := range out {
		seen[strings.ToLower(f.APIID)] = true
	}
	for i, item := range raw {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, ok := item.(map[string]any)
		if !ok {
			return apierr.Badf(p, "%s must be a form field object", p)
		}
		var in fields.FormField
		if err := tplDecodeObject(m, &in, p); err != nil {
			return err
		}
		if in.Type == fields.TypeTextMerge || in.Type == fields.TypeCheckboxMerge {
			return apierr.Badf(p+"[type]", "Merge fields are declared with merge_fields, not placed for a signer role.")
		}
		if in.DocumentIndex == nil {
			in.DocumentIndex = intPtr(0)
		}
		f, err := tplField(in, p, c.SignerRoles, groups)
		if err != nil {
			return err
		}
		if seen[strings.ToLower(f.APIID)] {
			return apierr.Badf(p+"[api_id]", "Duplicate api_id %q: every field needs its own.", f.APIID)
		}
		seen[strings.ToLower(f.APIID)] = true
		if f.DocumentIndex >= len(c.Documents) {
			return apierr.Badf(p+"[document_index]", "document_index %d does not name a document: the template has %d.", f.DocumentIndex, len(c.Documents))
		}
		if pages := len(c.Documents[f.DocumentIndex].Pages); f.Page > 0 && pages > 0 && f.Page > pages {
			return apierr.Badf(p+"[page]", "page %d is beyond the last page of document %d (%d pages).", f.Page, f.DocumentIndex, pages)
		}
		out = append(out, f)
	}
	for _, r := range c.Rules {
		for _, id := range ruleFieldIDs(r) {
			if !seen[strings.ToLower(id)] {
				return apierr.Badf(path, "The conditional rule %q uses the field %q, which the template would no longer have.", r.ID, id)
			}
		}
	}
	c.Fields = out
	return nil
}

// ruleFieldIDs are the api_ids a conditional rule refers to.
func ruleFieldIDs(r model.FieldRule) []string {
	var ids []string
	for _, t := range r.Triggers {
		ids = append(ids, t.ID)
	}
	for _, a := range r.Actions {
		if a.FieldID != "" {
			ids = append(ids, a.FieldID)
		}
	}
	return ids
}
