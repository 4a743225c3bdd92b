package fields

// The form-field shapes of request bodies, shared by signature requests,
// templates and drafts.

// Group is SubFormFieldGroup.
type Group struct {
	GroupID     string `json:"group_id"`
	GroupLabel  string `json:"group_label"`
	Requirement string `json:"requirement"`
}

// Rule is SubFormFieldRule.
type Rule struct {
	ID              string        `json:"id"`
	TriggerOperator string        `json:"trigger_operator"`
	Triggers        []RuleTrigger `json:"triggers"`
	Actions         []RuleAction  `json:"actions"`
}

// RuleTrigger is SubFormFieldRuleTrigger.
type RuleTrigger struct {
	ID       string   `json:"id"`
	Operator string   `json:"operator"`
	Value    *string  `json:"value"`
	Values   []string `json:"values"`
}

// RuleAction is SubFormFieldRuleAction.
type RuleAction struct {
	FieldID string `json:"field_id"`
	GroupID string `json:"group_id"`
	Hidden  *bool  `json:"hidden"`
	Type    string `json:"type"`
}

// FormField is the union of the SubFormFieldsPerDocument* schemas, the
// form fields of signature requests and templates; the keys that do not
// belong to a field's type are ignored.
type FormField struct {
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

// SubAttachment is SubAttachment.
type SubAttachment struct {
	Name         string `json:"name"`
	Instructions string `json:"instructions"`
	Required     bool   `json:"required"`
	SignerIndex  *int   `json:"signer_index"`
}

// SubFieldOptions is SubFieldOptions.
type SubFieldOptions struct {
	DateFormat string `json:"date_format"`
}
