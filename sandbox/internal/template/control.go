package template

// Control plane for templates: finishing an embedded draft as if the user
// had saved it in the editor, and the fields a person places on a
// template's documents (the console's field editor):
//
//	GET /_sandbox/templates/{template_id}/fields
//	PUT /_sandbox/templates/{template_id}/fields   {"fields": [...]}
//	GET /_sandbox/templates/{template_id}/documents/{index}   (the PDF)

import (
	"net/http"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterControl(r *api.Registry) {
	r.Control(http.MethodPost, "/templates/{template_id}/finish_draft", controlFinishDraft)
	r.Control(http.MethodGet, "/templates/{template_id}/fields", controlTemplateFields)
	r.Control(http.MethodPut, "/templates/{template_id}/fields", controlTemplateFieldsPut)
	r.Control(http.MethodGet, "/templates/{template_id}/documents/{index}", controlTemplateDocument)
}

// templateFieldsView is a template's placed fields with what placing them
// needs: its signer roles and its documents' page sizes.
type templateFieldsView struct {
	TemplateID  string             `json:"template_id"`
	Status      string             `json:"status"`
	SignerRoles []string           `json:"signer_roles"`
	Documents   []templateDocPages `json:"documents"`
	Fields      []placedField      `json:"fields"`
}

// templateDocPages is a document with its page sizes (points).
type templateDocPages struct {
	Index int          `json:"index"`
	Name  string       `json:"name"`
	Pages []model.Page `json:"pages"`
}

func viewTemplateFields(t *model.Template) templateFieldsView {
	v := templateFieldsView{TemplateID: t.ID, Status: t.Status, SignerRoles: roleNames(t.SignerRoles),
		Documents: []templateDocPages{}, Fields: placedFields(t)}
	for i, d := range t.Documents {
		pages := append([]model.Page{}, d.Pages...)
		v.Documents = append(v.Documents, templateDocPages{Index: i, Name: d.Name, Pages: pages})
	}
	return v
}

func controlTemplate(c *api.Call, tx *state.Txn) (*model.Template, error) {
	t, err := state.GetTemplate(tx, c.Param("template_id"))
	if err != nil {
		return nil, api.ErrControlNotFound("template", c.Param("template_id"))
	}
	return t, nil
}

// controlTemplateFields answers a template's placed fields.
func controlTemplateFields(c *api.Call) (any, error) {
	t, err := controlTemplate(c, c.Read())
	if err != nil {
		return nil, err
	}
	return viewTemplateFields(t), nil
}

// templateFieldsRequest is the body of PUT .../fields.
type templateFieldsRequest struct {
	Fields []any `json:"fields"`
}

// controlTemplateFieldsPut replaces a template's signer fields with those
// given, as saving in the editor does; GET /v3/template then shows them.
// A template that could not be created (template_error) is refused (409).
func controlTemplateFieldsPut(c *api.Call) (any, error) {
	var req templateFieldsRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if !c.Has("fields") {
		return nil, apierr.Missing("fields")
	}
	var out templateFieldsView
	err := c.Update(func(tx *state.Txn) error {
		t, err := controlTemplate(c, tx)
		if err != nil {
			return err
		}
		if t.Status == model.TemplateError {
			return apierr.Conflictf("Template %s could not be created (template_error); its fields cannot change.", t.ID)
		}
		cl := cloneTemplate(t)
		if err := replacePlacedFields(cl, req.Fields, "fields"); err != nil {
			return err
		}
		cl.UpdatedAt = tx.Unix()
		if err := state.PutTemplate(tx, cl); err != nil {
			return err
		}
		out = viewTemplateFields(cl)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// controlTemplateDocument answers a template's document as PDF (what the
// field editor draws).
func controlTemplateDocument(c *api.Call) (any, error) {
	tx := c.Read()
	t, err := controlTemplate(c, tx)
	if err != nil {
		return nil, err
	}
	i, err := strconv.Atoi(c.Param("index"))
	if err != nil || i < 0 || i >= len(t.Documents) || t.Documents[i].PDFBlobID == "" {
		return nil, apierr.NotFoundf("Template %s has no document %s.", t.ID, c.Param("index"))
	}
	data, err := state.GetBlob(tx, t.Documents[i].PDFBlobID)
	if err != nil {
		return nil, apierr.NotFoundf("Template %s has no document %s.", t.ID, c.Param("index"))
	}
	return document.FileDownload(data, "application/pdf", t.Documents[i].Name, true), nil
}

// finishDraftRequest is the body of finish_draft: what the user would have
// entered in the editor (everything optional; signer_roles are needed when
// the draft has none).
type finishDraftRequest struct {
	Title       *string        `json:"title"`
	Subject     *string        `json:"subject"`
	Message     *string        `json:"message"`
	SignerRoles []tplRoleInput `json:"signer_roles"`
	CCRoles     []string       `json:"cc_roles"`
}

// controlFinishDraft saves an embedded draft of the caller's world: the
// template starts its preparation and template_created follows after the
// world's TemplatePreparationDelay. Answers the template as its owner sees
// it ({"template": ...}).
func controlFinishDraft(c *api.Call) (any, error) {
	var req finishDraftRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	e := tplEdits{Title: req.Title, Subject: req.Subject, Message: req.Message}
	if c.Has("signer_roles") {
		e.SignerRoles = []model.TemplateRole{}
		for _, r := range req.SignerRoles {
			role := model.TemplateRole{Order: r.Order}
			if r.Name != nil {
				role.Name = *r.Name
			}
			e.SignerRoles = append(e.SignerRoles, role)
		}
	}
	if c.Has("cc_roles") {
		e.SetCCRoles, e.CCRoles = true, req.CCRoles
	}
	var out templateResponse
	err := c.Update(func(tx *state.Txn) error {
		t, err := state.GetTemplate(tx, c.Param("template_id"))
		if err != nil {
			return api.ErrControlNotFound("template", c.Param("template_id"))
		}
		if t.Status != model.TemplateDraft {
			return apierr.Conflictf("Template %s is not an embedded draft (it is %s).", t.ID, t.Status)
		}
		saved, err := saveTemplateEdits(tx, t, nil, e)
		if err != nil {
			return err
		}
		out = View(tx, saved, saved.OwnerID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return templateGetResponse{Template: out}, nil
}
