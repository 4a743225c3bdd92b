package sigreq

// Embedded signing: GET /embedded/sign_url/{signature_id} and the pages the
// sandbox serves for signers (the signing page behind sign URLs and e-mail
// links, and a request's details page). The pages (package signpage) show
// the documents with the signer's fields; their forms act as the signer
// through the same functions as the control plane, and tell an embedding
// window what happened with the hellosign-embedded postMessage protocol.

import (
	"encoding/json"
	"html/template"
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterSignPage adds embedded sign URLs and the signing and request
// pages with their documents, logos and assets.
func RegisterSignPage(r *api.Registry) {
	r.Handle("embeddedSignUrl", embeddedSignURL)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/sign/{token}", signPage)
	r.ControlPublic(http.MethodPost, "/w/{world_id}/sign/{token}", signPageAction)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/sign/{token}/documents/{index}", signDocument)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/sign/{token}"+apiapp.LogoPath, signLogo)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/requests/{signature_request_id}", requestPage)
	r.ControlPublic(http.MethodGet, "/w/{world_id}/requests/{signature_request_id}"+apiapp.LogoPath, requestLogo)
	r.ControlPublic(http.MethodGet, "/pages/{asset}", pageAsset)
}

// embeddedSignURLResponse is EmbeddedSignUrlResponse.
type embeddedSignURLResponse struct {
	Embedded embeddedSignURLEmbedded `json:"embedded"`
}

type embeddedSignURLEmbedded struct {
	SignURL   string `json:"sign_url"`
	ExpiresAt int64  `json:"expires_at"`
}

// embeddedSignURL answers a fresh, short-lived signing URL for a signer of
// an embedded request; it expires after the world's SignURLTTL.
func embeddedSignURL(c *api.Call) (any, error) {
	sigID := c.Param("signature_id")
	var out embeddedSignURLResponse
	err := c.Update(func(tx *state.Txn) error {
		req, err := state.SignatureRequestBySignature(tx, sigID)
		if err != nil || !Visible(tx, req, c.Account) {
			return apierr.NotFoundf(apierr.MsgNotFound)
		}
		sg := req.Signature(sigID)
		switch {
		case req.Phase == model.PhaseCanceled || req.CancelPending:
			return apierr.Gone()
		case !MayManage(tx, req, c.Account):
			return apierr.Forbiddenf("Only the requester can get sign URLs for this signature request.")
		case !req.Embedded:
			return apierr.Badf("signature_id", "This signature belongs to a signature request that is not embedded; it is signed on the service's site, not through a sign URL.")
		case req.Phase == model.PhaseExpired || sg.Status == model.SigExpired:
			return apierr.New(apierr.SignatureRequestExpired, msgExpired)
		case sg.Status == model.SigSigned || req.Phase == model.PhaseComplete:
			return apierr.Conflictf("This signature request has already been signed.")
		case sg.Status == model.SigDeclined || req.Phase == model.PhaseDeclined:
			return apierr.Conflictf("This signature request has been declined.")
		case req.Phase == model.PhaseError:
			return apierr.Conflictf("This signature request could not be processed: %s", req.Error)
		}
		exp := tx.Now().Add(state.GetConfig(tx).SignURLTTL.D()).Unix()
		tok := &model.SignURL{Token: tx.NewSecret(), SignatureID: sigID, RequestID: req.ID, Embedded: true, ExpiresAt: exp}
		if err := state.Put(tx, state.TableSignURLs, tok); err != nil {
			return err
		}
		out.Embedded = embeddedSignURLEmbedded{SignURL: c.WorldURL("sign/" + tok.Token), ExpiresAt: exp}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pageData is what the signing and details pages show.
type pageData struct {
	Title       string
	Message     string
	Error       string
	Request     *model.SignatureRequest
	Signer      *model.Signature
	CanAct      bool
	CanDecline  bool
	CanReassign bool
	Done        string // "sign", "decline" or "reassign" after an action
	SignatureID string
	Reason      string
	// Code is the error code posted to hellosign-embedded with Error; 0
	// means the page's HTTP status.
	Code int
	// View is what the page's document view shows (signView), when the
	// signer can act.
	View *signViewData
	// Brand is the white labeling of the request's API app.
	Brand *signpage.Brand
}

// embedded picks the page's hellosign-embedded messages: an error page posts
// hellosign:error; the page after signing, declining or reassigning posts
// the action and finish; the signing page itself initializes.
func (d pageData) embedded(status int) template.HTML {
	switch {
	case d.Error != "":
		code := d.Code
		if code == 0 {
			code = status
		}
		return page.EmbeddedError(code, d.SignatureID)
	case d.Done == "sign":
		return page.EmbeddedDone(page.MsgSign, map[string]any{"signatureId": d.SignatureID})
	case d.Done == "decline":
		return page.EmbeddedDone(page.MsgDecline, map[string]any{"signatureId": d.SignatureID, "reason": d.Reason})
	case d.Done == "reassign":
		return page.EmbeddedDone(page.MsgReassign, map[string]any{"signatureId": d.SignatureID, "reason": d.Reason})
	case d.SignatureID != "":
		return page.EmbeddedLive(map[string]any{"signatureId": d.SignatureID})
	}
	return ""
}

// htmlPage renders the signing or details page (package signpage) with its
// hellosign-embedded script and the headers that allow that script only.
func htmlPage(status int, d pageData) (any, error) {
	emb := d.embedded(status)
	v := signpage.SignView{Title: d.Title, Message: d.Message, Error: d.Error, CanSign: d.CanAct,
		CanDecline: d.CanDecline, CanReassign: d.CanReassign, Embedded: emb, Brand: d.Brand}
	if d.View != nil {
		v.Data = d.View
	}
	if req := d.Request; req != nil {
		v.RequestID, v.Requester, v.TestMode = req.ID, req.RequesterEmail, req.TestMode
		for _, sg := range req.Signatures {
			v.Signers = append(v.Signers, signpage.Signer{Name: sg.Name, Email: sg.Email, Status: sg.Status})
		}
	}
	if d.Signer != nil {
		v.SignerName = d.Signer.Name
		if v.SignerName == "" {
			v.SignerName = d.Signer.Email
		}
	}
	body, err := signpage.Sign(v)
	if err != nil {
		return nil, err
	}
	return &api.RawResponse{Status: status, ContentType: "text/html; charset=utf-8", Header: signpage.BrandedHeaders(emb, d.Brand), Body: body}, nil
}

// pageWorld finds the world of a page URL that holds what the page is
// about (page.WorldFor) and makes it the call's world.
func pageWorld(c *api.Call, holds func(tx *state.Txn) bool) (*world.World, bool) {
	w := page.WorldFor(c.Host, c.Param("world_id"), holds)
	if w == nil {
		return nil, false
	}
	c.EnterWorld(w)
	return w, true
}

// holdsSignToken reports whether a world knows a signing page's token.
func holdsSignToken(token string) func(tx *state.Txn) bool {
	return func(tx *state.Txn) bool {
		_, err := state.SignURLByToken(tx, token)
		return err == nil
	}
}

// signToken finds a page token: 404 when unknown, 410 when expired (an
// expired embedded URL also reports sign_url_invalid).
func signToken(c *api.Call, tx *state.Txn) (*model.SignURL, *apierr.Error) {
	tok, err := state.SignURLByToken(tx, c.Param("token"))
	if err != nil {
		return nil, apierr.NotFoundf("This signing link is not valid.")
	}
	if tok.ExpiresAt != 0 && tx.Unix() >= tok.ExpiresAt {
		return tok, apierr.New(apierr.Deleted, "This signing link has expired; ask the requester for a new one.")
	}
	return tok, nil
}

// signPage shows the signing page; opening it is a view by the signer.
func signPage(c *api.Call) (any, error) {
	if _, ok := pageWorld(c, holdsSignToken(c.Param("token"))); !ok {
		return htmlPage(http.StatusNotFound, pageData{Title: "Not found", Error: "No such world."})
	}
	var d pageData
	status := http.StatusOK
	err := c.Update(func(tx *state.Txn) error {
		tok, e := signToken(c, tx)
		if e != nil {
			status, d = e.Status(), pageData{Title: "Link not valid", Error: e.Msg}
			if tok != nil {
				d.SignatureID = tok.SignatureID
			}
			if tok != nil && tok.Embedded {
				if req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, tok.RequestID); err == nil && req.Phase != model.PhaseCanceled {
					return emitForRequest(c.Host, tx, req, sigEvent{Type: notify.TypeSignURLInvalid, SignatureID: tok.SignatureID, Message: e.Msg})
				}
			}
			return nil
		}
		req, err := signerView(c.Host, tx, tok.SignatureID)
		if err != nil {
			cur, lerr := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, tok.RequestID)
			if lerr != nil {
				return err
			}
			req = cur
			ae, ok := apierr.As(err)
			if !ok {
				return err
			}
			d.Error, d.Code = ae.Msg, ae.Status()
			if ae.Name == apierr.Deleted {
				status = http.StatusGone
				req = nil
			}
		}
		d.Title, d.Request, d.SignatureID = "Sign", req, tok.SignatureID
		if req != nil {
			d.Title, d.Brand = req.Title, apiapp.PageBrand(tx, req.ClientID, c.Request.URL.Path)
			d.Signer = req.Signature(tok.SignatureID)
			d.CanAct = d.Error == "" && d.Signer != nil
			d.CanDecline = d.CanAct && req.AllowDecline
			d.CanReassign = d.CanAct && req.AllowReassign
			if d.CanAct {
				d.View = signView(c.Request.URL.Path, req, d.Signer, tx.Now())
			}
		}
		return nil
	})
	if err != nil {
		// A failed write (the view) still shows the page read-only.
		return htmlPage(http.StatusOK, pageData{Title: "Sign", Error: err.Error(), Code: http.StatusInternalServerError})
	}
	return htmlPage(status, d)
}

// signPageForm is what the page's forms post: the action, the values of
// the signer's fields (JSON by api_id, from the document view), a decline
// or reassign reason and the new signer of a reassignment.
type signPageForm struct {
	Action       string `json:"action"`
	Reason       string `json:"reason"`
	Values       string `json:"values"`
	Name         string `json:"name"`
	EmailAddress string `json:"email_address"`
}

// signPageAction signs, declines or reassigns from the page's forms,
// through the same transitions as the control plane's signer calls.
func signPageAction(c *api.Call) (any, error) {
	if _, ok := pageWorld(c, holdsSignToken(c.Param("token"))); !ok {
		return htmlPage(http.StatusNotFound, pageData{Title: "Not found", Error: "No such world."})
	}
	if !signpage.SameOrigin(c.Request) {
		return htmlPage(http.StatusForbidden, pageData{Title: "Sign", Error: "The signing page acts only on its own form, not for another site."})
	}
	var f signPageForm
	if err := c.Bind(&f); err != nil {
		return htmlPage(http.StatusBadRequest, pageData{Title: "Sign", Error: err.Error()})
	}
	var values map[string]any
	if f.Values != "" {
		if err := json.Unmarshal([]byte(f.Values), &values); err != nil {
			return htmlPage(http.StatusBadRequest, pageData{Title: "Sign", Error: "values must be a JSON object of field values by api_id."})
		}
	}
	var d pageData
	status := http.StatusOK
	err := c.Update(func(tx *state.Txn) error {
		tok, e := signToken(c, tx)
		if e != nil {
			status, d = e.Status(), pageData{Title: "Link not valid", Error: e.Msg}
			return nil
		}
		var req *model.SignatureRequest
		var err error
		switch f.Action {
		case "sign":
			req, err = signerSign(c.Host, tx, tok.SignatureID, values, "")
		case "decline":
			req, err = signerDecline(c.Host, tx, tok.SignatureID, f.Reason)
		case "reassign":
			req, err = signerReassign(c.Host, tx, tok.SignatureID, f.Name, f.EmailAddress, f.Reason)
		default:
			return apierr.Badf("action", "action must be sign, decline or reassign")
		}
		if err != nil {
			return err
		}
		d = pageData{Title: req.Title, Request: req, SignatureID: tok.SignatureID, Done: f.Action, Reason: f.Reason,
			Brand: apiapp.PageBrand(tx, req.ClientID, c.Request.URL.Path)}
		switch f.Action {
		case "sign":
			d.Message = "Thank you: your signature was recorded."
		case "decline":
			d.Message = "You declined to sign."
		case "reassign":
			d.Message = "The request was handed to " + f.Name + "."
		}
		return nil
	})
	if err != nil {
		e, ok := apierr.As(err)
		if !ok {
			e = apierr.Badf("", "%v", err)
		}
		return htmlPage(e.Status(), pageData{Title: "Sign", Error: e.Msg})
	}
	return htmlPage(status, d)
}

// requestPage is a request's details page (details_url, signing_url):
// its status and signers.
func requestPage(c *api.Call) (any, error) {
	w, ok := pageWorld(c, page.HoldsRow[model.SignatureRequest](state.TableSignatureRequests, c.Param("signature_request_id")))
	if !ok {
		return htmlPage(http.StatusNotFound, pageData{Title: "Not found", Error: "No such world."})
	}
	req, err := state.Get[model.SignatureRequest](w.Store.Read(), state.TableSignatureRequests, c.Param("signature_request_id"))
	if err != nil {
		return htmlPage(http.StatusNotFound, pageData{Title: "Not found", Error: "No such signature request."})
	}
	if req.Phase == model.PhaseCanceled {
		return htmlPage(http.StatusGone, pageData{Title: req.Title, Error: apierr.MsgDeleted})
	}
	return htmlPage(http.StatusOK, pageData{Title: req.Title, Request: req, Message: "Status: " + phaseWord(req.Phase),
		Brand: apiapp.PageBrand(w.Store.Read(), req.ClientID, c.Request.URL.Path)})
}

// requestLogo serves the logo of a details page's request's API app.
func requestLogo(c *api.Call) (any, error) {
	w, ok := pageWorld(c, page.HoldsRow[model.SignatureRequest](state.TableSignatureRequests, c.Param("signature_request_id")))
	if !ok {
		return document.PageNotFound("No such world.")
	}
	tx := w.Store.Read()
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, c.Param("signature_request_id"))
	if err != nil || req.Phase == model.PhaseCanceled {
		return document.PageNotFound("No such signature request.")
	}
	return apiapp.PageLogo(tx, req.ClientID)
}
