package model

import "encoding/json"

// Template statuses. The official TemplateResponse has no status field; the
// sandbox keeps one to drive 409s, template_created and template_error.
const (
	// TemplateDraft is an embedded draft the user has not saved in the
	// editor yet.
	TemplateDraft = "draft"
	// TemplatePreparing is a template whose files are being processed
	// (until the world's TemplatePreparationDelay has passed).
	TemplatePreparing = "preparing"
	// TemplateReady is a usable template (template_created was emitted).
	TemplateReady = "ready"
	// TemplateError is a template whose preparation failed (template_error
	// was emitted); it can be read and deleted, not used.
	TemplateError = "error"
)

// Template is a reusable set of documents with form fields and signer roles.
type Template struct {
	ID  string `json:"template_id"`
	Seq uint64 `json:"seq"`
	// OwnerID is the account that created the template.
	OwnerID string `json:"owner_account_id"`
	// ClientID is the API app the template was created with; a template
	// with a client_id is embedded (is_embedded, edit URLs).
	ClientID string `json:"client_id,omitempty"`

	Title   string `json:"title"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	// Metadata is the JSON object as given, numbers exact ("{}" when none).
	Metadata json.RawMessage `json:"metadata,omitempty"`

	SignerRoles []TemplateRole `json:"signer_roles"`
	CCRoles     []string       `json:"cc_roles"`

	// Documents are the template's files, in order.
	Documents []Document `json:"documents"`
	// Fields are the form fields and merge fields of every document.
	Fields []TemplateField `json:"fields"`
	// Groups are the form_field_groups (checkbox and radio groups) and
	// Rules the conditional-logic rules (form_field_rules), stored as
	// signature requests store theirs; rules refer to fields by the
	// template's api_ids.
	Groups []FieldGroup `json:"groups,omitempty"`
	Rules  []FieldRule  `json:"rules,omitempty"`
	// MergeFields are the declared merge fields (merge_fields), which
	// requests fill with custom_fields.
	MergeFields []TemplateMergeField `json:"merge_fields,omitempty"`
	// Attachments are the signer attachments the template asks for.
	Attachments []TemplateAttachment `json:"attachments,omitempty"`

	AllowReassign bool `json:"allow_reassign"`
	// AllowCCs is the create_embedded_draft option (default true).
	AllowCCs bool `json:"allow_ccs"`
	// SignerExperience is the form_view of signer_experience ("" = unset).
	SignerExperience string `json:"signer_experience,omitempty"`
	// DateFormat is field_options.date_format ("" = account default).
	DateFormat           string `json:"date_format,omitempty"`
	UsePreexistingFields bool   `json:"use_preexisting_fields,omitempty"`

	// TestMode is set for templates created with test_mode.
	TestMode bool `json:"test_mode"`
	// IsLocked templates were created outside the template quota (in
	// test_mode) and can only be used in test_mode.
	IsLocked bool `json:"is_locked"`
	// QuotaCharged says the creation took one unit of the owner's
	// templates_left (given back on deletion or failed preparation).
	QuotaCharged bool `json:"quota_charged"`

	// SharedWith are the accounts the owner shared the template with, in
	// the order they were added.
	SharedWith []string `json:"shared_with,omitempty"`

	Status string `json:"status"`
	// ErrorMessage says why preparation failed (event_message of
	// template_error).
	ErrorMessage string `json:"error_message,omitempty"`
	CreatedAt    int64  `json:"created_at"`
	UpdatedAt    int64  `json:"updated_at"`

	// OverlayOf is the template whose files update_files replaced to make
	// this one; OverlayPages are that template's pages when the overlay
	// was requested (the new files are measured against them).
	OverlayOf    string `json:"overlay_of,omitempty"`
	OverlayPages []Page `json:"overlay_pages,omitempty"`

	// Editor holds the embedded editor options of the draft.
	Editor *TemplateEditorOptions `json:"editor,omitempty"`
}

// TemplateRole is a signer role; Order is nil when the roles sign in any
// order.
type TemplateRole struct {
	Name  string `json:"name"`
	Order *int   `json:"order,omitempty"`
}

// TemplateField is one form field (or placed merge field) of a template,
// kept with the request-side type names (text-merge, checkbox-merge, ...).
type TemplateField struct {
	APIID         string `json:"api_id"`
	Name          string `json:"name"`
	Type          string `json:"type"`
	DocumentIndex int    `json:"document_index"`
	// Page is the 1-based page; 0 means the legacy coordinate system
	// (no page given), which the sandbox places on page 1.
	Page   int `json:"page,omitempty"`
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
	// Role is the 0-based index of the signer role that fills the field,
	// or -1 for merge fields filled by the sender.
	Role     int    `json:"role"`
	Required bool   `json:"required"`
	Group    string `json:"group,omitempty"`
	FieldKeys
}

// IsMerge reports whether the field is filled by the sender through
// custom_fields (text-merge, checkbox-merge).
func (f TemplateField) IsMerge() bool { return f.Type == "text-merge" || f.Type == "checkbox-merge" }

// TemplateMergeField is a declared merge field (merge_fields): type "text"
// or "checkbox".
type TemplateMergeField struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// TemplateAttachment is a signer attachment of a template; Role is the
// signer role's 0-based index.
type TemplateAttachment struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Instructions string `json:"instructions,omitempty"`
	Role         int    `json:"role"`
	Required     bool   `json:"required"`
}

// TemplateEditorOptions are the options of an embedded editing session.
type TemplateEditorOptions struct {
	ForceSignerRoles    bool `json:"force_signer_roles,omitempty"`
	ForceSubjectMessage bool `json:"force_subject_message,omitempty"`
	ShowPreview         bool `json:"show_preview,omitempty"`
	PreviewOnly         bool `json:"preview_only,omitempty"`
	ShowProgressStepper bool `json:"show_progress_stepper,omitempty"`
	SkipMeNow           bool `json:"skip_me_now,omitempty"`
	AllowEditSigners    bool `json:"allow_edit_signers,omitempty"`
	AllowEditDocuments  bool `json:"allow_edit_documents,omitempty"`
	AllowEditCCs        bool `json:"allow_edit_ccs,omitempty"`
}

// Pages lists the pages of every document in order (what an overlay is
// measured against).
func (t *Template) Pages() []Page {
	var out []Page
	for _, d := range t.Documents {
		out = append(out, d.Pages...)
	}
	return out
}

// Usable reports whether requests may be created from the template.
func (t *Template) Usable() bool { return t.Status == TemplateReady }

// Accounts lists the owner followed by the accounts it is shared with.
func (t *Template) Accounts() []string {
	return append([]string{t.OwnerID}, t.SharedWith...)
}

// TemplateAccess says that an account may use a template. Seq is the
// template's, so that an account's rows sort by template age.
type TemplateAccess struct {
	ID         string `json:"id"` // template id + "/" + account id
	TemplateID string `json:"template_id"`
	AccountID  string `json:"account_id"`
	Seq        uint64 `json:"seq"`
}

// TemplateEditURL is an edit URL token of an embedded template.
type TemplateEditURL struct {
	Token      string `json:"token"`
	TemplateID string `json:"template_id"`
	AccountID  string `json:"account_id"`
	ExpiresAt  int64  `json:"expires_at"`
	// CCRoles, when set, replace the template's CC roles when the user
	// saves ([""] removes them all).
	CCRoles []string `json:"cc_roles,omitempty"`
	// MergeFields, when SetMergeFields, replace the template's merge fields
	// when the user saves.
	MergeFields    []TemplateMergeField  `json:"merge_fields,omitempty"`
	SetMergeFields bool                  `json:"set_merge_fields,omitempty"`
	Editor         TemplateEditorOptions `json:"editor"`
	TestMode       bool                  `json:"test_mode,omitempty"`
	Used           bool                  `json:"used,omitempty"`
}
