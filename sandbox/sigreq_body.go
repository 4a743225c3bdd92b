package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// sigreqBody is the union of the eight create and edit request schemas
// (SignatureRequestSendRequest, ...CreateEmbeddedRequest, their
// *WithTemplate forms and the four Edit* twins, which have the same fields).
// Each operation checks the fields its schema has; unknown fields are
// ignored as the real API ignores them.
type sigreqBody struct {
	Files          []wire.File         `json:"files"`
	FileURLs       []string            `json:"file_urls"`
	Signers        []subSigner         `json:"signers"`
	GroupedSigners []subGroupedSigners `json:"grouped_signers"`
	TemplateIDs    []string            `json:"template_ids"`
	CCs            []subCC             `json:"ccs"`

	AllowDecline     bool             `json:"allow_decline"`
	AllowReassign    bool             `json:"allow_reassign"`
	Attachments      []subAttachment  `json:"attachments"`
	CCEmailAddresses []string         `json:"cc_email_addresses"`
	ClientID         string           `json:"client_id"`
	CustomFields     []subCustomField `json:"custom_fields"`
	FieldOptions     *subFieldOptions `json:"field_options"`

	FormFieldGroups []subFormFieldGroup `json:"form_field_groups"`
	FormFieldRules  []subFormFieldRule  `json:"form_field_rules"`
	// FormFieldsPerDocument is decoded by decodeFormFields: the official
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

// subSigner is SubSignatureRequestSigner (and, with role,
// SubSignatureRequestTemplateSigner).
type subSigner struct {
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
	Signers []subSigner `json:"signers"`
}

// subCC is SubCC.
type subCC struct {
	Role         string `json:"role"`
	EmailAddress string `json:"email_address"`
}

// subAttachment is SubAttachment.
type subAttachment struct {
	Name         string `json:"name"`
	Instructions string `json:"instructions"`
	Required     bool   `json:"required"`
	SignerIndex  *int   `json:"signer_index"`
}

// subCustomField is SubCustomField.
type subCustomField struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Editor   string `json:"editor"`
	Required bool   `json:"required"`
}

// subFieldOptions is SubFieldOptions.
type subFieldOptions struct {
	DateFormat string `json:"date_format"`
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

// subFormFieldGroup is SubFormFieldGroup.
type subFormFieldGroup struct {
	GroupID     string `json:"group_id"`
	GroupLabel  string `json:"group_label"`
	Requirement string `json:"requirement"`
}

// subFormFieldRule is SubFormFieldRule.
type subFormFieldRule struct {
	ID              string           `json:"id"`
	TriggerOperator string           `json:"trigger_operator"`
	Triggers        []subRuleTrigger `json:"triggers"`
	Actions         []subRuleAction  `json:"actions"`
}

// subRuleTrigger is SubFormFieldRuleTrigger.
type subRuleTrigger struct {
	ID       string   `json:"id"`
	Operator string   `json:"operator"`
	Value    *string  `json:"value"`
	Values   []string `json:"values"`
}

// subRuleAction is SubFormFieldRuleAction.
type subRuleAction struct {
	FieldID string `json:"field_id"`
	GroupID string `json:"group_id"`
	Hidden  *bool  `json:"hidden"`
	Type    string `json:"type"`
}

// subFormField is the union of the SubFormFieldsPerDocument* schemas, the
// form fields of signature requests and templates; the keys that do not
// belong to a field's type are ignored.
type subFormField struct {
	DocumentIndex *int    `json:"document_index"`
	APIID         string  `json:"api_id"`
	Name          string  `json:"name"`
	Type          string  `json:"type"`
	X             *int    `json:"x"`
	Y             *int    `json:"y"`
	Width         *int    `json:"width"`
	Height        *int    `json:"height"`
	Page          *int    `json:"page"`
	Required      *bool   `json:"required"`
	Signer        *string `json:"signer"`

	Placeholder                      string   `json:"placeholder"`
	AutoFillType                     string   `json:"auto_fill_type"`
	LinkID                           string   `json:"link_id"`
	Masked                           bool     `json:"masked"`
	ValidationType                   string   `json:"validation_type"`
	ValidationCustomRegex            string   `json:"validation_custom_regex"`
	ValidationCustomRegexFormatLabel string   `json:"validation_custom_regex_format_label"`
	Content                          *string  `json:"content"`
	ContentURL                       string   `json:"content_url"`
	Options                          []string `json:"options"`
	Group                            string   `json:"group"`
	IsChecked                        *bool    `json:"is_checked"`
	// Checked is the older name of is_checked (1 or 0).
	Checked    *bool  `json:"checked"`
	FontFamily string `json:"font_family"`
	FontSize   *int   `json:"font_size"`
}
