package unclaimed

// Control plane of unclaimed drafts: read a draft, and claim and send it as
// its user would in the editor, in one call.
//
//	GET  /_sandbox/unclaimed_drafts/{signature_request_id}
//	POST /_sandbox/unclaimed_drafts/{signature_request_id}/claim
//	     {"signers": [...], "ccs": [...], "cc_email_addresses": [...]}
//
// claim answers the new signature request as GET /signature_request shows
// it to its requester; 404 for an unknown draft, 409 once it was sent, 410
// when its claim URL expired unclaimed. Non-embedded drafts are claimed by
// the account of the call's credentials (without credentials, by the
// account that created the draft), which then owns the request.

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterControl adds the control routes that read a draft and claim
// and send it in one call, as its user would in the editor.
func RegisterControl(r *api.Registry) {
	r.Control(http.MethodGet, "/unclaimed_drafts/{signature_request_id}", controlDraftGet)
	r.Control(http.MethodPost, "/unclaimed_drafts/{signature_request_id}/claim", controlDraftClaim)
}

// draftControlView is a draft as the control plane shows it.
type draftControlView struct {
	SignatureRequestID    string         `json:"signature_request_id"`
	Type                  string         `json:"type"`
	Status                string         `json:"status"`
	ClaimURL              string         `json:"claim_url"`
	Embedded              bool           `json:"embedded"`
	TestMode              bool           `json:"test_mode"`
	HoldRequest           bool           `json:"hold_request"`
	IsForEmbeddedSigning  bool           `json:"is_for_embedded_signing"`
	RequesterEmailAddress string         `json:"requester_email_address,omitempty"`
	ClientID              string         `json:"client_id,omitempty"`
	TemplateIDs           []string       `json:"template_ids"`
	SignerRoles           []string       `json:"signer_roles"`
	CCRoles               []string       `json:"cc_roles"`
	EditOf                string         `json:"edit_of,omitempty"`
	Editor                any            `json:"editor"`
	CreatedAt             int64          `json:"created_at"`
	ExpiresAt             int64          `json:"expires_at"`
	ClaimedAt             int64          `json:"claimed_at,omitempty"`
	SentAt                int64          `json:"sent_at,omitempty"`
	Signers               []draftSignerV `json:"signers"`
	CCEmailAddresses      []string       `json:"cc_email_addresses"`
}

type draftSignerV struct {
	Role         string `json:"role,omitempty"`
	Name         string `json:"name"`
	EmailAddress string `json:"email_address"`
	Order        *int   `json:"order,omitempty"`
}

func controlDraft(c *api.Call, tx *state.Txn) (*model.UnclaimedDraft, error) {
	d, err := state.Get[model.UnclaimedDraft](tx, state.TableUnclaimedDrafts, c.Param("signature_request_id"))
	if err != nil {
		return nil, api.ErrControlNotFound("unclaimed draft", c.Param("signature_request_id"))
	}
	return d, nil
}

func controlDraftGet(c *api.Call) (any, error) {
	d, err := controlDraft(c, c.Read())
	if err != nil {
		return nil, err
	}
	v := draftControlView{
		SignatureRequestID: d.ID, Type: d.Type, Status: d.Status, ClaimURL: c.WorldURL(claimPath(d.Token)),
		Embedded: d.Embedded, TestMode: d.TestMode, HoldRequest: d.Hold, IsForEmbeddedSigning: d.ForEmbeddedSigning,
		RequesterEmailAddress: d.RequesterEmail, ClientID: d.ClientID, EditOf: d.EditOf, Editor: d.Editor,
		TemplateIDs: append([]string{}, d.TemplateIDs...), SignerRoles: append([]string{}, d.Roles...), CCRoles: append([]string{}, d.CCRoles...),
		CreatedAt: d.CreatedAt, ExpiresAt: d.ExpiresAt, ClaimedAt: d.ClaimedAt, SentAt: d.SentAt,
		Signers: []draftSignerV{}, CCEmailAddresses: []string{},
	}
	if len(d.Spec) > 0 {
		spec, err := sigreq.DecodeSpec(d.Spec)
		if err != nil {
			return nil, err
		}
		for _, sg := range spec.Signers {
			v.Signers = append(v.Signers, draftSignerV{Role: sg.Role, Name: sg.Name, EmailAddress: sg.Email, Order: sg.Order})
		}
		v.CCEmailAddresses = append(v.CCEmailAddresses, spec.CCEmails...)
	}
	return v, nil
}

func controlDraftClaim(c *api.Call) (any, error) {
	var in claimInput
	if err := c.BindStrict(&in); err != nil {
		return nil, err
	}
	return sigreq.ControlRequest(c, func(tx *state.Txn) (*model.SignatureRequest, error) {
		d, err := controlDraft(c, tx)
		if err != nil {
			return nil, err
		}
		return sendDraft(tx, d, c.Account, in)
	})
}
