package template

// Template operations: create, create_embedded_draft, get, list, delete.
// update_files is in api_overlay.go, add_user and remove_user in
// api_share.go; the three file downloads belong to package document, which
// reaches templates through Registry.FileOwners.

import (
	"path"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterAPI(r *api.Registry) {
	r.Handle("templateCreate", templateCreate)
	r.Handle("templateCreateEmbeddedDraft", templateCreateEmbeddedDraft)
	r.Handle("templateGet", templateGet)
	r.Handle("templateList", templateList)
	r.Handle("templateDelete", templateDelete)
}

// templateCreate creates a template from files and answers at once with its
// id; the template is prepared by a job (template_created / template_error).
func templateCreate(c *api.Call) (any, error) {
	var in ContentInput
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	content, err := BuildContent(&in, true, true, c.Has(FieldsPath))
	if err != nil {
		return nil, err
	}
	t, err := createTemplate(c, &in, content, false, nil)
	if err != nil {
		return nil, err
	}
	return templateIDResponse{Template: templateIDView{TemplateID: t.ID}}, nil
}

// createTemplate collects the documents (outside any transaction: URLs may
// be fetched) and stores the template, its quota charge and its preparation
// in one transaction, so that a refused request leaves nothing behind.
// extra, when set, completes the row in the same transaction.
func createTemplate(c *api.Call, in *ContentInput, content *Content, draft bool, extra func(tx *state.Txn, t *model.Template) error) (*model.Template, error) {
	if in.ClientID != "" {
		if err := App(c.Read(), c.Account.ID, in.ClientID); err != nil {
			return nil, err
		}
	}
	pending, err := document.Collect(c.Host, c, in.Files, in.FileURLs)
	if err != nil {
		return nil, err
	}
	preview := make([]model.Document, len(pending))
	for i, p := range pending {
		preview[i] = p.Doc
	}
	if err := CheckDocuments(content, preview); err != nil {
		return nil, err
	}
	addTemplateDocumentFields(in, content, pending) // text_tags.go
	var out *model.Template
	err = c.Update(func(tx *state.Txn) error {
		if in.ClientID != "" {
			if err := App(tx, c.Account.ID, in.ClientID); err != nil {
				return err
			}
		}
		docs, err := document.Store(tx, pending)
		if err != nil {
			return err
		}
		t := NewRow(tx, c.Account.ID, content, docs)
		t.ClientID = in.ClientID
		t.AllowReassign = in.AllowReassign
		t.UsePreexistingFields = in.UsePreexistingFields
		t.TestMode = in.TestMode
		if err := SettleQuota(tx, t); err != nil {
			return err
		}
		if draft {
			t.Status = model.TemplateDraft
		} else if err := StartPreparation(tx, t); err != nil {
			return err
		}
		if extra != nil {
			if err := extra(tx, t); err != nil {
				return err
			}
		}
		if err := state.PutTemplate(tx, t); err != nil {
			return err
		}
		out = t
		return nil
	})
	return out, err
}

// SettleQuota decides how a new template counts: created in
// test_mode it is locked (usable only in test_mode) and takes no quota;
// otherwise it takes one unit of templates_left, and an exhausted quota is
// 402 payment_required.
func SettleQuota(tx *state.Txn, t *model.Template) error {
	if t.TestMode {
		t.IsLocked = true
		return nil
	}
	if err := ChargeQuota(tx, t.OwnerID); err != nil {
		return err
	}
	t.QuotaCharged = true
	return nil
}

// NewRow builds a template row from validated content.
func NewRow(tx *state.Txn, owner string, content *Content, docs []model.Document) *model.Template {
	now := tx.Unix()
	t := &model.Template{
		ID: tx.NewID(), Seq: tx.Seq(), OwnerID: owner,
		Title: content.Title, Subject: content.Subject, Message: content.Message, Metadata: content.Metadata,
		SignerRoles: content.Roles, CCRoles: content.CCRoles, Documents: docs, Fields: content.Fields,
		Groups: content.Groups, Rules: content.Rules, MergeFields: content.MergeFields,
		AllowCCs: true, SignerExperience: content.SignerExperience, DateFormat: content.DateFormat,
		Status: model.TemplatePreparing, CreatedAt: now, UpdatedAt: now,
	}
	if t.Title == "" && len(docs) > 0 {
		// The real service names an untitled template after its file.
		name := docs[0].Name
		t.Title = strings.TrimSuffix(name, path.Ext(name))
	}
	for _, a := range content.Attachments {
		t.Attachments = append(t.Attachments, model.TemplateAttachment{ID: tx.NewID(), Name: a.Name,
			Instructions: a.Instructions, Role: *a.SignerIndex, Required: a.Required})
	}
	return t
}

// tplDraftInput is the part of TemplateCreateEmbeddedDraftRequest that
// template/create does not have (the body is decoded into both).
type tplDraftInput struct {
	AllowCCs            *bool `json:"allow_ccs"`
	ForceSignerRoles    bool  `json:"force_signer_roles"`
	ForceSubjectMessage bool  `json:"force_subject_message"`
	ShowPreview         bool  `json:"show_preview"`
	ShowProgressStepper *bool `json:"show_progress_stepper"`
	SkipMeNow           bool  `json:"skip_me_now"`
	EditorOptions       *struct {
		AllowEditSigners   bool `json:"allow_edit_signers"`
		AllowEditDocuments bool `json:"allow_edit_documents"`
	} `json:"editor_options"`
}

// templateCreateEmbeddedDraft creates an embedded template draft and an edit
// URL for it. The draft becomes a template when the user saves it in the
// editor (the sandbox's edit page, or POST
// /_sandbox/templates/{id}/finish_draft), which starts its preparation.
func templateCreateEmbeddedDraft(c *api.Call) (any, error) {
	var base ContentInput
	var in tplDraftInput
	if err := c.Bind(&base); err != nil {
		return nil, err
	}
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	if strings.TrimSpace(base.ClientID) == "" {
		return nil, apierr.Missing("client_id")
	}
	content, err := BuildContent(&base, false, false, true)
	if err != nil {
		return nil, err
	}
	ed := model.TemplateEditorOptions{ForceSignerRoles: in.ForceSignerRoles, ForceSubjectMessage: in.ForceSubjectMessage,
		ShowPreview: in.ShowPreview, ShowProgressStepper: in.ShowProgressStepper == nil || *in.ShowProgressStepper,
		SkipMeNow: in.SkipMeNow}
	if in.EditorOptions != nil {
		ed.AllowEditSigners, ed.AllowEditDocuments = in.EditorOptions.AllowEditSigners, in.EditorOptions.AllowEditDocuments
	}
	var url *model.TemplateEditURL
	t, err := createTemplate(c, &base, content, true, func(tx *state.Txn, t *model.Template) error {
		t.AllowCCs = in.AllowCCs == nil || *in.AllowCCs
		t.Editor = &ed
		var err error
		url, err = newTemplateEditURL(tx, t, c.Account.ID, model.TemplateEditURL{Editor: ed, TestMode: base.TestMode})
		return err
	})
	if err != nil {
		return nil, err
	}
	return templateDraftResponse{Template: templateDraftView{TemplateID: t.ID, EditURL: templateEditURL(c, url.Token),
		ExpiresAt: url.ExpiresAt}}, nil
}

// templateGet answers a template the caller may see.
func templateGet(c *api.Call) (any, error) {
	tx := c.Read()
	t, err := templateFor(tx, c.Account.ID, c.Param("template_id"))
	if err != nil {
		return nil, err
	}
	return templateGetResponse{Template: View(tx, t, c.Account.ID)}, nil
}

// templateList lists the templates the chosen account(s) may use, newest
// first. Drafts and templates whose preparation failed are not listed.
func templateList(c *api.Call) (any, error) {
	q, page, size, err := api.ReadListQuery(c)
	if err != nil {
		return nil, err
	}
	filter, err := ParseQuery(q.Query)
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	accounts, e := api.ListAccounts(tx, c.Account, q.AccountID)
	if e != nil {
		return nil, e
	}
	seen := map[string]bool{}
	var rows []*model.Template
	for _, a := range accounts {
		err := state.TemplatesOf(tx, a, func(t *model.Template) bool {
			if seen[t.ID] || t.Status == model.TemplateDraft || t.Status == model.TemplateError {
				return true
			}
			seen[t.ID] = true
			if filter.Match(tx, t, c.Account.ID) {
				rows = append(rows, t)
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(rows, func(a, b *model.Template) int {
		switch {
		case a.Seq > b.Seq:
			return -1
		case a.Seq < b.Seq:
			return 1
		}
		return 0
	})
	rows, info := api.PageSlice(rows, page, size)
	resp := templateListResponse{Templates: []templateResponse{}, ListInfo: info}
	for _, t := range rows {
		resp.Templates = append(resp.Templates, View(tx, t, c.Account.ID))
	}
	return resp, nil
}

// templateDelete deletes a template for good (owner only). Requests already
// made from it are not affected; the quota unit it took is given back.
func templateDelete(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		t, err := templateOwnedBy(tx, c.Account.ID, c.Param("template_id"))
		if err != nil {
			return err
		}
		if t.QuotaCharged {
			if err := refundTemplateQuota(tx, t.OwnerID); err != nil {
				return err
			}
		}
		if err := state.CancelJobs(tx, t.ID); err != nil {
			return err
		}
		// Prepared files and handed-out file URLs go with the template.
		if err := document.GoneFiles(tx, document.KindTemplate, t.ID); err != nil {
			return err
		}
		return state.DeleteTemplate(tx, t.ID)
	})
	if err != nil {
		return nil, err
	}
	return api.EmptyOK(), nil
}
