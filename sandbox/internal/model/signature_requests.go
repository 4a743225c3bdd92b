package model

import (
	"slices"
	"strconv"
)

// Phases of a signature request as a whole. The API shows them through
// is_complete, is_declined, has_error and the signatures' status_code.
const (
	PhaseProcessing = "processing" // accepted, documents being processed
	PhaseOnHold     = "on_hold"    // prepared, held (by the requester, or until the account is confirmed)
	PhaseSent       = "sent"       // out for signature
	PhaseComplete   = "complete"   // every signer signed
	PhaseDeclined   = "declined"   // a signer declined
	PhaseExpired    = "expired"    // expires_at passed with signatures missing
	PhaseError      = "error"      // a document could not be used
	PhaseCanceled   = "canceled"   // cancelation completed: 410 for everyone
)

// Signature status codes of the official description.
const (
	SigAwaiting          = "awaiting_signature"
	SigSigned            = "signed"
	SigDeclined          = "declined"
	SigExpired           = "expired"
	SigOnHoldByRequester = "on_hold_by_requester"
	SigOnHold            = "on_hold"
	SigErrorFile         = "error_file"
	SigErrorUnknown      = "error_unknown"
	SigErrorInvalidEmail = "error_invalid_email"
	// SigErrorComponentPosition: a form field lies outside its page.
	SigErrorComponentPosition = "error_component_position"
	SigSuccess                = "success"
)

// SignatureRequest is a stored signature request with everything needed to
// render SignatureRequestResponse, compose its documents and run its state
// machine.
type SignatureRequest struct {
	ID string `json:"signature_request_id"`
	// Seq orders requests by creation across the world.
	Seq uint64 `json:"seq"`
	// Generation counts edits; jobs scheduled for an older generation are
	// ignored.
	Generation int `json:"generation"`

	RequesterAccountID string `json:"requester_account_id"`
	RequesterEmail     string `json:"requester_email_address"`
	RequesterName      string `json:"requester_name,omitempty"`
	ClientID           string `json:"client_id,omitempty"`
	// Embedded requests (create_embedded*) are signed only through sign URLs
	// and get no signing e-mails or reminders.
	Embedded bool `json:"embedded"`
	TestMode bool `json:"test_mode"`
	// BaseURL and WorldURL are the sandbox's public addresses when the
	// request was made (files_url, details_url and signing pages use them).
	BaseURL  string `json:"base_url"`
	WorldURL string `json:"world_url"`

	Title         string `json:"title"`
	OriginalTitle string `json:"original_title"`
	Subject       string `json:"subject,omitempty"`
	Message       string `json:"message,omitempty"`
	// Metadata keeps the values as given (numbers as json.Number).
	Metadata           map[string]any `json:"metadata,omitempty"`
	CreatedAt          int64          `json:"created_at"`
	ExpiresAt          *int64         `json:"expires_at,omitempty"`
	CCEmails           []string       `json:"cc_email_addresses,omitempty"`
	SigningRedirectURL string         `json:"signing_redirect_url,omitempty"`
	TemplateIDs        []string       `json:"template_ids,omitempty"`
	BulkSendJobID      string         `json:"bulk_send_job_id,omitempty"`

	AllowDecline           bool            `json:"allow_decline"`
	AllowReassign          bool            `json:"allow_reassign"`
	HideTextTags           bool            `json:"hide_text_tags,omitempty"`
	UseTextTags            bool            `json:"use_text_tags,omitempty"`
	IsEID                  bool            `json:"is_eid,omitempty"`
	PopulateAutoFillFields bool            `json:"populate_auto_fill_fields,omitempty"`
	SigningOptions         *SigningOptions `json:"signing_options,omitempty"`
	DateFormat             string          `json:"date_format,omitempty"`
	FormView               string          `json:"form_view,omitempty"`
	AppendSignaturePage    bool            `json:"append_signature_page"`
	Ordered                bool            `json:"ordered"`
	Hold                   bool            `json:"hold,omitempty"`
	CustomFields           []CustomField   `json:"custom_fields,omitempty"`
	Attachments            []Attachment    `json:"attachments,omitempty"`
	Documents              []Document      `json:"documents"`
	FormFields             []FormField     `json:"form_fields,omitempty"`
	FieldGroups            []FieldGroup    `json:"field_groups,omitempty"`
	FieldRules             []FieldRule     `json:"field_rules,omitempty"`
	Signatures             []Signature     `json:"signatures"`
	ResponseData           []ResponseValue `json:"response_data,omitempty"`
	Phase                  string          `json:"phase"`
	Error                  string          `json:"error,omitempty"`
	CancelPending          bool            `json:"cancel_pending,omitempty"`
	CanceledAt             int64           `json:"canceled_at,omitempty"`
	CompletedAt            int64           `json:"completed_at,omitempty"`
	RemovedFor             []string        `json:"removed_for,omitempty"`
	Audit                  []AuditEntry    `json:"audit,omitempty"`
	// AwaitsConfirmation: the requester's account had not confirmed its
	// e-mail address when the request was made; processing leaves the
	// request on hold (status on_hold) until the account is confirmed.
	AwaitsConfirmation bool `json:"awaits_confirmation,omitempty"`
	// LinkSecrets are the secrets of the signing-page links e-mailed to
	// the signers, oldest first (see SignLinkToken): a link names its
	// signature, so it needs no row of its own. They are kept here rather
	// than on each Signature because the row has room for them within its
	// allocation and a Signature has none.
	LinkSecrets []LinkSecret `json:"link_secrets,omitempty"`
	// Files is the request's file set (nil until its first preparation
	// is scheduled); only GetFileSet and PutFileSet read and write it.
	// Exports and journals write it as the file_sets row it was
	// (RowAsExported, request_files.go); the row's own JSON carries it so
	// that the row round-trips.
	Files *FileSet `json:"files,omitempty"`
}

// LinkSecret is the secret of one signing e-mail's link to a signer.
type LinkSecret struct {
	SignatureID string `json:"signature_id"`
	Secret      string `json:"secret"`
}

// SigningOptions are the signature types a signer may use.
type SigningOptions struct {
	DefaultType string `json:"default_type"`
	Draw        bool   `json:"draw"`
	Phone       bool   `json:"phone"`
	Type        bool   `json:"type"`
	Upload      bool   `json:"upload"`
}

// Signature is one signer of a request.
type Signature struct {
	ID string `json:"signature_id"`
	// Slot is the signer index form fields and attachments refer to (the
	// group index for grouped signers).
	Slot      int    `json:"slot"`
	Group     string `json:"group,omitempty"`
	GroupGUID string `json:"signer_group_guid,omitempty"`
	Email     string `json:"signer_email_address"`
	Name      string `json:"signer_name"`
	Role      string `json:"signer_role,omitempty"`
	Order     *int   `json:"order,omitempty"`
	Status    string `json:"status_code"`

	SignedAt       *int64 `json:"signed_at,omitempty"`
	LastViewedAt   *int64 `json:"last_viewed_at,omitempty"`
	LastRemindedAt *int64 `json:"last_reminded_at,omitempty"`

	PIN          string `json:"pin,omitempty"`
	SMSPhone     string `json:"sms_phone_number,omitempty"`
	SMSPhoneType string `json:"sms_phone_number_type,omitempty"`

	DeclineReason      string `json:"decline_reason,omitempty"`
	ReassignedBy       string `json:"reassigned_by,omitempty"`
	ReassignmentReason string `json:"reassignment_reason,omitempty"`
	ReassignedFrom     string `json:"reassigned_from,omitempty"`
	Error              string `json:"error,omitempty"`
	// Notified is set once the signer was sent the request (their turn
	// came); ordered signers are notified one step at a time.
	Notified bool `json:"notified,omitempty"`
}

// CustomField is a merge-field value of the request (custom_fields).
type CustomField struct {
	Name     string `json:"name"`
	Type     string `json:"type"` // text or checkbox
	Value    string `json:"value,omitempty"`
	Required bool   `json:"required,omitempty"`
	APIID    string `json:"api_id,omitempty"`
	Editor   string `json:"editor,omitempty"`
}

// Attachment is a file a signer is asked to upload.
type Attachment struct {
	ID           string `json:"id"`
	SignerIndex  int    `json:"signer_index"`
	Name         string `json:"name"`
	Instructions string `json:"instructions,omitempty"`
	Required     bool   `json:"required"`
	UploadedAt   *int64 `json:"uploaded_at,omitempty"`
}

// FormField is a field placed on a document. Signer is the API's signer
// value: a signer index as decimal text, "sender" (merge fields) or
// "me_now"; Role names a template role before signers are bound to roles.
type FormField struct {
	APIID         string `json:"api_id"`
	Name          string `json:"name,omitempty"`
	Type          string `json:"type"`
	DocumentIndex int    `json:"document_index"`
	Page          *int   `json:"page,omitempty"`
	X             int    `json:"x"`
	Y             int    `json:"y"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	Required      bool   `json:"required"`
	Signer        string `json:"signer,omitempty"`
	Role          string `json:"role,omitempty"`
	Group         string `json:"group,omitempty"`
	FieldKeys
}

// FieldKeys are the type-specific keys of a form field, the same for the
// fields of requests and of templates (their JSON keys are the field's
// own: the struct is embedded).
type FieldKeys struct {
	Placeholder                      string   `json:"placeholder,omitempty"`
	AutoFillType                     string   `json:"auto_fill_type,omitempty"`
	LinkID                           string   `json:"link_id,omitempty"`
	Masked                           bool     `json:"masked,omitempty"`
	ValidationType                   string   `json:"validation_type,omitempty"`
	ValidationCustomRegex            string   `json:"validation_custom_regex,omitempty"`
	ValidationCustomRegexFormatLabel string   `json:"validation_custom_regex_format_label,omitempty"`
	Content                          string   `json:"content,omitempty"`
	ContentURL                       string   `json:"content_url,omitempty"`
	Options                          []string `json:"options,omitempty"`
	IsChecked                        bool     `json:"is_checked,omitempty"`
	FontFamily                       string   `json:"font_family,omitempty"`
	FontSize                         int      `json:"font_size,omitempty"`
}

// SlotIndex returns the signer index of a field assigned to a signer.
func (f FormField) SlotIndex() (int, bool) {
	n, err := strconv.Atoi(f.Signer)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// FieldGroup is a form_field_groups entry.
type FieldGroup struct {
	GroupID     string `json:"group_id"`
	GroupLabel  string `json:"group_label"`
	Requirement string `json:"requirement"`
}

// FieldRule is a conditional-logic rule (form_field_rules).
type FieldRule struct {
	ID              string        `json:"id"`
	TriggerOperator string        `json:"trigger_operator"`
	Triggers        []RuleTrigger `json:"triggers"`
	Actions         []RuleAction  `json:"actions"`
}

// RuleTrigger is the "if" of a rule.
type RuleTrigger struct {
	ID       string   `json:"id"`
	Operator string   `json:"operator"`
	Value    string   `json:"value,omitempty"`
	Values   []string `json:"values,omitempty"`
}

// RuleAction is a "then" of a rule.
type RuleAction struct {
	FieldID string `json:"field_id,omitempty"`
	GroupID string `json:"group_id,omitempty"`
	Hidden  bool   `json:"hidden"`
	Type    string `json:"type"`
}

// ResponseValue is a value a signer gave (response_data). Value is a string
// or a bool, as the official response schema types it per field type.
type ResponseValue struct {
	APIID       string `json:"api_id"`
	SignatureID string `json:"signature_id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Value       any    `json:"value"`
	IsSigned    *bool  `json:"is_signed,omitempty"`
}

// AuditEntry is one line of a request's audit trail (printed on the
// downloadable PDF).
type AuditEntry struct {
	Time   int64  `json:"time"`
	Actor  string `json:"actor"`
	Action string `json:"action"`
	Detail string `json:"detail,omitempty"`
}

// Signature returns the signature with id, or nil.
func (r *SignatureRequest) Signature(id string) *Signature {
	for i := range r.Signatures {
		if r.Signatures[i].ID == id {
			return &r.Signatures[i]
		}
	}
	return nil
}

// Copy returns a deep copy whose slices and maps can be changed without
// touching the stored row.
func (r *SignatureRequest) Copy() *SignatureRequest {
	c := *r
	c.CCEmails = append([]string(nil), r.CCEmails...)
	c.TemplateIDs = append([]string(nil), r.TemplateIDs...)
	c.CustomFields = append([]CustomField(nil), r.CustomFields...)
	c.Attachments = append([]Attachment(nil), r.Attachments...)
	c.Documents = append([]Document(nil), r.Documents...)
	c.FormFields = append([]FormField(nil), r.FormFields...)
	c.FieldGroups = append([]FieldGroup(nil), r.FieldGroups...)
	c.FieldRules = append([]FieldRule(nil), r.FieldRules...)
	c.Signatures = append([]Signature(nil), r.Signatures...)
	c.ResponseData = append([]ResponseValue(nil), r.ResponseData...)
	c.RemovedFor = append([]string(nil), r.RemovedFor...)
	c.Audit = append([]AuditEntry(nil), r.Audit...)
	c.LinkSecrets = append([]LinkSecret(nil), r.LinkSecrets...)
	if r.Metadata != nil {
		c.Metadata = make(map[string]any, len(r.Metadata))
		for k, v := range r.Metadata {
			c.Metadata[k] = v
		}
	}
	if r.SigningOptions != nil {
		o := *r.SigningOptions
		c.SigningOptions = &o
	}
	return &c
}

// CopySignatures returns a copy that owns only its signatures: every
// other slice is the row's own, clipped to its length so that an append
// to it makes the copy an array of its own, and the metadata map and
// signing options are shared. Processing, the one transition every send
// goes through, changes signatures, appends to the audit and the link
// secrets, and nothing else; a full Copy of every slice was a fifth of
// the bytes a clock advance allocated per job. The caller must not change
// an element of another slice, the map or the options in place: a
// transition that does takes Copy.
func (r *SignatureRequest) CopySignatures() *SignatureRequest {
	c := *r
	c.CCEmails = slices.Clip(r.CCEmails)
	c.TemplateIDs = slices.Clip(r.TemplateIDs)
	c.CustomFields = slices.Clip(r.CustomFields)
	c.Attachments = slices.Clip(r.Attachments)
	c.Documents = slices.Clip(r.Documents)
	c.FormFields = slices.Clip(r.FormFields)
	c.FieldGroups = slices.Clip(r.FieldGroups)
	c.FieldRules = slices.Clip(r.FieldRules)
	c.Signatures = append([]Signature(nil), r.Signatures...)
	c.ResponseData = slices.Clip(r.ResponseData)
	c.RemovedFor = slices.Clip(r.RemovedFor)
	c.Audit = slices.Clip(r.Audit)
	c.LinkSecrets = slices.Clip(r.LinkSecrets)
	return &c
}

// SignatureRequestAccess says that an account sees a request in its list.
// Ordinals of one account are dense (1..count) in request creation order.
// Its id, AccessID(account, request), is computed (ID), not stored: every
// request has a row per account that lists it, and the id string would
// repeat the two ids the row already holds. Exported rows carry it as
// they always did (access_json.go).
type SignatureRequestAccess struct {
	AccountID  string
	RequestID  string
	RequestSeq uint64
	Ordinal    uint64
}

// ID is the row's id, AccessID(AccountID, RequestID).
func (a *SignatureRequestAccess) ID() string { return AccessID(a.AccountID, a.RequestID) }

// AccessID is the id of an access row.
func AccessID(accountID, requestID string) string { return accountID + "/" + requestID }

// SignURL is the token of a signing page. Embedded sign URLs have a row
// each; the links of signing e-mails are rows only in worlds stored before
// they became SignLinkToken's (the row's form still works).
type SignURL struct {
	Token       string `json:"token"`
	SignatureID string `json:"signature_id"`
	RequestID   string `json:"signature_request_id"`
	// Embedded tokens come from GET /embedded/sign_url; the others are the
	// links of signing e-mails.
	Embedded bool `json:"embedded"`
	// ExpiresAt is Unix seconds; 0 never expires.
	ExpiresAt int64 `json:"expires_at"`
}
