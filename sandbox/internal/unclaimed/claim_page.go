package unclaimed

// The claim URL: a page the sandbox serves in place of the real editor
// (/_sandbox/w/{world}/claim/{token}). Opening it claims the draft; any
// later visit answers 404, as the official description says, and so does a
// claim URL past its expiry. The page (package signpage) shows the draft's
// documents and a form: the signers and CCs the draft leaves open, and a
// Send (or Sign) button that sends the draft.
// In an iframe it talks to hellosign-embedded with its postMessage protocol.

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterPage adds the claim URL's page, its form and its documents
// as public control routes.
func RegisterPage(r *api.Registry) {
	r.ControlPublic(http.MethodGet, "/w/{world_id}/claim/{token}", claimPage)
	r.ControlPublic(http.MethodPost, "/w/{world_id}/claim/{token}", claimPageSend)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/claim/{token}/documents/{index}", claimDocument)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/claim/{token}"+apiapp.LogoPath, claimLogo)
}

// claimView is what the claim page shows.
type claimView struct {
	Title     string
	Message   string
	Error     string
	Draft     *model.UnclaimedDraft
	Spec      *sigreq.Spec
	Action    string
	Rows      []claimRow
	SendLabel string
	// Done is set after sending: the posted message type and ids.
	Done        string
	RequestID   string
	SignatureID string
	// Brand is the white labeling of the draft's API app.
	Brand *signpage.Brand
}

// embedded picks the page's hellosign-embedded messages: an unusable link
// posts hellosign:error; the page after sending posts send (or sign, for a
// send_document draft) and finish; the form itself initializes.
func (v claimView) embedded(status int) template.HTML {
	switch {
	case v.Error != "":
		return page.EmbeddedError(status, "")
	case v.Done == "send":
		return page.EmbeddedDone(page.MsgSend, map[string]any{"signatureRequestId": v.RequestID, "signatureId": v.SignatureID})
	case v.Done == "sign":
		return page.EmbeddedDone(page.MsgSign, map[string]any{"signatureId": v.SignatureID, "signatureRequestId": v.RequestID})
	case v.Spec != nil:
		return page.EmbeddedLive(map[string]any{"signatureRequestId": v.Draft.ID})
	}
	return ""
}

// claimRow is one signer line of the form.
type claimRow struct {
	Role, Name, Email string
}

// claimViewData is what the claim page's document view shows: the draft's
// documents with the fields it already has.
type claimViewData struct {
	Documents []document.PageDocDesc `json:"documents"`
	Fields    []model.FormField      `json:"fields"`
}

// claimHTML renders the claim page (package signpage) with its
// hellosign-embedded script.
func claimHTML(status int, v claimView) (any, error) {
	emb := v.embedded(status)
	p := signpage.ClaimView{Title: v.Title, Message: v.Message, Error: v.Error, Action: v.Action, SendLabel: v.SendLabel, Embedded: emb, Brand: v.Brand}
	if v.Spec != nil && v.Draft != nil {
		p.ShowForm, p.DraftID, p.DraftType, p.TestMode, p.Hold = true, v.Draft.ID, v.Draft.Type, v.Draft.TestMode, v.Draft.Hold
		p.AllowCCs = v.Draft.Editor.AllowCCs
		for _, r := range v.Rows {
			p.Rows = append(p.Rows, signpage.ClaimRow{Role: r.Role, Name: r.Name, Email: r.Email})
		}
		data := claimViewData{Documents: document.PageDocs(v.Action, v.Spec.Documents), Fields: append([]model.FormField{}, v.Spec.FormFields...)}
		for _, d := range v.Spec.Documents {
			p.Documents = append(p.Documents, signpage.Document{Name: d.Name, Pages: len(d.Pages)})
		}
		p.Data = data
	}
	body, err := signpage.Claim(p)
	if err != nil {
		return nil, err
	}
	return &api.RawResponse{Status: status, ContentType: "text/html; charset=utf-8", Header: signpage.BrandedHeaders(emb, v.Brand), Body: body}, nil
}

// claimDocument serves a document of a claimed draft until it is sent.
func claimDocument(c *api.Call) (any, error) {
	d, ok := pageDraft(c)
	if !ok || d.SentAt != 0 {
		return document.PageNotFound("This claim URL is not valid.")
	}
	spec, err := sigreq.DecodeSpec(d.Spec)
	if err != nil {
		return document.PageNotFound("This draft has no documents.")
	}
	return document.PageDocument(c, c.Read(), spec.Documents)
}

// claimLogo serves the logo of a claim page's draft's API app.
func claimLogo(c *api.Call) (any, error) {
	d, ok := pageDraft(c)
	if !ok {
		return document.PageNotFound("This claim URL is not valid.")
	}
	return apiapp.PageLogo(c.Read(), d.ClientID)
}

// claimNotFound is the page of a claim URL that cannot be used.
func claimNotFound(msg string) (any, error) {
	return claimHTML(http.StatusNotFound, claimView{Title: "Not found", Error: msg})
}

// pageDraft finds the world and the draft of a claim URL.
func pageDraft(c *api.Call) (*model.UnclaimedDraft, bool) {
	holds := func(tx *state.Txn) bool {
		_, err := state.DraftByToken(tx, c.Param("token"))
		return err == nil
	}
	w := page.WorldFor(c.Host, c.Param("world_id"), holds)
	if w == nil {
		return nil, false
	}
	c.EnterWorld(w)
	d, err := state.DraftByToken(c.Read(), c.Param("token"))
	return d, err == nil
}

// claimPage claims the draft and shows the editor form.
func claimPage(c *api.Call) (any, error) {
	d, ok := pageDraft(c)
	if !ok {
		return claimNotFound("This claim URL is not valid.")
	}
	var claimed *model.UnclaimedDraft
	err := c.Update(func(tx *state.Txn) error {
		cur, err := state.Get[model.UnclaimedDraft](tx, state.TableUnclaimedDrafts, d.ID)
		if err != nil {
			return apierr.NotFoundf("This claim URL is not valid.")
		}
		claimed, err = claimDraft(tx, cur, cur.AccountID)
		return err
	})
	if err != nil {
		if e, ok := apierr.As(err); ok {
			return claimNotFound(e.Msg)
		}
		return nil, err
	}
	spec, err := sigreq.DecodeSpec(claimed.Spec)
	if err != nil {
		return nil, err
	}
	return claimHTML(http.StatusOK, claimFormView(c, claimed, spec))
}

// claimFormView lays out the form: one line per template role, or the
// draft's signers plus empty lines for more.
func claimFormView(c *api.Call, d *model.UnclaimedDraft, spec *sigreq.Spec) claimView {
	v := claimView{Title: spec.Title, Draft: d, Spec: spec, Action: c.Request.URL.Path, SendLabel: "Send for signature",
		Brand: apiapp.PageBrand(c.Read(), d.ClientID, c.Request.URL.Path)}
	if v.Title == "" {
		v.Title = "Draft"
	}
	switch {
	case d.Type == model.DraftSendDocument:
		v.SendLabel = "Sign"
	case len(d.Roles) > 0:
		for i, r := range d.Roles {
			row := claimRow{Role: r}
			if i < len(spec.Signers) {
				row.Name, row.Email = spec.Signers[i].Name, spec.Signers[i].Email
			}
			v.Rows = append(v.Rows, row)
		}
	default:
		for _, sg := range spec.Signers {
			v.Rows = append(v.Rows, claimRow{Name: sg.Name, Email: sg.Email})
		}
		for i := 0; i < 3; i++ {
			v.Rows = append(v.Rows, claimRow{})
		}
	}
	if d.Hold {
		v.Message = "The request will be held after sending until the requester releases it."
	}
	return v
}

// claimPageSend is the form's button: it sends the draft with the signers
// and CCs filled in.
func claimPageSend(c *api.Call) (any, error) {
	d, ok := pageDraft(c)
	if !ok {
		return claimNotFound("This claim URL is not valid.")
	}
	if !signpage.SameOrigin(c.Request) {
		return claimHTML(http.StatusForbidden, claimView{Title: "Draft", Error: "The claim page sends only from its own form, not for another site."})
	}
	c.Request.Body = http.MaxBytesReader(nil, c.Request.Body, 1<<20)
	if err := c.Request.ParseForm(); err != nil {
		return claimHTML(http.StatusBadRequest, claimView{Title: "Draft", Error: "The form could not be read: " + err.Error()})
	}
	in := claimFormInput(d, c.Request.PostForm)
	var req *model.SignatureRequest
	err := c.Update(func(tx *state.Txn) error {
		cur, err := state.Get[model.UnclaimedDraft](tx, state.TableUnclaimedDrafts, d.ID)
		if err != nil {
			return apierr.NotFoundf("This claim URL is not valid.")
		}
		req, err = sendDraft(tx, cur, nil, in)
		return err
	})
	if err != nil {
		e, ok := apierr.As(err)
		if !ok {
			return nil, err
		}
		if e.Name == apierr.Conflict || e.Name == apierr.Deleted {
			return claimNotFound(e.Msg)
		}
		return claimHTML(e.Status(), claimView{Title: "Draft", Error: e.Msg})
	}
	v := claimView{Title: req.Title, Message: "The signature request was sent.", Done: "send", RequestID: req.ID,
		Brand: apiapp.PageBrand(c.Read(), d.ClientID, c.Request.URL.Path)}
	if len(req.Signatures) > 0 {
		v.SignatureID = req.Signatures[0].ID
	}
	switch {
	case d.Type == model.DraftSendDocument:
		v.Message, v.Done = "The document will be signed as soon as it is processed.", "sign"
	case d.Hold:
		v.Message = "The signature request is on hold until the requester releases it."
	}
	return claimHTML(http.StatusOK, v)
}

// claimFormInput reads the form: signer lines (role, name, e-mail; lines
// without an e-mail are skipped) and CC addresses, one per line.
func claimFormInput(d *model.UnclaimedDraft, form map[string][]string) claimInput {
	var in claimInput
	names, emails, roles := form["signer_name"], form["signer_email"], form["signer_role"]
	for i, email := range emails {
		email = strings.TrimSpace(email)
		if email == "" {
			continue
		}
		s := sigreq.SubSigner{EmailAddress: email}
		if i < len(names) {
			s.Name = strings.TrimSpace(names[i])
		}
		if i < len(roles) {
			s.Role = roles[i]
		}
		in.Signers = append(in.Signers, s)
	}
	if len(d.Roles) == 0 {
		for i := range in.Signers {
			in.Signers[i].Role = ""
		}
	}
	if cc := form["cc_email_addresses"]; len(cc) > 0 {
		for _, line := range strings.Split(cc[0], "\n") {
			if a := strings.TrimSpace(line); a != "" {
				in.CCEmailAddresses = append(in.CCEmailAddresses, a)
			}
		}
	}
	return in
}
