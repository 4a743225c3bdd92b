package sandbox

// Control plane for templates: finishing an embedded draft as if the user
// had saved it in the editor.

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerControlTemplates(r *api.Registry) {
	r.Control(http.MethodPost, "/templates/{template_id}/finish_draft", controlFinishDraft)
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
		e.SignerRoles = []state.TemplateRole{}
		for _, r := range req.SignerRoles {
			role := state.TemplateRole{Order: r.Order}
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
		if t.Status != state.TemplateDraft {
			return apierr.Conflictf("Template %s is not an embedded draft (it is %s).", t.ID, t.Status)
		}
		saved, err := saveTemplateEdits(tx, t, nil, e)
		if err != nil {
			return err
		}
		out = viewTemplate(tx, saved, saved.OwnerID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return templateGetResponse{Template: out}, nil
}
