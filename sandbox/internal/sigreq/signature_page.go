package sigreq

// The appended signature page: a request sent without fields (no
// form_fields_per_document, text tags or templates) is signed on a page the
// service adds after its documents, where each signer has a signature box
// of their own. Each box is a signature field of its signer that no
// document carries, so signing fills it as it fills any signature field:
// typed, drawn or adopted on the signing page, the signer's name when a
// simulated signer gives no value; response_data then holds one signature
// entry per signer, and the merged PDF draws it in the signer's box.

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
)

// signaturePagePrefix starts the api_id of a box on the appended page;
// the signer's number (1-based) follows.
const signaturePagePrefix = "signature_page_"

// signaturePageField is the box of the signer at slot on the appended
// signature page: a required signature field.
func signaturePageField(slot int) model.FormField {
	return model.FormField{APIID: signaturePagePrefix + strconv.Itoa(slot+1), Name: "Signature", Type: fields.TypeSignature,
		Required: true, Signer: strconv.Itoa(slot)}
}

// isSignaturePageField reports whether id names a box of req's appended
// signature page (of any signer).
func isSignaturePageField(req *model.SignatureRequest, id string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(id, signaturePagePrefix))
	return req.AppendSignaturePage && strings.HasPrefix(id, signaturePagePrefix) && err == nil && n >= 1 && n <= len(req.Signatures)
}

// signaturePage lists the signers of req's appended signature page (nil
// without one), each with the signature of their box once signed.
func signaturePage(req *model.SignatureRequest) *pdf.SignaturePage {
	if !req.AppendSignaturePage {
		return nil
	}
	signed := map[string]string{}
	for _, v := range req.ResponseData {
		if s, ok := v.Value.(string); ok && strings.HasPrefix(v.APIID, signaturePagePrefix) {
			signed[v.APIID] = s
		}
	}
	page := &pdf.SignaturePage{}
	for _, sg := range req.Signatures {
		line := pdf.SignerLine{Name: sg.Name, Email: sg.Email, Status: sg.Status}
		if sg.SignedAt != nil {
			t := time.Unix(*sg.SignedAt, 0).UTC()
			line.SignedAt = &t
			line.Signature = signed[signaturePageField(sg.Slot).APIID]
		}
		page.Signers = append(page.Signers, line)
	}
	return page
}

// signaturePageComposition is the composition of req's appended signature
// page alone, as of now: what the signing page shows and where its boxes
// are (the heading's title and id move them, so they are the merged
// PDF's).
func signaturePageComposition(req *model.SignatureRequest, now time.Time) pdf.Composition {
	return pdf.Composition{ID: req.ID, Title: req.Title, TestMode: req.TestMode, At: now, SignaturePage: signaturePage(req)}
}

// signPageAppended is what the signing page's document view shows of the
// appended signature page: which document it is and every signer's box.
type signPageAppended struct {
	DocumentIndex int           `json:"document_index"`
	Boxes         []signPageBox `json:"boxes"`
}

// signPageBox is one signer's box on the appended signature page; Mine
// marks the box of the signer at the page.
type signPageBox struct {
	Name   string  `json:"name"`
	Email  string  `json:"email"`
	Status string  `json:"status"`
	Signed bool    `json:"signed"`
	Mine   bool    `json:"mine"`
	Page   int     `json:"page"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// appendSignaturePageView adds req's appended signature page to a signing
// page's view: the page as one more document after the request's own, the
// boxes of every signer, and sg's box as sg's field over it.
func appendSignaturePageView(v *signViewData, pagePath string, req *model.SignatureRequest, sg *model.Signature, now time.Time) {
	index := len(req.Documents)
	v.Documents = append(v.Documents, document.PageDocDesc{Index: index, Name: "Signature page", URL: pagePath + "/documents/" + strconv.Itoa(index)})
	boxes := pdf.SignaturePageBoxes(signaturePageComposition(req, now))
	ap := &signPageAppended{DocumentIndex: index, Boxes: []signPageBox{}}
	for i, b := range boxes { // one box per signature, in order (signaturePage)
		other := req.Signatures[i]
		ap.Boxes = append(ap.Boxes, signPageBox{Name: other.Name, Email: other.Email, Status: other.Status,
			Signed: other.Status == model.SigSigned, Mine: other.ID == sg.ID, Page: b.Page, X: b.X, Y: b.Y, Width: b.Width, Height: b.Height})
		if other.ID == sg.ID {
			f := signaturePageField(sg.Slot)
			page := b.Page
			f.DocumentIndex, f.Page = index, &page
			f.X, f.Y, f.Width, f.Height = int(math.Round(b.X)), int(math.Round(b.Y)), int(math.Round(b.Width)), int(math.Round(b.Height))
			v.Fields = append(v.Fields, signViewField{FormField: f})
		}
	}
	v.SignaturePage = ap
}

// signaturePageDocument answers document index of a signing page when it
// is req's appended signature page (ok false otherwise): the page as it
// is now, with the signatures of those who signed.
func signaturePageDocument(c *api.Call, req *model.SignatureRequest, now time.Time) (any, bool) {
	if !req.AppendSignaturePage || c.Param("index") != strconv.Itoa(len(req.Documents)) {
		return nil, false
	}
	h := signpage.AssetHeaders()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", document.ContentDisposition("inline", "Signature page.pdf"))
	return &api.RawResponse{Status: http.StatusOK, ContentType: "application/pdf", Header: h,
		Body: pdf.SignaturePagePDF(signaturePageComposition(req, now))}, true
}
