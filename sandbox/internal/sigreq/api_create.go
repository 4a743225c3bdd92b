package sigreq

import (
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Op says which of the eight create and edit operations runs.
type Op struct {
	Embedded bool // create_embedded*, edit_embedded*
	Template bool // *_with_template
	edit     bool // edit*: PUT .../{signature_request_id}
}

func registerCreate(r *api.Registry) {
	ops := map[string]Op{
		"signatureRequestSend":                       {},
		"signatureRequestCreateEmbedded":             {Embedded: true},
		"signatureRequestSendWithTemplate":           {Template: true},
		"signatureRequestCreateEmbeddedWithTemplate": {Embedded: true, Template: true},
		"signatureRequestEdit":                       {edit: true},
		"signatureRequestEditEmbedded":               {Embedded: true, edit: true},
		"signatureRequestEditWithTemplate":           {Template: true, edit: true},
		"signatureRequestEditEmbeddedWithTemplate":   {Embedded: true, Template: true, edit: true},
	}
	for id, op := range ops {
		op := op
		r.Handle(id, func(c *api.Call) (any, error) { return sigreqCreate(c, op) })
	}
}

// sigreqCreate runs one create or edit operation: decode, validate all
// that needs no database, check the app and the request being edited,
// collect documents (outside any transaction: URLs are fetched), then
// store everything in one transaction.
func sigreqCreate(c *api.Call, op Op) (any, error) {
	var b Body
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	editID := ""
	if op.edit {
		editID = c.Param("signature_request_id")
		tx := c.Read()
		old, err := Load(tx, editID, c.Account)
		if err != nil {
			return nil, err
		}
		if e := checkEditable(old, MayManage(tx, old, c.Account), op.Embedded); e != nil {
			return nil, e
		}
	}
	spec, e := b.Spec(c, op)
	if e != nil {
		return nil, e
	}
	if op.Template && !op.Embedded {
		// send_with_template and edit_with_template have is_eid too (the
		// bulk and draft operations that share Body.Spec do not); it
		// is checked once the roles are bound.
		spec.IsEID = b.IsEID
	}
	if e := spec.CheckClientID(c.Read(), c.Account); e != nil {
		return nil, e
	}
	var tb *TemplateBody
	var formFields []fields.Parsed
	if op.Template {
		if tb, e = b.CheckTemplateBody(c, false); e != nil {
			return nil, e
		}
	} else if formFields, e = fields.Decode(b.FormFieldsPerDocument); e != nil {
		return nil, e
	}
	var pending []document.Pending
	if !op.Template || len(b.Files) > 0 || len(b.FileURLs) > 0 {
		docs, err := document.Collect(c.Host, c, b.Files, b.FileURLs)
		if err != nil {
			return nil, err
		}
		pending = docs
	}
	if !op.Template {
		if e := spec.PlaceFields(c, &b, formFields, pending, false); e != nil {
			return nil, e
		}
	}
	var resp signatureRequestGetResponse
	err := c.Update(func(tx *state.Txn) error {
		acct, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		spec.Requester = acct
		stored, err := document.Store(tx, pending)
		if err != nil {
			return err
		}
		if op.Template {
			if e := spec.BindTemplate(c, tx, tb, stored); e != nil {
				return e
			}
			if e := checkEID(spec); e != nil { // eid.go
				return e
			}
		} else {
			spec.Documents = stored
		}
		if spec.Title == "" && len(spec.Documents) > 0 {
			spec.Title = spec.Documents[0].Title()
		}
		var req *model.SignatureRequest
		if op.edit {
			old, err := Load(tx, editID, acct)
			if err != nil {
				return err
			}
			if e := checkEditable(old, MayManage(tx, old, acct), op.Embedded); e != nil {
				return e
			}
			req, err = replaceSignatureRequest(c.Host, tx, old, spec)
			if err != nil {
				return err
			}
		} else if req, err = Create(tx, spec); err != nil {
			return err
		}
		resp.SignatureRequest = View(req, acct.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	spec.WarnUnconfirmed(c) // hold.go
	return resp, nil
}

// Spec validates the fields every create and edit body shares and the
// signers of the file-based operations, and returns the spec they make.
func (b *Body) Spec(c *api.Call, op Op) (*Spec, *apierr.Error) {
	spec := &Spec{
		ClientID: strings.TrimSpace(b.ClientID), Embedded: op.Embedded, TestMode: b.TestMode,
		Title: strings.TrimSpace(param.Deref(b.Title)), Subject: param.Deref(b.Subject), Message: param.Deref(b.Message),
		AllowDecline: b.AllowDecline, HideTextTags: b.HideTextTags,
	}
	spec.SetAddresses(c)
	if e := checkTexts(b); e != nil {
		return nil, e
	}
	if spec.Title == "" {
		spec.Title = strings.TrimSpace(spec.Subject)
	}
	if e := param.CheckMetadata(b.Metadata); e != nil {
		return nil, e
	}
	spec.Metadata = b.Metadata
	if !op.Template {
		signers, slots, e := b.CheckSigners()
		if e != nil {
			return nil, e
		}
		spec.Signers = signers
		if e := spec.AddFileParts(c, b, slots); e != nil {
			return nil, e
		}
		spec.AllowReassign = b.AllowReassign
	}
	var e *apierr.Error
	if spec.SigningOptions, e = checkSigningOptions(b.SigningOptions); e != nil {
		return nil, e
	}
	if spec.FormView, e = checkSignerExperience(b.SignerExperience); e != nil {
		return nil, e
	}
	if op.Embedded {
		// create_embedded* has no signing_redirect_url or is_eid; it has
		// populate_auto_fill_fields.
		spec.PopulateAutoFillFields = b.PopulateAutoFillFields
	} else {
		if e := param.CheckRedirectURL("signing_redirect_url", b.SigningRedirectURL); e != nil {
			return nil, e
		}
		spec.SigningRedirectURL = b.SigningRedirectURL
		if !op.Template {
			spec.IsEID = b.IsEID
			if e := checkEID(spec); e != nil { // eid.go
				return nil, e
			}
		}
	}
	return spec, nil
}

// AddFileParts validates what file-based bodies (signature requests and
// drafts) have besides signers and form fields: cc_email_addresses,
// attachments (against slots signers), custom_fields, expires_at and
// field_options; and takes use_text_tags.
func (spec *Spec) AddFileParts(c *api.Call, b *Body, slots int) *apierr.Error {
	var e *apierr.Error
	if spec.CCEmails, e = b.CheckCCs(); e != nil {
		return e
	}
	if spec.Attachments, e = checkAttachments(b.Attachments, slots); e != nil {
		return e
	}
	if spec.CustomFields, e = checkCustomFields(b.CustomFields, nil); e != nil {
		return e
	}
	if spec.ExpiresAt, e = checkExpiresAt("expires_at", b.ExpiresAt, c.World.Now()); e != nil {
		return e
	}
	if spec.DateFormat, e = checkFieldOptions(b.FieldOptions); e != nil {
		return e
	}
	spec.UseTextTags = b.UseTextTags
	return nil
}

// PlaceFields adds the fields of a file-based body: the form fields, groups
// and rules (AddFields), then the fields the documents carry (text tags, or
// PDF form fields when usePreexistingFields), warning about fields outside
// their page; custom fields that fill no merge field are dropped and values
// too long for their fields warned about. The signers must be set (drafts
// without signers set placeholders first).
func (spec *Spec) PlaceFields(c *api.Call, b *Body, list []fields.Parsed, docs []document.Pending, usePreexistingFields bool) *apierr.Error {
	if e := spec.AddFields(b, list, docs); e != nil {
		return e
	}
	spec.addDocumentFields(c, docs, usePreexistingFields) // text_tags.go
	warnFieldPlacement(c, spec.FormFields, docs)          // placement.go
	spec.CustomFields = dropUnusedCustomFields(c, spec.CustomFields, spec.FormFields, spec.UseTextTags)
	warnLongMergeValues(c, spec.CustomFields, spec.FormFields)
	return nil
}

// AddFields validates form fields, groups and rules against the signers
// and the collected documents (their page counts when known).
func (spec *Spec) AddFields(b *Body, list []fields.Parsed, docs []document.Pending) *apierr.Error {
	fc := fields.Limits{Slots: spec.SignerSlots(), Docs: len(docs)}
	for _, d := range docs {
		fc.Pages = append(fc.Pages, d.Doc.PageCount())
	}
	formFields, e := fields.Check(list, fc)
	if e != nil {
		return e
	}
	paths := make([]string, len(list))
	for i, pf := range list {
		paths[i] = pf.Path
	}
	if len(formFields) == 0 && (len(b.FormFieldGroups) > 0 || len(b.FormFieldRules) > 0) {
		if len(b.FormFieldGroups) > 0 {
			return apierr.Badf("form_field_groups", "form_field_groups needs form_fields_per_document.")
		}
		return apierr.Badf("form_field_rules", "form_field_rules needs form_fields_per_document.")
	}
	groups, rules, e := fields.CheckGroupsAndRules(formFields, paths, b.FormFieldGroups, b.FormFieldRules)
	if e != nil {
		return e
	}
	fields.BindCustomFieldTypes(spec.CustomFields, formFields)
	spec.FormFields, spec.FieldGroups, spec.FieldRules = formFields, groups, rules
	return nil
}

// dedupeTemplateIDs drops repeated template ids with the official
// duplicate_template_ids warning.
func dedupeTemplateIDs(c *api.Call, ids []string) []string {
	var out []string
	dup := false
	for _, id := range ids {
		if slices.Contains(out, id) {
			dup = true
			continue
		}
		out = append(out, id)
	}
	if dup {
		c.Warn("duplicate_template_ids", "Templates can only be used once in a signature request; the repeated template ids were ignored.")
	}
	return out
}
