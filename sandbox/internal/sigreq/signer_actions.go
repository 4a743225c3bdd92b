package sigreq

import (
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Signer actions of the control plane (POST /_sandbox/signatures/{id}/...),
// in the order the console offers them.
const (
	actionView     = "view"
	actionSign     = "sign"
	actionDecline  = "decline"
	actionReassign = "reassign"
	actionBounce   = "bounce"
)

// signerActionCheck is whether the control plane would take one signer
// action now: Refusal is the error it would answer, nil when it would act.
type signerActionCheck struct {
	Action  string
	Refusal *apierr.Error
}

// reassignProbe is the address a reassignment is tried with: no signer
// has it, so the try meets the request's rules, not the input's.
const reassignProbe = "reassign-probe@signsandbox.invalid"

// SignerActions says, for each signer action, whether the control plane
// would take it now on req for the signature sigID. It runs the very
// transitions the control calls run (on copies: they are pure), with the
// input a click in the console gives (sign: no values, so every field gets
// what a click-through signer leaves), so that what the console offers and
// what the control plane accepts cannot disagree. Input the console asks
// for afterwards (a reassignment's name and address) is not judged here.
func SignerActions(req *model.SignatureRequest, sigID string, now time.Time) []signerActionCheck {
	at := now.Unix()
	refusal := func(_ *outcome, e *apierr.Error) *apierr.Error { return e }
	return []signerActionCheck{
		{actionView, refusal(view(req, sigID, at))},
		{actionSign, signRefusal(req, sigID, now)},
		{actionDecline, refusal(decline(req, sigID, "", at))},
		{actionReassign, refusal(reassign(req, sigID, "Probe", reassignProbe, "", "probe", at))},
		{actionBounce, refusal(bounce(req, sigID, at))},
	}
}

// signRefusal is signerSign's checks without a PIN (the control call
// checks a PIN only when one is given) and without values.
func signRefusal(req *model.SignatureRequest, sigID string, now time.Time) *apierr.Error {
	sg := req.Signature(sigID)
	if sg == nil {
		return apierr.NotFoundf("No signature %s.", sigID)
	}
	if e := signerCheck(req, sg); e != nil {
		return e
	}
	values, e := signerValues(req, sg, nil, now, "values")
	if e != nil {
		return e
	}
	_, e = sign(req, sigID, values, now.Unix())
	return e
}
