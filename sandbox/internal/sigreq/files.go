package sigreq

// Signature requests as owners of downloadable files: who may download
// them, and what the merged PDF shows at a given moment (documents,
// appended signature page, field values, test-mode marking, audit trail).

import (
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerFiles(r *api.Registry) {
	r.FileOwners[document.KindSignatureRequest] = api.FileOwner{Visible: sigreqFilesVisible, Compose: sigreqCompose}
}

// sigreqFilesVisible: 404 for requests the caller cannot see, 410 once
// canceled.
func sigreqFilesVisible(c *api.Call, tx *state.Txn, id string) error {
	_, err := Load(tx, id, c.Account)
	return err
}

// sigreqCompose describes a request's downloadable PDF as of now, with
// the blob ids of its documents.
func sigreqCompose(tx *state.Txn, id string) (pdf.Composition, []string, error) {
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	if err != nil {
		return pdf.Composition{}, nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	comp := pdf.Composition{ID: req.ID, Title: req.Title, TestMode: req.TestMode, At: tx.Now()}
	var refs []string
	for _, d := range req.Documents {
		if d.PDFBlobID == "" {
			continue
		}
		data, err := state.GetBlob(tx, d.PDFBlobID)
		if err != nil {
			return pdf.Composition{}, nil, err
		}
		comp.Documents = append(comp.Documents, pdf.Source{Name: d.Title(), PDF: data})
		refs = append(refs, d.PDFBlobID)
	}
	comp.SignaturePage = signaturePage(req)
	comp.Stamps = sigreqStamps(req)
	for _, a := range req.Audit {
		comp.Audit = append(comp.Audit, pdf.AuditEntry{Time: time.Unix(a.Time, 0).UTC(), Actor: a.Actor, Action: a.Action, Detail: a.Detail})
	}
	return comp, refs, nil
}

// sigreqStamps draws merge-field values from the start, preparer (me_now)
// content, and every value signers gave.
func sigreqStamps(req *model.SignatureRequest) []pdf.Stamp {
	var out []pdf.Stamp
	stamp := func(f model.FormField, text, kind string) {
		if text == "" {
			return
		}
		out = append(out, pdf.Stamp{Document: f.DocumentIndex, Page: fields.FieldPage(f), X: float64(f.X), Y: float64(f.Y),
			Width: float64(f.Width), Height: float64(f.Height), Text: text, Kind: kind})
	}
	byID := map[string]model.FormField{}
	for _, f := range req.FormFields {
		byID[f.APIID] = f
		switch {
		case fields.IsMerge(f):
			cf, _ := mergeValueOf(req, f)
			if f.Type == fields.TypeCheckboxMerge {
				if mergeChecked(cf.Value) {
					stamp(f, "X", pdf.StampCheckbox)
				}
			} else {
				stamp(f, cf.Value, pdf.StampText)
			}
		case f.Signer == fields.SignerMeNow:
			if f.Type == fields.TypeCheckbox && f.IsChecked {
				stamp(f, "X", pdf.StampCheckbox)
			} else {
				stamp(f, f.Content, pdf.StampText)
			}
		}
	}
	for _, v := range req.ResponseData {
		f, ok := byID[v.APIID]
		if !ok || fields.IsMerge(f) {
			continue
		}
		switch t := v.Value.(type) {
		case bool:
			if t {
				stamp(f, "X", pdf.StampCheckbox)
			}
		case string:
			kind := pdf.StampText
			switch f.Type {
			case fields.TypeSignature:
				kind = pdf.StampSignature
			case fields.TypeInitials:
				kind = pdf.StampInitials
			case fields.TypeDateSigned:
				kind = pdf.StampDate
			}
			stamp(f, t, kind)
		}
	}
	return out
}
