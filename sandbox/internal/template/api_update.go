package template

// POST /template/update/{template_id} (templateUpdate): the operation the
// public reference hides but the official SDKs ship (openapi-sdk.yaml). It
// changes a template in place: title, subject, message, cc_roles,
// signer_experience and the names of form fields; everything not given
// stays as it was. Requests sent from the template afterwards take the new
// values, as they take everything else from the template when they are
// made. The service sends no event for it (the event vocabulary has no
// template update).

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterUpdate(r *api.Registry) {
	r.Handle("templateUpdate", templateUpdate)
}

// tplUpdateInput is TemplateUpdateRequest. AllowFormView is the parameter
// the same SDK description had before signer_experience replaced it (SDK
// sources of July to September 2025 send it).
type tplUpdateInput struct {
	Title            *string               `json:"title"`
	Subject          *string               `json:"subject"`
	Message          *string               `json:"message"`
	CCRoles          []string              `json:"cc_roles"`
	FormFields       []tplUpdateFieldInput `json:"form_fields"`
	SignerExperience *struct {
		FormView string `json:"form_view"`
	} `json:"signer_experience"`
	AllowFormView *bool `json:"allow_form_view"`
}

// tplUpdateFieldInput is SubUpdateFormField.
type tplUpdateFieldInput struct {
	APIID string  `json:"api_id"`
	Name  *string `json:"name"`
}

// tplUpdate is a checked templateUpdate request: nil and false mean "keep".
type tplUpdate struct {
	title, subject, message *string
	setCCRoles              bool
	ccRoles                 []string
	formView                *string
	// namesRequired is allow_form_view=true, whose description requires
	// every form field of the template to have a name.
	namesRequired bool
	renames       []tplUpdateFieldInput
	renamePaths   []string
}

// templateUpdate checks the request, then changes the template in one
// transaction under the rules of the template's other changes: only the
// owner (404 for those who cannot see it, 403 for those who can), 409 while
// a draft or being prepared, 400 after template_error. It takes no quota
// and leaves is_locked as it is (a locked template stays usable only in
// test_mode). A form_fields entry whose api_id names no form field of the
// template changes nothing and is answered with a parameter_invalid warning.
func templateUpdate(c *api.Call) (any, error) {
	var in tplUpdateInput
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	u, err := checkTemplateUpdate(&in, c.Has("cc_roles"))
	if err != nil {
		return nil, err
	}
	var out templateResponse
	var unmatched []string
	err = c.Update(func(tx *state.Txn) error {
		t, err := templateOwnedBy(tx, c.Account.ID, c.Param("template_id"))
		if err != nil {
			return err
		}
		switch t.Status {
		case model.TemplateDraft, model.TemplatePreparing:
			return apierr.Conflictf("The template is still being prepared: wait for the template_created event.")
		case model.TemplateError:
			return apierr.Badf("template_id", "The template could not be created (template_error) and cannot be updated.")
		}
		ct := cloneTemplate(t)
		if unmatched, err = applyTemplateUpdate(ct, u); err != nil {
			return err
		}
		ct.UpdatedAt = tx.Unix()
		if err := state.PutTemplate(tx, ct); err != nil {
			return err
		}
		out = View(tx, ct, c.Account.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range unmatched {
		c.Warn("parameter_invalid", p+" names no form field of this template and was ignored.")
	}
	return templateGetResponse{Template: out}, nil
}

// checkTemplateUpdate checks what can be checked without the template.
func checkTemplateUpdate(in *tplUpdateInput, hasCCRoles bool) (*tplUpdate, error) {
	u := &tplUpdate{title: in.Title, subject: in.Subject, message: in.Message}
	if in.Title != nil {
		if err := param.CheckMaxLen("title", *in.Title, 255); err != nil {
			return nil, err
		}
	}
	if in.Subject != nil {
		if err := param.CheckMaxLen("subject", *in.Subject, 200); err != nil {
			return nil, err
		}
	}
	if in.Message != nil {
		if err := param.CheckMaxLen("message", *in.Message, 5000); err != nil {
			return nil, err
		}
	}
	if hasCCRoles {
		roles, err := updatedCCRoles(in.CCRoles)
		if err != nil {
			return nil, err
		}
		u.setCCRoles, u.ccRoles = true, roles
	}
	if in.SignerExperience != nil {
		if in.AllowFormView != nil {
			return nil, apierr.Badf("allow_form_view", "allow_form_view and signer_experience[form_view] both set the form view: send only signer_experience.")
		}
		if e := fields.CheckFormView(in.SignerExperience.FormView); e != nil {
			return nil, e
		}
		u.formView = &in.SignerExperience.FormView
	} else if in.AllowFormView != nil {
		view := "disabled"
		if *in.AllowFormView {
			view, u.namesRequired = "enabled", true
		}
		u.formView = &view
	}
	seen := map[string]bool{}
	for i, f := range in.FormFields {
		p := fmt.Sprintf("form_fields[%d]", i)
		f.APIID = strings.TrimSpace(f.APIID)
		if f.APIID == "" {
			return nil, apierr.Missing(p + "[api_id]")
		}
		if seen[f.APIID] {
			return nil, apierr.Badf(p+"[api_id]", "api_id %q is given twice in form_fields.", f.APIID)
		}
		seen[f.APIID] = true
		if f.Name != nil {
			trimmed := strings.TrimSpace(*f.Name)
			f.Name = &trimmed
		}
		u.renames = append(u.renames, f)
		u.renamePaths = append(u.renamePaths, p+"[api_id]")
	}
	return u, nil
}

// updatedCCRoles checks cc_roles as template/create does (named, unique);
// an empty list, or a single role with no name (as embedded/edit_url
// documents it), removes every CC role.
func updatedCCRoles(given []string) ([]string, error) {
	if len(given) == 1 && strings.TrimSpace(given[0]) == "" {
		return nil, nil
	}
	var out []string
	seen := map[string]bool{}
	for i, name := range given {
		p := fmt.Sprintf("cc_roles[%d]", i)
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, apierr.Badf(p, "This value should not be blank")
		}
		if err := param.CheckMaxLen(p, name, 255); err != nil {
			return nil, err
		}
		key := strings.ToLower(name)
		if seen[key] {
			return nil, apierr.Badf(p, "Duplicate CC role name %q: role names must be unique.", name)
		}
		seen[key] = true
		out = append(out, name)
	}
	return out, nil
}

// applyTemplateUpdate changes t (a copy) and answers the paths of the
// form_fields entries that matched no form field.
func applyTemplateUpdate(t *model.Template, u *tplUpdate) ([]string, error) {
	if u.title != nil {
		t.Title = *u.title
	}
	if u.subject != nil {
		t.Subject = *u.subject
	}
	if u.message != nil {
		t.Message = *u.message
	}
	if u.setCCRoles {
		for i, name := range u.ccRoles {
			for _, r := range t.SignerRoles {
				if strings.EqualFold(r.Name, name) {
					return nil, apierr.Badf(fmt.Sprintf("cc_roles[%d]", i), "%q is already a signer role: a CC role needs its own name.", name)
				}
			}
		}
		t.CCRoles = u.ccRoles
	}
	var unmatched []string
	for i, rename := range u.renames {
		found := false
		for j := range t.Fields {
			if t.Fields[j].APIID != rename.APIID || t.Fields[j].IsMerge() {
				continue
			}
			found = true
			if rename.Name != nil {
				t.Fields[j].Name = *rename.Name
			}
		}
		if !found {
			unmatched = append(unmatched, u.renamePaths[i])
		}
	}
	if u.formView != nil {
		if u.namesRequired {
			for _, f := range t.Fields {
				if !f.IsMerge() && strings.TrimSpace(f.Name) == "" {
					return nil, apierr.Badf("allow_form_view", "allow_form_view needs a name on every form field of the template; the field %q has none (name it in form_fields).", f.APIID)
				}
			}
		}
		t.SignerExperience = *u.formView
	}
	return unmatched, nil
}
