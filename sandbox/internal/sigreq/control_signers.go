package sigreq

// Signer simulation: the control plane acts as a signer, meeting the same
// rules a real signer meets (state, order, allow_decline, allow_reassign,
// 410 after cancelation). The signer* functions are the entry points for
// everything else that acts as a signer: scenario rules (delayed actions,
// bounces) and the embedded signing page.

import (
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterControlSigners adds the signer simulation of the control plane:
// view, sign, decline, reassign and bounce as a signer.
func RegisterControlSigners(r *api.Registry) {
	r.ControlNoBody(http.MethodPost, "/signatures/{signature_id}/view", controlSignerView)
	r.Control(http.MethodPost, "/signatures/{signature_id}/sign", controlSignerSign)
	r.Control(http.MethodPost, "/signatures/{signature_id}/decline", controlSignerDecline)
	r.Control(http.MethodPost, "/signatures/{signature_id}/reassign", controlSignerReassign)
	r.ControlNoBody(http.MethodPost, "/signatures/{signature_id}/bounce", controlSignerBounce)
}

// signerRun loads the request of a signature inside tx, runs a transition
// and applies its outcome; it answers the request as it is afterwards.
func signerRun(s *api.Host, tx *state.Txn, sigID string, fn func(req *model.SignatureRequest) (*outcome, *apierr.Error)) (*model.SignatureRequest, error) {
	req, err := loadBySignature(tx, sigID)
	if err != nil {
		return nil, err
	}
	o, e := fn(req)
	if e != nil {
		return nil, e
	}
	if err := applyOutcome(s, tx, o); err != nil {
		return nil, err
	}
	return o.Req, nil
}

// signerView records that the signer opened the request
// (signature_request_viewed).
func signerView(s *api.Host, tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		return view(req, sigID, tx.Unix())
	})
}

// signerSign signs as the signer. values gives field values by api_id
// (strings, booleans); fields left out get defaults (see signerValues).
// pin, when not empty, must match the signer's PIN. The last signature
// completes the request (signature_request_all_signed, then
// signature_request_downloadable once the final copy is prepared).
func signerSign(s *api.Host, tx *state.Txn, sigID string, values map[string]any, pin string) (*model.SignatureRequest, error) {
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		sg := req.Signature(sigID)
		if sg == nil {
			return nil, apierr.NotFoundf("No signature %s.", sigID)
		}
		if e := signerCheck(req, sg); e != nil {
			return nil, e
		}
		if pin != "" && sg.PIN != "" && pin != sg.PIN {
			return nil, apierr.Forbiddenf("The PIN does not match this signer's access code.").WithPath("pin")
		}
		rv, e := signerValues(req, sg, values, tx.Now(), "values")
		if e != nil {
			return nil, e
		}
		return sign(req, sigID, rv, tx.Unix())
	})
}

// signerDecline declines as the signer (allow_decline must be set).
func signerDecline(s *api.Host, tx *state.Txn, sigID, reason string) (*model.SignatureRequest, error) {
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		return decline(req, sigID, reason, tx.Unix())
	})
}

// signerReassign hands the signature to someone else (allow_reassign must
// be set); the new signer gets a new signature id.
func signerReassign(s *api.Host, tx *state.Txn, sigID, name, email, reason string) (*model.SignatureRequest, error) {
	name, email = strings.TrimSpace(name), strings.TrimSpace(email)
	if name == "" {
		return nil, apierr.Missing("name")
	}
	if err := param.CheckEmail("email_address", email); err != nil {
		return nil, err
	}
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		return reassign(req, sigID, name, email, reason, signatureIDFrom(tx.NewID()), tx.Unix())
	})
}

// signerBounce makes the last e-mail to the signer bounce
// (signature_request_email_bounce; the e-mail is marked bounced).
func signerBounce(s *api.Host, tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		o, e := bounce(req, sigID, tx.Unix())
		if e != nil {
			return nil, e
		}
		if last := lastEmailTo(tx, req.ID, sigID, ""); last != nil && !last.Bounced {
			b := state.Clone(last)
			b.Bounced = true
			if err := state.Put(tx, state.TableEmails, b); err != nil {
				return nil, apierr.Badf("", "cannot mark the e-mail bounced: %v", err)
			}
		}
		return o, nil
	})
}

// controlSigner runs a signer action in the caller's world and answers the
// request as GET would show it to its requester.
func controlSigner(c *api.Call, fn func(tx *state.Txn, sigID string) (*model.SignatureRequest, error)) (any, error) {
	return ControlRequest(c, func(tx *state.Txn) (*model.SignatureRequest, error) { return fn(tx, c.Param("signature_id")) })
}

// ControlRequest runs a control action on a signature request in one write
// transaction and answers the request as GET would show it to its
// requester (signer actions, claiming a draft).
func ControlRequest(c *api.Call, fn func(tx *state.Txn) (*model.SignatureRequest, error)) (any, error) {
	var resp signatureRequestGetResponse
	err := c.Update(func(tx *state.Txn) error {
		req, err := fn(tx)
		if err != nil {
			return err
		}
		resp.SignatureRequest = View(req, req.RequesterAccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

func controlSignerView(c *api.Call) (any, error) {
	return controlSigner(c, func(tx *state.Txn, id string) (*model.SignatureRequest, error) { return signerView(c.Host, tx, id) })
}

type signBody struct {
	Values map[string]any `json:"values"`
	PIN    string         `json:"pin"`
}

func controlSignerSign(c *api.Call) (any, error) {
	var b signBody
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	return controlSigner(c, func(tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
		return signerSign(c.Host, tx, sigID, b.Values, b.PIN)
	})
}

type declineBody struct {
	Reason string `json:"reason"`
}

func controlSignerDecline(c *api.Call) (any, error) {
	var b declineBody
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	return controlSigner(c, func(tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
		return signerDecline(c.Host, tx, sigID, b.Reason)
	})
}

type reassignBody struct {
	Name         string `json:"name"`
	EmailAddress string `json:"email_address"`
	Reason       string `json:"reason"`
}

func controlSignerReassign(c *api.Call) (any, error) {
	var b reassignBody
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	return controlSigner(c, func(tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
		return signerReassign(c.Host, tx, sigID, b.Name, b.EmailAddress, b.Reason)
	})
}

func controlSignerBounce(c *api.Call) (any, error) {
	return controlSigner(c, func(tx *state.Txn, id string) (*model.SignatureRequest, error) { return signerBounce(c.Host, tx, id) })
}
