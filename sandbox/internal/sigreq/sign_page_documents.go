package sigreq

// What the sandbox's pages need beyond their markup (package signpage):
// the assets, the documents a page shows, and what a signing page's
// document view shows of a request.

import (
	"net/http"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// pageAsset serves the pages' scripts and styles (/_sandbox/pages/...).
func pageAsset(c *api.Call) (any, error) {
	body, ct, ok := signpage.Asset(c.Param("asset"))
	if !ok {
		return &api.RawResponse{Status: http.StatusNotFound, ContentType: "text/plain; charset=utf-8", Header: signpage.AssetHeaders(), Body: []byte("not found\n")}, nil
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: ct, Header: signpage.AssetHeaders(), Body: body}, nil
}

// signViewData is what the signing page's document view shows: the
// documents, the signer's fields (merge fields with their values), the
// signer's name (adopted by signatures) and the date date_signed fields
// get.
type signViewData struct {
	Documents []document.PageDocDesc `json:"documents"`
	Fields    []signViewField        `json:"fields"`
	// Groups are the request's checkbox and radio groups, whose
	// requirements the page checks before Sign.
	Groups []model.FieldGroup `json:"groups"`
	// Rules are the request's conditional logic: a field a rule hides is
	// not asked for.
	Rules      []model.FieldRule `json:"rules"`
	SignerName string            `json:"signer_name"`
	DateText   string            `json:"date_text"`
	// SignaturePage is the appended signature page of a request sent
	// without fields, shown after the documents (nil without one).
	SignaturePage *signPageAppended `json:"signature_page,omitempty"`
}

// signViewField is a form field of the signer, with the value merge
// fields show and the signer's own data an auto-fill field starts with.
type signViewField struct {
	model.FormField
	Value         any    `json:"value,omitempty"`
	AutoFillValue string `json:"auto_fill_value,omitempty"`
}

// signView lays out the signing page's document view for sg: its fields
// and the request's merge fields, in the request's order.
func signView(pagePath string, req *model.SignatureRequest, sg *model.Signature, now time.Time) *signViewData {
	v := &signViewData{Documents: document.PageDocs(pagePath, req.Documents), Fields: []signViewField{},
		Groups: append([]model.FieldGroup{}, req.FieldGroups...), Rules: append([]model.FieldRule{}, req.FieldRules...), SignerName: sg.Name, DateText: formatDateSigned(req, now)}
	mine := map[string]bool{}
	for _, f := range signerFields(req, sg) {
		mine[f.APIID] = true
	}
	// The signer's fields, and the merge fields the sender filled, which
	// every signer sees (read-only) wherever they are on the documents.
	for _, f := range req.FormFields {
		merge := f.Type == fields.TypeTextMerge || f.Type == fields.TypeCheckboxMerge
		if !mine[f.APIID] && !merge {
			continue
		}
		sf := signViewField{FormField: f, AutoFillValue: autoFillValue(req, sg, f)}
		if merge {
			if cf, ok := mergeValueOf(req, f); ok {
				sf.Value = cf.Value
			}
		}
		v.Fields = append(v.Fields, sf)
	}
	if req.AppendSignaturePage {
		appendSignaturePageView(v, pagePath, req, sg, now)
	}
	return v
}

// signDocument serves a document of a signing page's request while its
// link is valid.
func signDocument(c *api.Call) (any, error) {
	tx, req, refused := signLinkRequest(c)
	if req == nil {
		return refused, nil
	}
	if page, ok := signaturePageDocument(c, req, tx.Now()); ok {
		return page, nil
	}
	return document.PageDocument(c, tx, req.Documents)
}

// signLogo serves the logo of a signing page's request's API app while
// the page's link is valid.
func signLogo(c *api.Call) (any, error) {
	tx, req, refused := signLinkRequest(c)
	if req == nil {
		return refused, nil
	}
	return apiapp.PageLogo(tx, req.ClientID)
}

// signLinkRequest reads the request a signing page's link (its world and
// token) leads to, for what the page loads beside itself. Without one it
// returns a nil request and the answer the page's assets give instead.
func signLinkRequest(c *api.Call) (*state.Txn, *model.SignatureRequest, any) {
	if _, ok := pageWorld(c, holdsSignToken(c.Param("token"))); !ok {
		refused, _ := document.PageNotFound("No such world.")
		return nil, nil, refused
	}
	tx := c.Read()
	tok, e := signToken(c, tx)
	if e != nil {
		return nil, nil, &api.RawResponse{Status: e.Status(), ContentType: "text/plain; charset=utf-8", Header: signpage.AssetHeaders(), Body: []byte(e.Msg + "\n")}
	}
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, tok.RequestID)
	if err != nil || req.Phase == model.PhaseCanceled {
		refused, _ := document.PageNotFound("No such signature request.")
		return nil, nil, refused
	}
	return tx, req, nil
}
