package sigreq

// Requests from templates: the body checks of the *_with_template
// operations, and the hook through which the templates subsystem hands over
// what its templates contain.

import (
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// TemplateBody is the validated template-specific part of a body.
type TemplateBody struct {
	TemplateIDs  []string
	Signers      []SubSigner
	CCs          []subCC
	CustomFields []subCustomField
}

// SetCustomField sets the value of the custom field name, adding it when
// the body has none of that name (bulk send's per-entry values override
// the common ones). It writes to CustomFields in place: callers that share
// the slice clone it first.
func (tb *TemplateBody) SetCustomField(name, value string) {
	for i := range tb.CustomFields {
		if tb.CustomFields[i].Name == name {
			tb.CustomFields[i].Value = value
			return
		}
	}
	tb.CustomFields = append(tb.CustomFields, subCustomField{Name: name, Value: value})
}

// CheckTemplateBody checks template_ids, role-bound signers and ccs.
// Signers are required unless signersOptional: template drafts may leave
// every role to the user who claims them, and bulk send takes its signers
// from the signer list.
func (b *Body) CheckTemplateBody(c *api.Call, signersOptional bool) (*TemplateBody, *apierr.Error) {
	if len(b.TemplateIDs) == 0 {
		return nil, apierr.Missing("template_ids")
	}
	for i, id := range b.TemplateIDs {
		if strings.TrimSpace(id) == "" {
			return nil, param.Blank("template_ids[" + itoa(i) + "]")
		}
	}
	if len(b.Signers) == 0 && !signersOptional {
		return nil, apierr.Missing("signers")
	}
	roles := map[string]bool{}
	for i, s := range b.Signers {
		p := "signers[" + itoa(i) + "]"
		if strings.TrimSpace(s.Role) == "" {
			return nil, apierr.Missing(p + "[role]")
		}
		if roles[s.Role] {
			return nil, apierr.Badf(p+"[role]", "Role %q is given to more than one signer.", s.Role)
		}
		roles[s.Role] = true
		if e := s.Check(p, false); e != nil {
			return nil, e
		}
	}
	ccRoles := map[string]bool{}
	for i, cc := range b.CCs {
		p := "ccs[" + itoa(i) + "]"
		switch {
		case strings.TrimSpace(cc.Role) == "":
			return nil, apierr.Missing(p + "[role]")
		case ccRoles[cc.Role]:
			return nil, apierr.Badf(p+"[role]", "Multiple CC recipients cannot share the same CC role (%q).", cc.Role)
		case strings.TrimSpace(cc.EmailAddress) == "":
			return nil, apierr.Missing(p + "[email_address]")
		case !param.ValidEmail(strings.TrimSpace(cc.EmailAddress)):
			return nil, apierr.Badf(p+"[email_address]", "Invalid email address: %s", cc.EmailAddress)
		}
		ccRoles[cc.Role] = true
	}
	if _, e := checkCustomFields(b.CustomFields, nil); e != nil {
		return nil, e
	}
	return &TemplateBody{TemplateIDs: dedupeTemplateIDs(c, b.TemplateIDs), Signers: b.Signers, CCs: b.CCs, CustomFields: b.CustomFields}, nil
}

// Resolve asks the templates (templateResolver) for the combined
// templates of tb's ids. Callers that bind several bodies to the same
// templates (bulk send) resolve once.
func (tb *TemplateBody) Resolve(c *api.Call, tx *state.Txn) (*template.Use, error) {
	return resolverOf(c.World)(c, tx, tb.TemplateIDs)
}

// BindTemplate resolves the templates of tb and binds the body to them
// (BindTemplateUse, every role filled).
func (spec *Spec) BindTemplate(c *api.Call, tx *state.Txn, tb *TemplateBody, extra []model.Document) error {
	use, err := tb.Resolve(c, tx)
	if err != nil {
		return err
	}
	if e := spec.BindTemplateUse(c, use, tb, extra, false); e != nil {
		return e
	}
	return nil
}

// BindTemplateUse binds a checked body to resolved templates: signers to
// signer roles, ccs to CC roles, custom_fields to merge fields, and the
// templates' documents, fields, rules, attachments and texts into spec.
// extra are documents uploaded with the request, appended after the
// templates'. It reads and writes nothing but spec (and c's warnings).
//
// Every role must be given unless leaveOpen (template drafts): then a role
// without a signer becomes a signer with no name or address in its slot,
// and a CC role without an address an empty CC address in its place, for
// the user who claims the draft to fill in.
func (spec *Spec) BindTemplateUse(c *api.Call, use *template.Use, tb *TemplateBody, extra []model.Document, leaveOpen bool) *apierr.Error {
	roleIndex := map[string]int{}
	var roleNames []string
	for i, r := range use.SignerRoles {
		roleIndex[r.Name] = i
		roleNames = append(roleNames, r.Name)
	}
	bySlot := make([]*SubSigner, len(use.SignerRoles))
	for i := range tb.Signers {
		s := &tb.Signers[i]
		idx, ok := roleIndex[s.Role]
		if !ok {
			return apierr.Badf("signers["+itoa(i)+"][role]", "Role %q is not a signer role of the template(s) (roles are case-sensitive: %s).", s.Role, strings.Join(roleNames, ", "))
		}
		bySlot[idx] = s
	}
	spec.Signers = nil
	for i, r := range use.SignerRoles {
		s := bySlot[i]
		if s == nil && !leaveOpen {
			return apierr.Badf("signers", "No signer is given for the template role %q.", r.Name)
		}
		if s == nil {
			s = &SubSigner{}
		}
		sg := s.Signature(i)
		// Template signers have no order of their own: the role's applies.
		sg.Role, sg.Order = r.Name, nil
		if r.Order != nil {
			o := *r.Order
			sg.Order = &o
		}
		spec.Signers = append(spec.Signers, sg)
	}
	ccByRole := map[string]string{}
	for i, cc := range tb.CCs {
		if !slices.Contains(use.CCRoles, cc.Role) {
			return apierr.Badf("ccs["+itoa(i)+"][role]", "Role %q is not a CC role of the template(s).", cc.Role)
		}
		ccByRole[cc.Role] = strings.TrimSpace(cc.EmailAddress)
	}
	spec.CCEmails = nil
	for _, role := range use.CCRoles {
		addr, ok := ccByRole[role]
		if !ok && !leaveOpen {
			return apierr.Badf("ccs", "No CC is given for the template CC role %q.", role)
		}
		spec.CCEmails = append(spec.CCEmails, addr)
	}
	cfs, e := checkCustomFields(tb.CustomFields, roleNames)
	if e != nil {
		return e
	}
	spec.CustomFields = nil
	given := map[string]model.CustomField{}
	for _, cf := range cfs {
		given[cf.Name] = cf
	}
	merged := map[string]bool{}
	for _, mf := range use.MergeFields {
		cf := given[mf.Name]
		cf.Name, cf.Type, cf.APIID = mf.Name, mf.Type, mf.APIID
		spec.CustomFields = append(spec.CustomFields, cf)
		merged[mf.Name] = true
	}
	for i, cf := range cfs {
		if !merged[cf.Name] {
			warnUnusedCustomField(c, i, cf.Name)
		}
	}
	spec.Documents = append(append([]model.Document(nil), use.Documents...), extra...)
	spec.FormFields = nil
	for _, f := range use.FormFields {
		if f.Role != "" {
			idx, ok := roleIndex[f.Role]
			if !ok {
				return apierr.Badf("template_ids", "A field of the template(s) names the unknown role %q.", f.Role)
			}
			f.Signer = itoa(idx)
		} else if f.Signer == "" {
			f.Signer = fields.SignerSender
		}
		spec.FormFields = append(spec.FormFields, f)
	}
	warnLongMergeValues(c, spec.CustomFields, spec.FormFields)
	spec.FieldGroups = append([]model.FieldGroup(nil), use.FieldGroups...)
	spec.FieldRules = append([]model.FieldRule(nil), use.FieldRules...)
	spec.Attachments = nil
	for _, a := range use.Attachments {
		spec.Attachments = append(spec.Attachments, model.Attachment{Name: a.Name, Instructions: a.Instructions, Required: a.Required, SignerIndex: roleIndex[a.Role]})
	}
	// The request's own texts and signer_experience prevail.
	param.FillBlank(&spec.Title, use.Title)
	param.FillBlank(&spec.Subject, use.Subject)
	param.FillBlank(&spec.Message, use.Message)
	param.FillBlank(&spec.FormView, use.FormView)
	spec.AllowReassign = use.AllowReassign
	spec.DateFormat = use.DateFormat
	spec.TemplateIDs = tb.TemplateIDs
	return nil
}
