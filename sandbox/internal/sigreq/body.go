package sigreq

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Body is the union of the eight create and edit request schemas
// (SignatureRequestSendRequest, ...CreateEmbeddedRequest, their
// *WithTemplate forms and the four Edit* twins, which have the same fields).
// Each operation checks the fields its schema has; unknown fields are
// ignored as the real API ignores them.
type Body struct {
	Files          []wire.File         `json:"files"`
	FileURLs       []string            `json:"file_urls"`
	Signers        []SubSigner         `json:"signers"`
	GroupedSigners []subGroupedSigners `json:"grouped_signers"`
	TemplateIDs    []string            `json:"template_ids"`
	CCs            []subCC             `json:"ccs"`

	AllowDecline     bool                    `json:"allow_decline"`
	AllowReassign    bool                    `json:"allow_reassign"`
	Attachments      []fields.SubAttachment  `json:"attachments"`
	CCEmailAddresses []string                `json:"cc_email_addresses"`
	ClientID         string                  `json:"client_id"`
	CustomFields     []subCustomField        `json:"custom_fields"`
	FieldOptions     *fields.SubFieldOptions `json:"field_options"`

	FormFieldGroups []fields.Group `json:"form_field_groups"`
	FormFieldRules  []fields.Rule  `json:"form_field_rules"`
	// FormFieldsPerDocument is decoded by fields.Decode: the official
	// flat list with document_index, or the older list of lists per
	// document.
	FormFieldsPerDocument any `json:"form_fields_per_document"`

	HideTextTags           bool                 `json:"hide_text_tags"`
	IsEID                  bool                 `json:"is_eid"`
	Message                *string              `json:"message"`
	Metadata               map[string]any       `json:"metadata"`
	SigningOptions         *subSigningOptions   `json:"signing_options"`
	SigningRedirectURL     string               `json:"signing_redirect_url"`
	Subject                *string              `json:"subject"`
	TestMode               bool                 `json:"test_mode"`
	Title                  *string              `json:"title"`
	UseTextTags            bool                 `json:"use_text_tags"`
	ExpiresAt              *int64               `json:"expires_at"`
	SignerExperience       *subSignerExperience `json:"signer_experience"`
	PopulateAutoFillFields bool                 `json:"populate_auto_fill_fields"`
}

// SubSigner is SubSignatureRequestSigner (and, with role,
// SubSignatureRequestTemplateSigner).
type SubSigner struct {
	Role               string `json:"role"`
	Name               string `json:"name"`
	EmailAddress       string `json:"email_address"`
	Order              *int   `json:"order"`
	PIN                string `json:"pin"`
	SMSPhoneNumber     string `json:"sms_phone_number"`
	SMSPhoneNumberType string `json:"sms_phone_number_type"`
}

// subGroupedSigners is SubSignatureRequestGroupedSigners.
type subGroupedSigners struct {
	Group   string      `json:"group"`
	Order   *int        `json:"order"`
	Signers []SubSigner `json:"signers"`
}

// subCC is the official SubCC.
type subCC struct {
	Role         string `json:"role"`
	EmailAddress string `json:"email_address"`
}

// subCustomField is the official SubCustomField.
type subCustomField struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Editor   string `json:"editor"`
	Required bool   `json:"required"`
}

// subSigningOptions is SubSigningOptions.
type subSigningOptions struct {
	DefaultType string `json:"default_type"`
	Draw        bool   `json:"draw"`
	Phone       bool   `json:"phone"`
	Type        bool   `json:"type"`
	Upload      bool   `json:"upload"`
}

// subSignerExperience is SubSignerExperience.
type subSignerExperience struct {
	FormView string `json:"form_view"`
}
