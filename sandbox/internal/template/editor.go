package template

// Embedded template editing: POST /embedded/edit_url/{template_id} hands out
// edit URLs for embedded templates; the URL is a page served by the sandbox
// (/_sandbox/w/{world}/editor/template/{token}) where the "user" edits the
// template's title, subject, message and roles, places its fields on the
// documents (package signpage) and saves it. Saving a draft (or an embedded
// template) starts its preparation, as saving in the real editor does;
// template_created follows.

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func RegisterEditor(r *api.Registry) {
	r.Handle("embeddedEditUrl", embeddedEditURL)
	r.ControlPublic(http.MethodGet, "/w/{world}/editor/template/{token}", editorPage)
	r.ControlPublic(http.MethodPost, "/w/{world}/editor/template/{token}", editorSave)
	r.ControlPublic(http.MethodGet, "/w/{world}/editor/template/{token}/documents/{index}", editorDocument)
	r.ControlPublic(http.MethodGet, "/w/{world}/editor/template/{token}"+apiapp.LogoPath, editorLogo)
}

// tplEditURLInput is EmbeddedEditUrlRequest.
type tplEditURLInput struct {
	AllowEditCCs  bool     `json:"allow_edit_ccs"`
	CCRoles       []string `json:"cc_roles"`
	EditorOptions *struct {
		AllowEditSigners   bool `json:"allow_edit_signers"`
		AllowEditDocuments bool `json:"allow_edit_documents"`
	} `json:"editor_options"`
	ForceSignerRoles    bool                 `json:"force_signer_roles"`
	ForceSubjectMessage bool                 `json:"force_subject_message"`
	MergeFields         []tplMergeFieldInput `json:"merge_fields"`
	PreviewOnly         bool                 `json:"preview_only"`
	ShowPreview         bool                 `json:"show_preview"`
	ShowProgressStepper *bool                `json:"show_progress_stepper"`
	TestMode            bool                 `json:"test_mode"`
	SignerExperience    *struct {
		FormView string `json:"form_view"`
	} `json:"signer_experience"`
}

// embeddedEditURLResponse is EmbeddedEditUrlResponse.
type embeddedEditURLResponse struct {
	Embedded embeddedEditURLView `json:"embedded"`
}

type embeddedEditURLView struct {
	EditURL   string `json:"edit_url"`
	ExpiresAt int64  `json:"expires_at"`
}

// embeddedEditURL answers a fresh edit URL for an embedded template of the
// caller. Templates not created with a client_id are refused with 400;
// locked templates need test_mode (402 otherwise). cc_roles and
// merge_fields take effect when the user saves.
func embeddedEditURL(c *api.Call) (any, error) {
	var in tplEditURLInput
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	opts := model.TemplateEditURL{TestMode: in.TestMode, Editor: model.TemplateEditorOptions{
		ForceSignerRoles: in.ForceSignerRoles, ForceSubjectMessage: in.ForceSubjectMessage, ShowPreview: in.ShowPreview,
		PreviewOnly: in.PreviewOnly, ShowProgressStepper: in.ShowProgressStepper == nil || *in.ShowProgressStepper,
		AllowEditCCs: in.AllowEditCCs,
	}}
	if in.EditorOptions != nil {
		opts.Editor.AllowEditSigners, opts.Editor.AllowEditDocuments = in.EditorOptions.AllowEditSigners, in.EditorOptions.AllowEditDocuments
	}
	if in.SignerExperience != nil {
		if e := fields.CheckFormView(in.SignerExperience.FormView); e != nil {
			return nil, e
		}
	}
	if c.Has("cc_roles") {
		seen := map[string]bool{}
		for i, r := range in.CCRoles {
			r = strings.TrimSpace(r)
			if r == "" && len(in.CCRoles) == 1 {
				break // a single role with no name removes every CC role
			}
			p := fmt.Sprintf("cc_roles[%d]", i)
			if r == "" {
				return nil, apierr.Badf(p, "This value should not be blank")
			}
			if seen[strings.ToLower(r)] {
				return nil, apierr.Badf(p, "Duplicate CC role name %q.", r)
			}
			seen[strings.ToLower(r)] = true
		}
		opts.CCRoles = append([]string{}, in.CCRoles...)
		if len(opts.CCRoles) == 0 {
			opts.CCRoles = []string{""}
		}
	}
	if c.Has("merge_fields") {
		merges, err := tplMergeFields(in.MergeFields) // input.go
		if err != nil {
			return nil, err
		}
		opts.SetMergeFields, opts.MergeFields = true, merges
	}
	var url *model.TemplateEditURL
	err := c.Update(func(tx *state.Txn) error {
		t, err := templateOwnedBy(tx, c.Account.ID, c.Param("template_id"))
		if err != nil {
			return err
		}
		if t.ClientID == "" {
			return apierr.Badf("template_id", "Only templates created through the embedded template flow (with a client_id) can be edited with an edit URL.")
		}
		if t.IsLocked && !in.TestMode {
			return apierr.PaymentRequiredf("This template is locked (created outside your template quota): it can only be edited with test_mode=1.").WithPath("test_mode")
		}
		switch t.Status {
		case model.TemplatePreparing:
			return apierr.Conflictf("The template is still being prepared: wait for the template_created event.")
		case model.TemplateError:
			return apierr.Badf("template_id", "The template could not be created (template_error) and cannot be edited.")
		}
		url, err = newTemplateEditURL(tx, t, c.Account.ID, opts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return embeddedEditURLResponse{Embedded: embeddedEditURLView{EditURL: templateEditURL(c, url.Token), ExpiresAt: url.ExpiresAt}}, nil
}

// newTemplateEditURL stores an edit URL token for a template, valid for the
// world's EditURLTTL.
func newTemplateEditURL(tx *state.Txn, t *model.Template, accountID string, opts model.TemplateEditURL) (*model.TemplateEditURL, error) {
	u := opts
	u.Token = tx.NewSecret()
	u.TemplateID = t.ID
	u.AccountID = accountID
	u.ExpiresAt = tx.Now().Add(state.GetConfig(tx).EditURLTTL.D()).Unix()
	if err := state.Put(tx, state.TableTemplateEditURLs, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// templateEditURL is the public address of an edit page.
func templateEditURL(c *api.Call, token string) string {
	return c.WorldURL("editor/template/" + token)
}

// tplEdits are the changes a user makes when saving in the editor; nil
// fields keep the template's values.
type tplEdits struct {
	Title       *string
	Subject     *string
	Message     *string
	SignerRoles []model.TemplateRole
	CCRoles     []string
	SetCCRoles  bool
	// Fields, when SetFields, are the signer fields placed in the editor
	// (replacePlacedFields), resolved against the roles saved with them.
	Fields    []any
	SetFields bool
}

// saveTemplateEdits applies an editor save inside tx: the edit URL's
// cc_roles and merge_fields, the user's changes, and the start of the
// template's preparation (template_created follows). A draft needs at least
// one signer role; roles must keep every field's signer.
func saveTemplateEdits(tx *state.Txn, t *model.Template, url *model.TemplateEditURL, e tplEdits) (*model.Template, error) {
	if t.Status != model.TemplateDraft && t.Status != model.TemplateReady {
		return nil, apierr.Conflictf("The template is %s and cannot be saved now.", t.Status)
	}
	c := cloneTemplate(t)
	if url != nil {
		if url.CCRoles != nil {
			c.CCRoles = nil
			for _, r := range url.CCRoles {
				if strings.TrimSpace(r) != "" {
					c.CCRoles = append(c.CCRoles, strings.TrimSpace(r))
				}
			}
		}
		if url.SetMergeFields {
			c.MergeFields = append([]model.TemplateMergeField(nil), url.MergeFields...)
		}
	}
	if e.Title != nil {
		c.Title = *e.Title
	}
	if e.Subject != nil {
		if err := param.CheckMaxLen("subject", *e.Subject, 200); err != nil {
			return nil, err
		}
		c.Subject = *e.Subject
	}
	if e.Message != nil {
		if err := param.CheckMaxLen("message", *e.Message, 5000); err != nil {
			return nil, err
		}
		c.Message = *e.Message
	}
	if e.SetCCRoles {
		c.CCRoles = e.CCRoles
	}
	if e.SetFields {
		// The placed fields replace the old ones, so a role whose fields
		// the user removed may go.
		c.Fields = withoutSignerFields(c.Fields)
	}
	if e.SignerRoles != nil {
		if err := replaceTemplateRoles(c, e.SignerRoles); err != nil {
			return nil, err
		}
	}
	if e.SetFields {
		if err := replacePlacedFields(c, e.Fields, "fields"); err != nil {
			return nil, err
		}
	}
	if len(c.SignerRoles) == 0 {
		return nil, apierr.Badf("signer_roles", "A template needs at least one signer role before it can be saved.")
	}
	c.Status = model.TemplatePreparing
	c.UpdatedAt = tx.Unix()
	if err := StartPreparation(tx, c); err != nil {
		return nil, err
	}
	if err := state.PutTemplate(tx, c); err != nil {
		return nil, err
	}
	if url != nil {
		u := *url
		u.Used = true
		if err := state.Put(tx, state.TableTemplateEditURLs, &u); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// replaceTemplateRoles sets the roles a user saved. Fields and attachments
// follow their role by name (the user may reorder roles); a role that keeps
// its name keeps its signing order unless a new one is given; removing a
// role that still has fields or attachments is refused.
func replaceTemplateRoles(c *model.Template, roles []model.TemplateRole) error {
	index := map[string]int{}
	for i, r := range roles {
		p := fmt.Sprintf("signer_roles[%d][name]", i)
		name := strings.TrimSpace(r.Name)
		if name == "" {
			return apierr.Missing(p)
		}
		if _, dup := index[strings.ToLower(name)]; dup {
			return apierr.Badf(p, "Duplicate signer role name %q: role names must be unique.", name)
		}
		index[strings.ToLower(name)] = i
		roles[i].Name = name
		if r.Order == nil {
			for _, old := range c.SignerRoles {
				if strings.EqualFold(old.Name, name) && old.Order != nil {
					roles[i].Order = intPtr(*old.Order)
				}
			}
		}
	}
	moved := func(old int, what string) (int, error) {
		if old < 0 || old >= len(c.SignerRoles) {
			return old, nil
		}
		name := c.SignerRoles[old].Name
		n, ok := index[strings.ToLower(name)]
		if !ok {
			return 0, apierr.Badf("signer_roles", "%s belongs to the signer role %q, which the template would no longer have.", what, name)
		}
		return n, nil
	}
	for i := range c.Fields {
		n, err := moved(c.Fields[i].Role, fmt.Sprintf("Field %q", c.Fields[i].APIID))
		if err != nil {
			return err
		}
		c.Fields[i].Role = n
	}
	for i := range c.Attachments {
		n, err := moved(c.Attachments[i].Role, fmt.Sprintf("Attachment %q", c.Attachments[i].Name))
		if err != nil {
			return err
		}
		c.Attachments[i].Role = n
	}
	c.SignerRoles = roles
	return nil
}

// editorWorld finds the world of an editor page (no credentials: the token
// is the key, as for the real edit URLs).
func editorWorld(c *api.Call) (*model.TemplateEditURL, *model.Template, string, int) {
	w := page.WorldFor(c.Host, c.Param("world"), page.HoldsRow[model.TemplateEditURL](state.TableTemplateEditURLs, c.Param("token")))
	if w == nil {
		return nil, nil, "This edit link does not exist.", http.StatusNotFound
	}
	c.EnterWorld(w)
	tx := c.Read()
	u, err := state.Get[model.TemplateEditURL](tx, state.TableTemplateEditURLs, c.Param("token"))
	if err != nil {
		return nil, nil, "This edit link does not exist.", http.StatusNotFound
	}
	t, err := state.GetTemplate(tx, u.TemplateID)
	if err != nil {
		return nil, nil, "The template of this edit link was deleted.", http.StatusGone
	}
	if u.Used {
		return nil, nil, "This edit link was already used.", http.StatusGone
	}
	if tx.Unix() > u.ExpiresAt {
		return nil, nil, "This edit link has expired.", http.StatusGone
	}
	return u, t, "", 0
}

// editorPage serves the edit page of an embedded template.
func editorPage(c *api.Call) (any, error) {
	u, t, msg, status := editorWorld(c)
	if u == nil {
		return editorHTML(status, editorMessage{Title: "Template editor", Message: msg})
	}
	v := signpage.EditorView{Title: t.Title, TemplateID: t.ID, Draft: t.Status == model.TemplateDraft, Action: c.Request.URL.Path,
		TitleValue: t.Title, Subject: t.Subject, Message: t.Message, Roles: tplRoleLines(t.SignerRoles), CCs: strings.Join(t.CCRoles, "\n"),
		Data:  editorViewData{Documents: document.PageDocs(c.Request.URL.Path, t.Documents), Roles: roleNames(t.SignerRoles), Fields: placedFields(t)},
		Brand: apiapp.PageBrand(c.Read(), t.ClientID, c.Request.URL.Path)}
	for _, d := range t.Documents {
		v.Documents = append(v.Documents, signpage.Document{Name: d.Name, Pages: len(d.Pages)})
	}
	return editorHTML(http.StatusOK, v)
}

// editorLogo serves the logo of an editor page's template's API app, for
// the editor and the page after saving (the link is used by then).
func editorLogo(c *api.Call) (any, error) {
	w := page.WorldFor(c.Host, c.Param("world"), page.HoldsRow[model.TemplateEditURL](state.TableTemplateEditURLs, c.Param("token")))
	if w == nil {
		return document.PageNotFound("This edit link does not exist.")
	}
	c.EnterWorld(w)
	tx := c.Read()
	u, err := state.Get[model.TemplateEditURL](tx, state.TableTemplateEditURLs, c.Param("token"))
	if err != nil {
		return document.PageNotFound("This edit link does not exist.")
	}
	t, err := state.GetTemplate(tx, u.TemplateID)
	if err != nil {
		return document.PageNotFound("The template of this edit link was deleted.")
	}
	return apiapp.PageLogo(tx, t.ClientID)
}

// editorViewData is what the editor page's field editor shows.
type editorViewData struct {
	Documents []document.PageDocDesc `json:"documents"`
	Roles     []string               `json:"roles"`
	Fields    []placedField          `json:"fields"`
}

// editorDocument serves a document of the editor page's template while the
// link is usable.
func editorDocument(c *api.Call) (any, error) {
	u, t, msg, _ := editorWorld(c)
	if u == nil {
		return document.PageNotFound(msg)
	}
	return document.PageDocument(c, c.Read(), t.Documents)
}

// editorSave is the page's Save button: a form post with title, subject,
// message, signer_roles and cc_roles (one role per line).
func editorSave(c *api.Call) (any, error) {
	u, t, msg, status := editorWorld(c)
	if u == nil {
		return editorHTML(status, editorMessage{Title: "Template editor", Message: msg})
	}
	if !signpage.SameOrigin(c.Request) {
		return editorHTML(http.StatusForbidden, editorMessage{Title: "Template editor", Message: "The editor saves only from its own page, not for another site."})
	}
	c.Request.Body = http.MaxBytesReader(nil, c.Request.Body, 1<<20)
	if err := c.Request.ParseForm(); err != nil {
		return editorHTML(http.StatusBadRequest, editorMessage{Title: "Template editor", Message: "The form could not be read: " + err.Error()})
	}
	form := c.Request.PostForm
	var e tplEdits
	formValue := func(key string) *string {
		if !form.Has(key) {
			return nil
		}
		v := form.Get(key)
		return &v
	}
	e.Title, e.Subject, e.Message = formValue("title"), formValue("subject"), formValue("message")
	if form.Has("signer_roles") {
		e.SignerRoles = []model.TemplateRole{}
		for _, line := range strings.Split(form.Get("signer_roles"), "\n") {
			if name := strings.TrimSpace(line); name != "" {
				e.SignerRoles = append(e.SignerRoles, model.TemplateRole{Name: name})
			}
		}
	}
	if form.Has("cc_roles") {
		e.SetCCRoles = true
		for _, line := range strings.Split(form.Get("cc_roles"), "\n") {
			if name := strings.TrimSpace(line); name != "" {
				e.CCRoles = append(e.CCRoles, name)
			}
		}
	}
	if form.Has("fields") {
		raw, err := tplJSONText(form.Get("fields"), "fields")
		list, ok := raw.([]any)
		if err != nil || !ok {
			return editorHTML(http.StatusBadRequest, editorMessage{Title: "Template editor", Message: "fields must be a JSON list of form fields."})
		}
		e.Fields, e.SetFields = list, true
	}
	var saved *model.Template
	err := c.Update(func(tx *state.Txn) error {
		cur, err := state.GetTemplate(tx, t.ID)
		if err != nil {
			return errTemplateNotFound()
		}
		saved, err = saveTemplateEdits(tx, cur, u, e)
		return err
	})
	if err != nil {
		text := err.Error()
		if ae, ok := apierr.As(err); ok {
			text = ae.Msg
		}
		return editorHTML(http.StatusBadRequest, editorMessage{Title: "Template editor", Message: text})
	}
	return editorHTML(http.StatusOK, editorMessage{Title: "Template saved", Message: "The template was saved and is being prepared.",
		TemplateID: saved.ID, TemplateTitle: saved.Title, TemplateMsg: saved.Message, Roles: roleNames(saved.SignerRoles),
		Brand: apiapp.PageBrand(c.Read(), saved.ClientID, c.Request.URL.Path)})
}

func roleNames(roles []model.TemplateRole) []string {
	out := make([]string, 0, len(roles))
	for _, r := range roles {
		out = append(out, r.Name)
	}
	return out
}

func tplRoleLines(roles []model.TemplateRole) string { return strings.Join(roleNames(roles), "\n") }

type editorMessage struct {
	Title         string
	Message       string
	TemplateID    string
	TemplateTitle string
	TemplateMsg   string
	Roles         []string
	Brand         *signpage.Brand
}

// editorHTML renders the editor page or a message page (package signpage)
// with its hellosign-embedded script.
func editorHTML(status int, data any) (any, error) {
	var emb template.HTML
	var body []byte
	var err error
	var brand *signpage.Brand
	switch v := data.(type) {
	case signpage.EditorView:
		// The editor initializes hellosign-embedded ("ready").
		v.Embedded = page.EmbeddedLive(map[string]any{"templateId": v.TemplateID})
		emb, brand = v.Embedded, v.Brand
		body, err = signpage.Editor(v)
	case editorMessage:
		// A save posts createTemplate and finish; a link that cannot be
		// used (or a refused save) posts hellosign:error.
		if v.TemplateID != "" {
			emb = page.EmbeddedDone(page.MsgCreateTemplate, map[string]any{
				"templateId": v.TemplateID, "title": v.TemplateTitle, "message": v.TemplateMsg, "signerRoles": v.Roles,
			})
		} else {
			emb = page.EmbeddedError(status, "")
		}
		brand = v.Brand
		body, err = signpage.Message(signpage.MessageView{Title: v.Title, Message: v.Message, Error: v.TemplateID == "", Embedded: emb, Brand: brand})
	}
	if err != nil {
		return nil, err
	}
	return &api.RawResponse{Status: status, ContentType: "text/html; charset=utf-8", Header: signpage.BrandedHeaders(emb, brand), Body: body}, nil
}
