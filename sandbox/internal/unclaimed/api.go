package unclaimed

// The four Unclaimed Draft operations. A draft is a signature request
// prepared by the API caller and completed by a user who claims it through
// its claim URL (a page the sandbox serves, or the control plane: see
// claim.go). The draft answers the signature_request_id its
// request will have; that request exists once the user sends the draft.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterAPI adds the four Unclaimed Draft operations to the registry.
func RegisterAPI(r *api.Registry) {
	r.Handle("unclaimedDraftCreate", func(c *api.Call) (any, error) { return unclaimedDraftCreate(c, draftPlain) })
	r.Handle("unclaimedDraftCreateEmbedded", func(c *api.Call) (any, error) { return unclaimedDraftCreate(c, draftEmbedded) })
	r.Handle("unclaimedDraftCreateEmbeddedWithTemplate", func(c *api.Call) (any, error) {
		return unclaimedDraftCreate(c, draftEmbeddedTemplate)
	})
	r.Handle("unclaimedDraftEditAndResend", unclaimedDraftEditAndResend)
}

// unclaimedDraftCreate validates a create body, collects its documents
// (outside any transaction: URLs are fetched) and stores the draft.
func unclaimedDraftCreate(c *api.Call, kind draftKind) (any, error) {
	p, err := planDraft(c, kind)
	if err != nil {
		return nil, err
	}
	var d *model.UnclaimedDraft
	err = c.Update(func(tx *state.Txn) error {
		acct, err := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
		if err != nil {
			return apierr.NotFoundf("Account not found.")
		}
		spec := p.spec
		if e := spec.CheckClientID(tx, acct); e != nil {
			return e
		}
		if e := checkQuotaLeft(acct, spec.TestMode); e != nil {
			return e
		}
		stored, err := document.Store(tx, p.pending)
		if err != nil {
			return err
		}
		d = &model.UnclaimedDraft{
			Type: p.typ, AccountID: acct.ID, RequesterEmail: p.x.RequesterEmailAddress, ClientID: spec.ClientID,
			Embedded: kind != draftPlain, TestMode: spec.TestMode, SigningRedirectURL: spec.SigningRedirectURL,
			RequestingRedirectURL: p.x.RequestingRedirectURL, Editor: p.x.editorOptions(kind),
		}
		if kind != draftPlain && p.typ == model.DraftRequestSignature {
			d.Hold = p.x.HoldRequest
		}
		if kind != draftPlain && p.x.IsForEmbeddedSigning != nil {
			d.ForEmbeddedSigning = *p.x.IsForEmbeddedSigning
		}
		if kind == draftEmbeddedTemplate {
			use, err := p.tb.Resolve(c, tx)
			if err != nil {
				return err
			}
			// Roles the body leaves open are filled in when the draft is
			// claimed.
			if e := spec.BindTemplateUse(c, use, p.tb, stored, true); e != nil {
				return e
			}
			spec.AddAppendedTagFields(len(stored)) // internal/sigreq/text_tags.go
			d.TemplateIDs = append([]string(nil), p.tb.TemplateIDs...)
			d.Roles = use.RoleNames()
			d.CCRoles = append([]string(nil), use.CCRoles...)
		} else {
			spec.Documents = stored
		}
		if spec.Title == "" && len(spec.Documents) > 0 {
			spec.Title = spec.Documents[0].Title()
		}
		return putDraft(tx, d, spec)
	})
	if err != nil {
		return nil, err
	}
	return viewDraft(d, c.WorldURL(claimPath(d.Token))), nil
}

// checkQuotaLeft refuses a draft outside test_mode when the account has no
// signature requests left (402, as sending would); the quota itself is
// consumed when the draft's request is sent.
func checkQuotaLeft(acct *model.Account, testMode bool) *apierr.Error {
	if testMode || acct.Quotas.APISignatureRequestsLeft == nil || *acct.Quotas.APISignatureRequestsLeft > 0 {
		return nil
	}
	return apierr.New(apierr.PaymentRequired, apierr.MsgPaymentRequired)
}

// putDraft gives a draft its signature_request_id, claim token and expiry
// (the world's ClaimURLTTL) and stores it with its prepared request.
func putDraft(tx *state.Txn, d *model.UnclaimedDraft, spec *sigreq.Spec) error {
	raw, err := spec.Encode()
	if err != nil {
		return err
	}
	d.ID, d.Seq, d.Token = tx.NewID(), tx.Seq(), tx.NewSecret()
	d.CreatedAt = tx.Unix()
	d.ExpiresAt = tx.Now().Add(state.GetConfig(tx).ClaimURLTTL.D()).Unix()
	d.Status = state.DraftUnclaimed
	d.Spec = raw
	return state.Put(tx, state.TableUnclaimedDrafts, d)
}

// editAndResendBody is UnclaimedDraftEditAndResendRequest.
type editAndResendBody struct {
	ClientID              string            `json:"client_id"`
	EditorOptions         *subEditorOptions `json:"editor_options"`
	IsForEmbeddedSigning  *bool             `json:"is_for_embedded_signing"`
	RequesterEmailAddress string            `json:"requester_email_address"`
	RequestingRedirectURL string            `json:"requesting_redirect_url"`
	ShowProgressStepper   *bool             `json:"show_progress_stepper"`
	SigningRedirectURL    string            `json:"signing_redirect_url"`
	TestMode              bool              `json:"test_mode"`
}

// unclaimedDraftEditAndResend makes a new embedded draft from an embedded
// request: same documents, fields, signers and texts, a new
// signature_request_id and claim URL. The original request is left as it
// is. Signers can be changed in the editor; the quota is consumed when the
// new request is sent.
func unclaimedDraftEditAndResend(c *api.Call) (any, error) {
	var b editAndResendBody
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	b.ClientID = strings.TrimSpace(b.ClientID)
	b.RequesterEmailAddress = strings.TrimSpace(b.RequesterEmailAddress)
	switch {
	case b.ClientID == "":
		return nil, apierr.Missing("client_id")
	case b.RequesterEmailAddress != "" && !param.ValidEmail(b.RequesterEmailAddress):
		return nil, apierr.Badf("requester_email_address", "Invalid email address: %s", b.RequesterEmailAddress)
	}
	if e := param.CheckRedirectURL("signing_redirect_url", b.SigningRedirectURL); e != nil {
		return nil, e
	}
	if e := param.CheckRedirectURL("requesting_redirect_url", b.RequestingRedirectURL); e != nil {
		return nil, e
	}
	var d *model.UnclaimedDraft
	err := c.Update(func(tx *state.Txn) error {
		acct, err := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
		if err != nil {
			return apierr.NotFoundf("Account not found.")
		}
		req, err := sigreq.Load(tx, c.Param("signature_request_id"), acct)
		if err != nil {
			return err
		}
		if e := checkEditAndResend(tx, req, acct, b.ClientID, b.TestMode); e != nil {
			return e
		}
		spec := specFromRequest(c, req)
		spec.ClientID, spec.TestMode = b.ClientID, b.TestMode
		if b.SigningRedirectURL != "" {
			spec.SigningRedirectURL = b.SigningRedirectURL
		}
		d = &model.UnclaimedDraft{
			Type: model.DraftRequestSignature, AccountID: acct.ID, RequesterEmail: req.RequesterEmail, ClientID: b.ClientID,
			Embedded: true, TestMode: b.TestMode, ForEmbeddedSigning: req.Embedded, EditOf: req.ID,
			TemplateIDs: append([]string(nil), req.TemplateIDs...), SigningRedirectURL: spec.SigningRedirectURL,
			RequestingRedirectURL: b.RequestingRedirectURL,
			// "Signers can be edited in embedded editor" (the official
			// description), whatever editor_options say.
			Editor: model.DraftOptions{AllowCCs: true, AllowEditSigners: true, ShowProgressStepper: b.ShowProgressStepper == nil || *b.ShowProgressStepper},
		}
		if b.RequesterEmailAddress != "" {
			d.RequesterEmail = b.RequesterEmailAddress
		}
		if b.IsForEmbeddedSigning != nil {
			d.ForEmbeddedSigning = *b.IsForEmbeddedSigning
		}
		if b.EditorOptions != nil {
			d.Editor.AllowEditDocuments = b.EditorOptions.AllowEditDocuments
		}
		d.Roles = signerRoles(spec.Signers)
		return putDraft(tx, d, spec)
	})
	if err != nil {
		return nil, err
	}
	return viewDraft(d, c.WorldURL(claimPath(d.Token))), nil
}

// checkEditAndResend says whether a request can be edited and resent
// through a new draft: the caller manages it, it is embedded (made by an
// embedded operation or from an embedded draft), its cancelation is not
// under way, and client_id is an app of the caller that made the request.
func checkEditAndResend(tx *state.Txn, req *model.SignatureRequest, acct *model.Account, clientID string, testMode bool) *apierr.Error {
	switch {
	case req.CancelPending:
		return apierr.New(apierr.Conflict, "The signature request is being canceled.")
	case !sigreq.MayManage(tx, req, acct):
		return apierr.Forbiddenf("Only the requester can edit and resend this signature request.")
	case !req.Embedded && !fromEmbeddedDraft(tx, req.ID):
		return apierr.Badf("signature_request_id", "Only embedded signature requests can be edited and resent as an unclaimed draft.")
	}
	if e := (&sigreq.Spec{ClientID: clientID, Embedded: true, TestMode: testMode}).CheckClientID(tx, acct); e != nil {
		return e
	}
	if req.ClientID != "" && req.ClientID != clientID {
		return apierr.Badf("client_id", "The signature request was made with the API app %s: use its client_id.", req.ClientID)
	}
	return checkQuotaLeft(acct, testMode)
}

// fromEmbeddedDraft reports whether a request was sent from an embedded
// draft (embedded requesting), even if it is not signed embedded.
func fromEmbeddedDraft(tx *state.Txn, id string) bool {
	d, err := state.Get[model.UnclaimedDraft](tx, state.TableUnclaimedDrafts, id)
	return err == nil && d.Embedded
}

// signerRoles lists the signers' roles when every signer has one (requests
// from templates), else nil.
func signerRoles(signers []model.Signature) []string {
	var out []string
	for _, sg := range signers {
		if sg.Role == "" {
			return nil
		}
		out = append(out, sg.Role)
	}
	return out
}
