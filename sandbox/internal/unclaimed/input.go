package unclaimed

// Bodies of the three unclaimed draft create operations: what they share
// with signature request bodies is decoded into sigreq.Body and checked by
// the signature request validators; what only drafts have is draftExtras.
// Drafts differ from requests in one way that matters here: signers (and,
// for templates, CCs) may be left for the user who claims the draft, so
// their checks run only on what was given and the rest waits for the claim.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
)

// draftKind says which create operation runs.
type draftKind int

const (
	draftPlain            draftKind = iota // unclaimed_draft/create
	draftEmbedded                          // unclaimed_draft/create_embedded
	draftEmbeddedTemplate                  // unclaimed_draft/create_embedded_with_template
)

// maxDraftSlots is how many signers fields and attachments of a draft
// without signers may refer to; the claim checks them against the signers
// the user gives.
const maxDraftSlots = 100

// maxDraftSubject is the subject limit of the file-based draft schemas
// (200, where signature requests allow 255).
const maxDraftSubject = 200

// draftExtras are the draft parameters signature request bodies lack.
type draftExtras struct {
	Type                  *string           `json:"type"`
	RequesterEmailAddress string            `json:"requester_email_address"`
	RequestingRedirectURL string            `json:"requesting_redirect_url"`
	HoldRequest           bool              `json:"hold_request"`
	IsForEmbeddedSigning  *bool             `json:"is_for_embedded_signing"`
	AllowCCs              *bool             `json:"allow_ccs"`
	EditorOptions         *subEditorOptions `json:"editor_options"`
	ForceSignerPage       bool              `json:"force_signer_page"`
	ForceSignerRoles      bool              `json:"force_signer_roles"`
	ForceSubjectMessage   bool              `json:"force_subject_message"`
	ShowPreview           bool              `json:"show_preview"`
	PreviewOnly           bool              `json:"preview_only"`
	SkipMeNow             bool              `json:"skip_me_now"`
	ShowProgressStepper   *bool             `json:"show_progress_stepper"`
	UsePreexistingFields  bool              `json:"use_preexisting_fields"`
}

// subEditorOptions is SubEditorOptions.
type subEditorOptions struct {
	AllowEditSigners   bool `json:"allow_edit_signers"`
	AllowEditDocuments bool `json:"allow_edit_documents"`
}

// draftPlan is a validated create body, ready to be stored.
type draftPlan struct {
	kind    draftKind
	typ     string
	spec    *sigreq.Spec
	x       draftExtras
	fields  []fields.Parsed
	pending []document.Pending
	body    *sigreq.Body
	// tb is the template part of create_embedded_with_template; its
	// Signers are only those given.
	tb *sigreq.TemplateBody
}

// editorOptions turns the body's editor settings into the draft's.
func (x *draftExtras) editorOptions(kind draftKind) model.DraftOptions {
	o := model.DraftOptions{
		ForceSignerPage: x.ForceSignerPage, ForceSignerRoles: x.ForceSignerRoles, ForceSubjectMessage: x.ForceSubjectMessage,
		ShowPreview: x.ShowPreview, PreviewOnly: x.PreviewOnly, SkipMeNow: x.SkipMeNow,
		ShowProgressStepper: x.ShowProgressStepper == nil || *x.ShowProgressStepper,
	}
	// allow_ccs defaults to true for create_embedded and false for
	// create_embedded_with_template (the official defaults); create has no
	// such parameter and lets the user add CCs.
	switch {
	case x.AllowCCs != nil:
		o.AllowCCs = *x.AllowCCs
	default:
		o.AllowCCs = kind != draftEmbeddedTemplate
	}
	if x.EditorOptions != nil {
		o.AllowEditSigners, o.AllowEditDocuments = x.EditorOptions.AllowEditSigners, x.EditorOptions.AllowEditDocuments
	}
	if o.PreviewOnly {
		o.ShowPreview = false // preview_only overrides show_preview
	}
	return o
}

// planDraft decodes and validates a create body (everything that needs no
// database) and collects its documents.
func planDraft(c *api.Call, kind draftKind) (*draftPlan, error) {
	var b sigreq.Body
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	p := &draftPlan{kind: kind, body: &b}
	if err := c.Bind(&p.x); err != nil {
		return nil, err
	}
	if e := p.checkHead(); e != nil {
		return nil, e
	}
	embedded := kind != draftPlain
	// Drafts have no grouped signers, and the file-based ones no title.
	b.GroupedSigners = nil
	if kind != draftEmbeddedTemplate {
		b.Title = nil
		if b.Subject != nil {
			if err := param.CheckMaxLen("subject", *b.Subject, maxDraftSubject); err != nil {
				return nil, err
			}
		}
	}
	// The template form of Body.Spec checks the shared fields without
	// requiring signers; the file-based parts follow below.
	spec, e := b.Spec(c, sigreq.Op{Embedded: embedded, Template: true})
	if e != nil {
		return nil, e
	}
	p.spec = spec
	if embedded {
		// The draft schemas have signing_redirect_url, which the embedded
		// request schemas lack.
		if e := param.CheckRedirectURL("signing_redirect_url", b.SigningRedirectURL); e != nil {
			return nil, e
		}
		spec.SigningRedirectURL = b.SigningRedirectURL
		if e := param.CheckRedirectURL("requesting_redirect_url", p.x.RequestingRedirectURL); e != nil {
			return nil, e
		}
	}
	if kind == draftEmbeddedTemplate {
		if p.tb, e = b.CheckTemplateBody(c, true); e != nil {
			return nil, e
		}
		if len(b.Files) > 0 || len(b.FileURLs) > 0 {
			docs, err := document.Collect(c.Host, c, b.Files, b.FileURLs)
			if err != nil {
				return nil, err
			}
			p.pending = docs
			p.tb.ScanAppendedFiles(p.pending) // internal/sigreq/text_tags.go
		}
		return p, nil
	}
	if e := p.checkFileParts(c); e != nil {
		return nil, e
	}
	docs, err := document.Collect(c.Host, c, b.Files, b.FileURLs)
	if err != nil {
		return nil, err
	}
	p.pending = docs
	// Fields may name signers the user adds when claiming: without
	// signers they are checked against maxDraftSlots placeholders.
	given := spec.Signers
	if len(given) == 0 {
		n := maxDraftSlots
		if p.typ == model.DraftSendDocument {
			n = 1
		}
		spec.Signers = make([]model.Signature, n)
		for i := range spec.Signers {
			spec.Signers[i].Slot = i
		}
	}
	// Fields and custom fields are treated as signature_request/send
	// treats them.
	e = spec.PlaceFields(c, &b, p.fields, p.pending, p.x.UsePreexistingFields)
	spec.Signers = given
	if e != nil {
		return nil, e
	}
	return p, nil
}

// checkHead checks type, client_id and requester_email_address.
func (p *draftPlan) checkHead() *apierr.Error {
	x := &p.x
	switch {
	case p.kind == draftEmbeddedTemplate:
		p.typ = model.DraftRequestSignature
	case x.Type == nil && p.kind == draftPlain:
		return apierr.Missing("type")
	case x.Type == nil:
		p.typ = model.DraftRequestSignature // create_embedded's default
	case *x.Type != model.DraftSendDocument && *x.Type != model.DraftRequestSignature:
		return apierr.Badf("type", "type must be send_document or request_signature (got %q).", *x.Type)
	default:
		p.typ = *x.Type
	}
	if p.kind == draftPlain {
		return nil
	}
	if strings.TrimSpace(p.body.ClientID) == "" {
		return apierr.Missing("client_id")
	}
	x.RequesterEmailAddress = strings.TrimSpace(x.RequesterEmailAddress)
	if x.RequesterEmailAddress == "" {
		return apierr.Missing("requester_email_address")
	}
	if !param.ValidEmail(x.RequesterEmailAddress) {
		return apierr.Badf("requester_email_address", "Invalid email address: %s", x.RequesterEmailAddress)
	}
	return nil
}

// checkFileParts checks the signer-dependent parts of a file-based draft:
// signers when given, what Spec.AddFileParts checks (as signature requests do)
// and the form fields' syntax.
func (p *draftPlan) checkFileParts(c *api.Call) *apierr.Error {
	b, spec := p.body, p.spec
	if b.UseTextTags && p.x.UsePreexistingFields {
		return apierr.Badf("use_preexisting_fields", "Use either use_text_tags or use_preexisting_fields, not both.")
	}
	slots := maxDraftSlots
	switch {
	case p.typ == model.DraftSendDocument:
		// The requester signs a send_document draft alone.
		if len(b.Signers) > 0 {
			c.Warn("parameter_ignored", "signers is ignored for send_document drafts: the requester signs them.")
			b.Signers = nil
		}
		slots = 1
	case len(b.Signers) > 0:
		signers, n, e := b.CheckSigners()
		if e != nil {
			return e
		}
		spec.Signers, slots = signers, n
	}
	if e := spec.AddFileParts(c, b, slots); e != nil {
		return e
	}
	if p.kind == draftEmbedded {
		spec.AllowReassign = b.AllowReassign // create has no allow_reassign
	}
	var e *apierr.Error
	p.fields, e = fields.Decode(b.FormFieldsPerDocument)
	return e
}

// specFromRequest is the spec of a request as it was sent, for
// edit_and_resend: same documents, fields, signers and texts; new ids and
// statuses come when the draft is sent. An expiry already past is dropped.
func specFromRequest(c *api.Call, req *model.SignatureRequest) *sigreq.Spec {
	spec := &sigreq.Spec{
		ClientID: req.ClientID, Embedded: req.Embedded, TestMode: req.TestMode,
		TemplateIDs: append([]string(nil), req.TemplateIDs...),
		Title:       req.Title, Subject: req.Subject, Message: req.Message,
		CCEmails:           append([]string(nil), req.CCEmails...),
		SigningRedirectURL: req.SigningRedirectURL,
		AllowDecline:       req.AllowDecline, AllowReassign: req.AllowReassign, HideTextTags: req.HideTextTags,
		UseTextTags: req.UseTextTags, IsEID: req.IsEID, PopulateAutoFillFields: req.PopulateAutoFillFields,
		DateFormat: req.DateFormat, FormView: req.FormView,
		CustomFields: append([]model.CustomField(nil), req.CustomFields...),
		Documents:    append([]model.Document(nil), req.Documents...),
		FormFields:   append([]model.FormField(nil), req.FormFields...),
		FieldGroups:  append([]model.FieldGroup(nil), req.FieldGroups...),
		FieldRules:   append([]model.FieldRule(nil), req.FieldRules...),
	}
	spec.SetAddresses(c)
	if req.Metadata != nil {
		spec.Metadata = make(map[string]any, len(req.Metadata))
		for k, v := range req.Metadata {
			spec.Metadata[k] = v
		}
	}
	if req.ExpiresAt != nil && *req.ExpiresAt > c.World.Now().Unix() {
		v := *req.ExpiresAt
		spec.ExpiresAt = &v
	}
	if req.SigningOptions != nil {
		o := *req.SigningOptions
		spec.SigningOptions = &o
	}
	for _, a := range req.Attachments {
		spec.Attachments = append(spec.Attachments, model.Attachment{Name: a.Name, Instructions: a.Instructions, Required: a.Required, SignerIndex: a.SignerIndex})
	}
	for _, sg := range req.Signatures {
		n := model.Signature{Slot: sg.Slot, Group: sg.Group, Email: sg.Email, Name: sg.Name, Role: sg.Role,
			PIN: sg.PIN, SMSPhone: sg.SMSPhone, SMSPhoneType: sg.SMSPhoneType}
		if sg.Order != nil {
			o := *sg.Order
			n.Order = &o
		}
		spec.Signers = append(spec.Signers, n)
	}
	return spec
}
