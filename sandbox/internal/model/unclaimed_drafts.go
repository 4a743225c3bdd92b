package model

import "encoding/json"

// Draft types (UnclaimedDraftCreateRequest.type).
const (
	DraftSendDocument     = "send_document"
	DraftRequestSignature = "request_signature"
)

// UnclaimedDraft is a draft of a signature request that a user takes over
// through its claim URL. ID is the signature_request_id the draft answers
// with; the signature request of that id is created when the draft is sent.
type UnclaimedDraft struct {
	ID  string `json:"signature_request_id"`
	Seq uint64 `json:"seq"`
	// Token is the secret of the claim URL.
	Token string `json:"claim_token"`
	Type  string `json:"type"`
	// AccountID is the account that created the draft (the API caller).
	AccountID string `json:"account_id"`
	// RequesterEmail is requester_email_address of the embedded variants:
	// the requester the resulting request shows.
	RequesterEmail string `json:"requester_email_address,omitempty"`
	ClientID       string `json:"client_id,omitempty"`
	// Embedded drafts are claimed in an iframe (create_embedded*,
	// edit_and_resend).
	Embedded bool `json:"embedded"`
	TestMode bool `json:"test_mode"`
	// Hold keeps the request on_hold_by_requester after it is sent from
	// the editor, until release_hold (hold_request).
	Hold bool `json:"hold_request,omitempty"`
	// ForEmbeddedSigning makes the resulting request signable through
	// embedded sign URLs (is_for_embedded_signing).
	ForEmbeddedSigning bool `json:"is_for_embedded_signing,omitempty"`
	// Template drafts bind signers to the templates' roles.
	TemplateIDs []string `json:"template_ids,omitempty"`
	// Roles are the signer roles of template drafts, in order; signers
	// not given at creation are filled in when the draft is sent.
	Roles []string `json:"roles,omitempty"`
	// CCRoles are the CC roles of template drafts, in the order of the
	// spec's CC addresses (empty addresses are roles left open).
	CCRoles []string `json:"cc_roles,omitempty"`
	// EditOf is the request edit_and_resend made the draft from.
	EditOf string `json:"edit_of,omitempty"`

	SigningRedirectURL    string       `json:"signing_redirect_url,omitempty"`
	RequestingRedirectURL string       `json:"requesting_redirect_url,omitempty"`
	Editor                DraftOptions `json:"editor"`

	// Spec is the prepared signature request (the sandbox's request
	// specification as JSON: documents, fields, signers, texts, options).
	Spec json.RawMessage `json:"spec,omitempty"`

	Status    string `json:"status"`
	CreatedAt int64  `json:"created_at"`
	// ExpiresAt is when the claim URL stops working unless claimed
	// (world configuration claim_url_ttl).
	ExpiresAt int64 `json:"expires_at"`
	ClaimedAt int64 `json:"claimed_at,omitempty"`
	SentAt    int64 `json:"sent_at,omitempty"`
	// ClaimedBy is the account that claimed the draft and owns the request.
	ClaimedBy string `json:"claimed_by,omitempty"`
}

// DraftOptions are the editor settings of a draft; the sandbox's editor
// page shows them and honours the ones that change what can be edited.
type DraftOptions struct {
	AllowCCs            bool `json:"allow_ccs,omitempty"`
	AllowEditSigners    bool `json:"allow_edit_signers,omitempty"`
	AllowEditDocuments  bool `json:"allow_edit_documents,omitempty"`
	ForceSignerPage     bool `json:"force_signer_page,omitempty"`
	ForceSignerRoles    bool `json:"force_signer_roles,omitempty"`
	ForceSubjectMessage bool `json:"force_subject_message,omitempty"`
	ShowPreview         bool `json:"show_preview,omitempty"`
	PreviewOnly         bool `json:"preview_only,omitempty"`
	SkipMeNow           bool `json:"skip_me_now,omitempty"`
	ShowProgressStepper bool `json:"show_progress_stepper"`
}
