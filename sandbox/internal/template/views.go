package template

// TemplateResponse and the other template response objects, rendered for a
// viewer (is_creator, can_edit and is_embedded depend on who asks). Only
// names of the official schemas appear; keys of one field type never leak
// into another (validation_type only on text fields, and so on), because the
// conformance check walks the discriminator subtypes.

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterViews adds templates to the catalog, as GET shows them to each
// account (is_creator, can_edit): the console lists them through it, and
// the events about a template carry it rendered through it.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.OfViewer(notify.ObjectTemplate, state.TableTemplates,
		func(t *model.Template) string { return t.ID },
		func(tx *state.Txn, t *model.Template, viewer string) (any, error) {
			if viewer == "" {
				viewer = t.OwnerID
			}
			return View(tx, t, viewer), nil
		},
		func(_ *state.Txn, t *model.Template, accountID string) bool {
			return slices.Contains(t.Accounts(), accountID)
		}))
}

// templateResponse is TemplateResponse.
type templateResponse struct {
	TemplateID       string               `json:"template_id"`
	Title            string               `json:"title"`
	Message          string               `json:"message"`
	UpdatedAt        int64                `json:"updated_at"`
	IsEmbedded       *bool                `json:"is_embedded"`
	IsCreator        bool                 `json:"is_creator"`
	CanEdit          bool                 `json:"can_edit"`
	IsLocked         bool                 `json:"is_locked"`
	Metadata         json.RawMessage      `json:"metadata"`
	SignerRoles      []tplSignerRoleView  `json:"signer_roles"`
	CCRoles          []tplCCRoleView      `json:"cc_roles"`
	Documents        []tplDocumentView    `json:"documents"`
	Accounts         []tplAccountView     `json:"accounts"`
	Attachments      []AttachmentResponse `json:"attachments"`
	SignerExperience *SignerExperience    `json:"signer_experience,omitempty"`
}

// tplSignerRoleView is TemplateResponseSignerRole (order only when the
// roles are ordered: the schema does not allow null).
type tplSignerRoleView struct {
	Name  string `json:"name"`
	Order *int   `json:"order,omitempty"`
}

// tplCCRoleView is TemplateResponseCCRole.
type tplCCRoleView struct {
	Name string `json:"name"`
}

// tplDocumentView is TemplateResponseDocument.
type tplDocumentView struct {
	Name         string         `json:"name"`
	Index        int            `json:"index"`
	FieldGroups  []tplGroupView `json:"field_groups"`
	FormFields   []any          `json:"form_fields"`
	CustomFields []any          `json:"custom_fields"`
	StaticFields []any          `json:"static_fields"`
}

// tplGroupView is TemplateResponseDocumentFieldGroup.
type tplGroupView struct {
	Name string           `json:"name"`
	Rule tplGroupRuleView `json:"rule"`
}

// tplGroupRuleView is TemplateResponseDocumentFieldGroupRule (groupLabel is
// camelCase on the wire).
type tplGroupRuleView struct {
	Requirement string `json:"requirement"`
	GroupLabel  string `json:"groupLabel"`
}

// tplFieldBaseView holds the keys every form field has.
type tplFieldBaseView struct {
	APIID    string `json:"api_id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Signer   string `json:"signer"`
	X        int    `json:"x"`
	Y        int    `json:"y"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Required bool   `json:"required"`
}

// tplTextLayoutView holds the text layout keys (camelCase on the wire).
type tplTextLayoutView struct {
	AvgTextLength    tplAvgTextLengthView `json:"avg_text_length"`
	IsMultiline      bool                 `json:"isMultiline"`
	OriginalFontSize int                  `json:"originalFontSize"`
	FontFamily       string               `json:"fontFamily"`
}

// tplAvgTextLengthView is TemplateResponseFieldAvgTextLength.
type tplAvgTextLengthView struct {
	NumLines        int `json:"num_lines"`
	NumCharsPerLine int `json:"num_chars_per_line"`
}

// tplTextFieldView is TemplateResponseDocumentFormFieldText.
type tplTextFieldView struct {
	tplFieldBaseView
	tplTextLayoutView
	ValidationType                   *string `json:"validation_type"`
	ValidationCustomRegex            *string `json:"validation_custom_regex"`
	ValidationCustomRegexFormatLabel *string `json:"validation_custom_regex_format_label"`
	Group                            *string `json:"group"`
}

// tplHyperlinkFieldView is TemplateResponseDocumentFormFieldHyperlink.
type tplHyperlinkFieldView struct {
	tplFieldBaseView
	tplTextLayoutView
	Group *string `json:"group"`
}

// tplPlainFieldView is every other form field type (group null unless
// grouped; radio fields are always grouped).
type tplPlainFieldView struct {
	tplFieldBaseView
	Group *string `json:"group"`
}

// tplCustomFieldView is TemplateResponseDocumentCustomFieldBase: a merge
// field, signer null (the sender fills it through custom_fields). Fields
// declared in merge_fields but not placed have no position.
type tplCustomFieldView struct {
	APIID    string  `json:"api_id"`
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Signer   *string `json:"signer"`
	X        *int    `json:"x,omitempty"`
	Y        *int    `json:"y,omitempty"`
	Width    *int    `json:"width,omitempty"`
	Height   *int    `json:"height,omitempty"`
	Required bool    `json:"required"`
	Group    *string `json:"group"`
}

// tplTextCustomFieldView is TemplateResponseDocumentCustomFieldText.
type tplTextCustomFieldView struct {
	tplCustomFieldView
	*tplTextLayoutView
}

// tplAccountView is TemplateResponseAccount.
type tplAccountView struct {
	AccountID    string              `json:"account_id"`
	EmailAddress string              `json:"email_address"`
	IsLocked     bool                `json:"is_locked"`
	IsPaidHS     bool                `json:"is_paid_hs"`
	IsPaidHF     bool                `json:"is_paid_hf"`
	Quotas       tplAccountQuotaView `json:"quotas"`
}

// tplAccountQuotaView is TemplateResponseAccountQuota. Its integers are not
// nullable in the schema, so unlimited allowances are left out instead of
// being shown as null.
type tplAccountQuotaView struct {
	TemplatesLeft            *int `json:"templates_left,omitempty"`
	APISignatureRequestsLeft *int `json:"api_signature_requests_left,omitempty"`
	DocumentsLeft            *int `json:"documents_left,omitempty"`
	SMSVerificationsLeft     *int `json:"sms_verifications_left,omitempty"`
}

// templateGetResponse is TemplateGetResponse.
type templateGetResponse struct {
	Template templateResponse `json:"template"`
}

// templateListResponse is TemplateListResponse.
type templateListResponse struct {
	Templates []templateResponse   `json:"templates"`
	ListInfo  api.ListInfoResponse `json:"list_info"`
}

// templateIDResponse is TemplateCreateResponse / TemplateUpdateFilesResponse.
type templateIDResponse struct {
	Template templateIDView `json:"template"`
}

type templateIDView struct {
	TemplateID string `json:"template_id"`
}

// templateDraftResponse is TemplateCreateEmbeddedDraftResponse.
type templateDraftResponse struct {
	Template templateDraftView `json:"template"`
}

type templateDraftView struct {
	TemplateID string `json:"template_id"`
	EditURL    string `json:"edit_url"`
	ExpiresAt  int64  `json:"expires_at"`
}

// templateRoleSigner is how a response names a field's signer role: its
// 1-based number as text ("1" is the first role), as the official
// TemplateGetResponse example shows.
func templateRoleSigner(role int) string { return strconv.Itoa(role + 1) }

// View renders a template as GET /template shows it to viewer.
func View(tx *state.Txn, t *model.Template, viewer string) templateResponse {
	creator := t.OwnerID == viewer
	r := templateResponse{
		TemplateID: t.ID, Title: t.Title, Message: t.Message, UpdatedAt: t.UpdatedAt,
		IsCreator: creator, CanEdit: creator, IsLocked: t.IsLocked, Metadata: t.Metadata,
		SignerRoles: []tplSignerRoleView{}, CCRoles: []tplCCRoleView{}, Documents: []tplDocumentView{},
		Accounts: []tplAccountView{}, Attachments: []AttachmentResponse{},
	}
	if len(r.Metadata) == 0 {
		r.Metadata = json.RawMessage(`{}`)
	}
	if creator {
		embedded := t.ClientID != ""
		r.IsEmbedded = &embedded
	}
	for _, role := range t.SignerRoles {
		r.SignerRoles = append(r.SignerRoles, tplSignerRoleView{Name: role.Name, Order: role.Order})
	}
	for _, cc := range t.CCRoles {
		r.CCRoles = append(r.CCRoles, tplCCRoleView{Name: cc})
	}
	for i, d := range t.Documents {
		r.Documents = append(r.Documents, viewTemplateDocument(t, i, d))
	}
	for _, id := range t.Accounts() {
		a, err := state.Get[model.Account](tx, state.TableAccounts, id)
		if err != nil {
			continue
		}
		q := a.Quotas
		r.Accounts = append(r.Accounts, tplAccountView{
			AccountID: a.ID, EmailAddress: a.Email, IsLocked: a.IsLocked, IsPaidHS: a.IsPaidHS, IsPaidHF: a.IsPaidHF,
			Quotas: tplAccountQuotaView{TemplatesLeft: q.TemplatesLeft, APISignatureRequestsLeft: q.APISignatureRequestsLeft,
				DocumentsLeft: q.DocumentsLeft, SMSVerificationsLeft: q.SMSVerificationsLeft},
		})
	}
	for _, a := range t.Attachments {
		r.Attachments = append(r.Attachments, AttachmentResponse{ID: a.ID, Signer: templateRoleSigner(a.Role), Name: a.Name,
			Required: a.Required, Instructions: api.NullString(a.Instructions)})
	}
	if t.SignerExperience != "" {
		r.SignerExperience = &SignerExperience{FormView: t.SignerExperience}
	}
	return r
}

// viewTemplateDocument renders one document with its fields, merge fields
// and groups. Merge fields declared without a placement are listed on the
// first document.
func viewTemplateDocument(t *model.Template, index int, d model.Document) tplDocumentView {
	v := tplDocumentView{Name: d.Name, Index: index, FieldGroups: []tplGroupView{}, FormFields: []any{},
		CustomFields: []any{}, StaticFields: []any{}}
	groups := map[string]bool{}
	placed := map[string]bool{}
	for _, f := range t.Fields {
		if f.IsMerge() {
			placed[f.Name] = true
		}
		if f.DocumentIndex != index {
			continue
		}
		if f.IsMerge() {
			v.CustomFields = append(v.CustomFields, viewTemplateCustomField(f))
			continue
		}
		v.FormFields = append(v.FormFields, viewTemplateFormField(f))
		if f.Group != "" && !groups[f.Group] {
			groups[f.Group] = true
			for _, g := range t.Groups {
				if g.GroupID == f.Group {
					v.FieldGroups = append(v.FieldGroups, tplGroupView{Name: g.GroupID, Rule: tplGroupRuleView{Requirement: g.Requirement, GroupLabel: g.GroupLabel}})
				}
			}
		}
	}
	if index == 0 {
		for _, m := range t.MergeFields {
			if placed[m.Name] {
				continue
			}
			base := tplCustomFieldView{APIID: tplMergeFieldAPIID(t.ID, m.Name), Name: m.Name, Type: m.Type}
			if m.Type == "text" {
				v.CustomFields = append(v.CustomFields, tplTextCustomFieldView{tplCustomFieldView: base})
			} else {
				v.CustomFields = append(v.CustomFields, base)
			}
		}
	}
	return v
}

// tplMergeFieldAPIID is the api_id of a declared, unplaced merge field:
// stable for the template and the name.
func tplMergeFieldAPIID(templateID, name string) string {
	id := templateID
	if len(id) > 6 {
		id = id[:6]
	}
	return id + "_merge_" + name
}

func viewTemplateFormField(f model.TemplateField) any {
	base := tplFieldBaseView{APIID: f.APIID, Name: f.Name, Type: f.Type, Signer: templateRoleSigner(f.Role),
		X: f.X, Y: f.Y, Width: f.Width, Height: f.Height, Required: f.Required}
	group := api.NullString(f.Group)
	switch f.Type {
	case "text":
		return tplTextFieldView{tplFieldBaseView: base, tplTextLayoutView: tplTextLayout(f),
			ValidationType: api.NullString(f.ValidationType), ValidationCustomRegex: api.NullString(f.ValidationCustomRegex),
			ValidationCustomRegexFormatLabel: api.NullString(f.ValidationCustomRegexFormatLabel), Group: group}
	case "hyperlink":
		return tplHyperlinkFieldView{tplFieldBaseView: base, tplTextLayoutView: tplTextLayout(f), Group: group}
	}
	return tplPlainFieldView{tplFieldBaseView: base, Group: group}
}

func viewTemplateCustomField(f model.TemplateField) any {
	typ := "text"
	if f.Type == "checkbox-merge" {
		typ = "checkbox"
	}
	base := tplCustomFieldView{APIID: f.APIID, Name: f.Name, Type: typ, X: intPtr(f.X), Y: intPtr(f.Y),
		Width: intPtr(f.Width), Height: intPtr(f.Height), Required: f.Required, Group: api.NullString(f.Group)}
	if f.Role >= 0 {
		s := templateRoleSigner(f.Role)
		base.Signer = &s
	}
	if typ == "checkbox" {
		return base
	}
	layout := tplTextLayout(f)
	return tplTextCustomFieldView{tplCustomFieldView: base, tplTextLayoutView: &layout}
}

// tplTextLayout estimates how much text a field holds at its font size:
// characters of about 0.35 em, lines of 1.2 em, at least one of each. The
// real service measures its fonts; these numbers are the sandbox's.
func tplTextLayout(f model.TemplateField) tplTextLayoutView {
	size := f.FontSize
	if size == 0 {
		size = 12
	}
	family := f.FontFamily
	if family == "" {
		family = "helvetica"
	}
	lines := int(float64(f.Height) / (float64(size) * 1.2))
	if lines < 1 {
		lines = 1
	}
	chars := int(float64(f.Width) / (float64(size) * 0.35))
	if chars < 1 {
		chars = 1
	}
	return tplTextLayoutView{AvgTextLength: tplAvgTextLengthView{NumLines: lines, NumCharsPerLine: chars},
		IsMultiline: lines > 1, OriginalFontSize: size, FontFamily: family}
}

// AttachmentResponse is SignatureRequestResponseAttachment (of requests
// and templates).
type AttachmentResponse struct {
	ID           string  `json:"id"`
	Signer       string  `json:"signer"`
	Name         string  `json:"name"`
	Required     bool    `json:"required"`
	Instructions *string `json:"instructions"`
	UploadedAt   *int64  `json:"uploaded_at"`
}

// SignerExperience is SignatureRequestSignerExperience (of requests and
// templates).
type SignerExperience struct {
	FormView string `json:"form_view"`
}
