package sigreq

// Electronic identification (is_eid): the signer must verify their identity
// with an eID provider to sign. The official description gives its limits
// (not in test_mode, one signer only), and the event
// signature_request_incomplete_qes is what the service reports when a
// signer started the qualified signature step and left it unfinished. The
// sandbox has no eID provider, so a signer action plays that signer:
//
//	POST /_sandbox/signatures/{signature_id}/eid_incomplete {"reason": "..."}
//
// It meets the rules of a real signer (the request is out for signature,
// it is this signer's turn, they have not signed) and leaves the signature
// awaiting_signature: the signer may come back and sign. Requests without
// is_eid have no such step and refuse it (403, as decline without
// allow_decline does).

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerEID(r *api.Registry) {
	r.Control(http.MethodPost, "/signatures/{signature_id}/eid_incomplete", controlSignerEIDIncomplete)
}

const (
	msgEIDOff        = "This signature request does not use electronic identification (is_eid): it has no qualified signature step to leave incomplete."
	msgEIDIncomplete = "The signer did not complete the electronic identification (eID) step of the qualified signature."
)

// checkEID enforces the limits the official description gives is_eid, once
// the signers are known (for template requests, after binding roles).
func checkEID(spec *Spec) *apierr.Error {
	switch {
	case !spec.IsEID:
		return nil
	case spec.TestMode:
		return apierr.Badf("is_eid", "Electronic identification (is_eid) cannot be used in test_mode.")
	case len(spec.Signers) != 1:
		return apierr.Badf("is_eid", "Electronic identification (is_eid) only works on signature requests with one signer (this one has %d).", len(spec.Signers))
	}
	return nil
}

// leaveEIDIncomplete: the signer of an eID request began the qualified
// signature step and did not finish it.
func leaveEIDIncomplete(req *model.SignatureRequest, sigID, reason string, now int64) (*outcome, *apierr.Error) {
	if _, e := findSig(req, sigID); e != nil {
		return nil, e
	}
	if !req.IsEID && req.Phase != model.PhaseCanceled {
		return nil, apierr.Forbiddenf(msgEIDOff)
	}
	o, sg, e := beginSigner(req, sigID)
	if e != nil {
		return nil, e
	}
	if reason == "" {
		reason = msgEIDIncomplete
	}
	o.audit(now, sg.Email, "eID verification not completed", reason)
	o.event(notify.TypeRequestIncompleteQES, sg.ID, reason)
	return o, nil
}

// signerEIDIncomplete plays a signer who left the eID step unfinished
// (signature_request_incomplete_qes).
func signerEIDIncomplete(s *api.Host, tx *state.Txn, sigID, reason string) (*model.SignatureRequest, error) {
	return signerRun(s, tx, sigID, func(req *model.SignatureRequest) (*outcome, *apierr.Error) {
		return leaveEIDIncomplete(req, sigID, reason, tx.Unix())
	})
}

type eidIncompleteBody struct {
	Reason string `json:"reason"`
}

func controlSignerEIDIncomplete(c *api.Call) (any, error) {
	var b eidIncompleteBody
	if err := c.BindStrict(&b); err != nil {
		return nil, err
	}
	return controlSigner(c, func(tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
		return signerEIDIncomplete(c.Host, tx, sigID, b.Reason)
	})
}
