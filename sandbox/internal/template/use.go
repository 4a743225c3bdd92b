package template

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Use is what templates contribute to a signature request, all
// templates of template_ids combined in the order given.
type Use struct {
	// Documents are the templates' stored documents, in order; documents
	// uploaded with the request are appended after them.
	Documents []model.Document
	// SignerRoles are the roles signers must fill, in the templates'
	// order; Order is the role's signing order (nil when unordered).
	SignerRoles []Role
	// CCRoles are the CC roles; each must be given an address in ccs.
	CCRoles []string
	// FormFields are the templates' fields with DocumentIndex into
	// Documents and Role naming the signer role that fills each (Signer
	// left empty); merge fields (text-merge, checkbox-merge) have Role ""
	// and Signer "sender".
	FormFields  []model.FormField
	FieldGroups []model.FieldGroup
	FieldRules  []model.FieldRule
	// MergeFields are the templates' custom (merge) fields, which
	// custom_fields fill by name.
	MergeFields []MergeField
	// Attachments are the templates' signer attachments, by role.
	Attachments []Attachment
	// Title, Subject and Message are the templates' defaults, used when the
	// request gives none.
	Title, Subject, Message string
	// AllowReassign is the templates' allow_reassign.
	AllowReassign bool
	// DateFormat (field_options.date_format) and FormView
	// (signer_experience.form_view) are the templates' settings, "" when
	// none sets them; the request's own signer_experience prevails.
	DateFormat, FormView string
}

// Role is a signer role of a template.
type Role struct {
	Name  string
	Order *int
}

// MergeField is a merge field of a template.
type MergeField struct {
	Name  string
	Type  string // text or checkbox
	APIID string
}

// Attachment is a signer attachment of a template.
type Attachment struct {
	Name, Instructions, Role string
	Required                 bool
}

// RoleNames lists the signer roles' names in order: drafts and bulk sends
// quote them when the roles given do not match the templates'.
func (u *Use) RoleNames() []string {
	out := make([]string, 0, len(u.SignerRoles))
	for _, r := range u.SignerRoles {
		out = append(out, r.Name)
	}
	return out
}
