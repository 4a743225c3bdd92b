package template

// Requests from templates: send_with_template, create_embedded_with_template,
// edit_with_template and edit_embedded_with_template use the templates'
// documents, fields, roles and merge fields. The signature request code
// (sigreq/templates.go) binds signers, CCs and custom_fields to what
// Combine answers, through ResolveRequest, which it calls directly.

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// tplTestModeBody reads test_mode of the request being resolved (locked
// templates are usable only in test_mode).
type tplTestModeBody struct {
	TestMode bool `json:"test_mode"`
}

// ResolveRequest is how a signature request resolves its template_ids:
// the caller's templates combined, checked against the request's
// test_mode.
func ResolveRequest(c *api.Call, tx *state.Txn, ids []string) (*Use, error) {
	var body tplTestModeBody
	if err := c.Bind(&body); err != nil {
		return nil, err
	}
	return Combine(tx, c.Account.ID, ids, body.TestMode)
}

// Combine checks the templates of a request and combines them in
// the order given. Errors carry error_path template_ids[i]: 404 not_found
// for unknown or invisible templates (other accounts, other worlds, deleted
// ones), 403 forbidden for a team template not shared with the caller, 409
// conflict while a template is a draft or being prepared, 400 bad_request
// after template_error, 402 payment_required for a locked template outside
// test_mode.
//
// Combining: signer roles are merged by name (each template's roles in
// signing order, templates in the order given); when any template orders its
// roles, Order is the role's position in the combined list. CC roles and
// merge fields are merged by name. Title, subject, message, date format and
// form view come from the first template that sets them. Documents follow
// each other, so field document indexes are shifted; an api_id, group id or
// rule id already used gets the suffix _<n> (n the template's 1-based
// position), again until it is unique ("a" of the second template becomes
// a_2_2 when the first had both a and a_2).
func Combine(tx *state.Txn, accountID string, ids []string, testMode bool) (*Use, error) {
	var templates []*model.Template
	for i, id := range ids {
		t, err := usableTemplate(tx, accountID, id, testMode)
		if err != nil {
			if e, ok := apierr.As(err); ok {
				return nil, e.WithPath(fmt.Sprintf("template_ids[%d]", i))
			}
			return nil, err
		}
		templates = append(templates, t)
	}
	use := &Use{}
	roles, ordered := combinedRoles(templates)
	for i, r := range roles {
		role := Role{Name: r}
		if ordered {
			role.Order = intPtr(i)
		}
		use.SignerRoles = append(use.SignerRoles, role)
	}
	apiIDs := map[string]bool{}
	groupIDs := map[string]bool{}
	ruleIDs := map[string]bool{}
	mergeNames := map[string]bool{}
	for ti, t := range templates {
		suffix := "_" + strconv.Itoa(ti+1)
		unique := func(used map[string]bool, id string) string {
			for used[id] {
				id += suffix
			}
			used[id] = true
			return id
		}
		// The first template that sets a text or setting gives it.
		param.FillBlank(&use.Title, t.Title)
		param.FillBlank(&use.Subject, t.Subject)
		param.FillBlank(&use.Message, t.Message)
		param.FillBlank(&use.DateFormat, t.DateFormat)
		param.FillBlank(&use.FormView, t.SignerExperience)
		use.AllowReassign = use.AllowReassign || t.AllowReassign
		for _, r := range t.CCRoles {
			if !slices.Contains(use.CCRoles, r) {
				use.CCRoles = append(use.CCRoles, r)
			}
		}
		offset := len(use.Documents)
		use.Documents = append(use.Documents, t.Documents...)

		ids := map[string]string{}
		for _, f := range t.Fields {
			ids[f.APIID] = unique(apiIDs, f.APIID)
		}
		groups := map[string]string{}
		for _, g := range t.Groups {
			groups[g.GroupID] = unique(groupIDs, g.GroupID)
			use.FieldGroups = append(use.FieldGroups, model.FieldGroup{GroupID: groups[g.GroupID], GroupLabel: g.GroupLabel, Requirement: g.Requirement})
		}
		for _, f := range t.Fields {
			rf := requestField(t, f, offset)
			rf.APIID, rf.Group = ids[f.APIID], groups[f.Group]
			use.FormFields = append(use.FormFields, rf)
			if f.IsMerge() && !mergeNames[f.Name] {
				mergeNames[f.Name] = true
				typ := "text"
				if f.Type == "checkbox-merge" {
					typ = "checkbox"
				}
				use.MergeFields = append(use.MergeFields, MergeField{Name: f.Name, Type: typ, APIID: rf.APIID})
			}
		}
		for _, m := range t.MergeFields {
			if !mergeNames[m.Name] {
				mergeNames[m.Name] = true
				use.MergeFields = append(use.MergeFields, MergeField{Name: m.Name, Type: m.Type, APIID: tplMergeFieldAPIID(t.ID, m.Name)})
			}
		}
		for _, r := range t.Rules {
			nr := model.FieldRule{ID: unique(ruleIDs, r.ID), TriggerOperator: r.TriggerOperator}
			for _, tr := range r.Triggers {
				nr.Triggers = append(nr.Triggers, model.RuleTrigger{ID: ids[tr.ID], Operator: tr.Operator, Value: tr.Value,
					Values: append([]string(nil), tr.Values...)})
			}
			for _, a := range r.Actions {
				act := model.RuleAction{Hidden: a.Hidden, Type: a.Type}
				if a.FieldID != "" {
					act.FieldID = ids[a.FieldID]
				}
				if a.GroupID != "" {
					act.GroupID = groups[a.GroupID]
				}
				nr.Actions = append(nr.Actions, act)
			}
			use.FieldRules = append(use.FieldRules, nr)
		}
		for _, a := range t.Attachments {
			use.Attachments = append(use.Attachments, Attachment{Name: a.Name, Instructions: a.Instructions,
				Role: t.SignerRoles[a.Role].Name, Required: a.Required})
		}
	}
	return use, nil
}

// usableTemplate finds a template the caller may send with.
func usableTemplate(tx *state.Txn, accountID, id string, testMode bool) (*model.Template, error) {
	t, err := templateFor(tx, accountID, id)
	if err != nil {
		return nil, err
	}
	if !templateCanUse(t, accountID) {
		return nil, apierr.Forbiddenf("Template %s has not been shared with you.", t.ID)
	}
	switch t.Status {
	case model.TemplateDraft:
		return nil, apierr.Conflictf("Template %s is an embedded draft that has not been saved in the editor yet.", t.ID)
	case model.TemplatePreparing:
		return nil, apierr.Conflictf("Template %s is still being prepared: wait for the template_created event.", t.ID)
	case model.TemplateError:
		return nil, apierr.Badf("", "Template %s could not be created (template_error) and cannot be used.", t.ID)
	}
	if t.IsLocked && !testMode {
		return nil, apierr.PaymentRequiredf("Template %s is locked (it was created outside your template quota) and can only be used with test_mode=1.", t.ID)
	}
	return t, nil
}

// combinedRoles lists the signer roles of several templates, merged by name:
// each template's roles in signing order (by order when set, else as
// defined), templates in the order given. ordered is true when any template
// orders its roles.
func combinedRoles(templates []*model.Template) (roles []string, ordered bool) {
	for _, t := range templates {
		rs := append([]model.TemplateRole(nil), t.SignerRoles...)
		slices.SortStableFunc(rs, func(a, b model.TemplateRole) int {
			switch {
			case a.Order == nil || b.Order == nil:
				return 0
			case *a.Order < *b.Order:
				return -1
			case *a.Order > *b.Order:
				return 1
			}
			return 0
		})
		for _, r := range rs {
			if r.Order != nil {
				ordered = true
			}
			if !slices.Contains(roles, r.Name) {
				roles = append(roles, r.Name)
			}
		}
	}
	return roles, ordered
}

// requestField turns a template field into a request field on the combined
// documents: Role names the signer role (Signer empty), merge fields have
// Signer "sender".
func requestField(t *model.Template, f model.TemplateField, docOffset int) model.FormField {
	rf := model.FormField{
		APIID: f.APIID, Name: f.Name, Type: f.Type, DocumentIndex: f.DocumentIndex + docOffset,
		X: f.X, Y: f.Y, Width: f.Width, Height: f.Height, Required: f.Required, Group: f.Group,
		FieldKeys: f.FieldKeys,
	}
	rf.Options = append([]string(nil), f.Options...)
	if f.Page > 0 {
		rf.Page = intPtr(f.Page)
	}
	if f.Role >= 0 && f.Role < len(t.SignerRoles) {
		rf.Role = t.SignerRoles[f.Role].Name
	} else {
		rf.Signer = "sender"
	}
	return rf
}
