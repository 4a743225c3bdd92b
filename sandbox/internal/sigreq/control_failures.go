package sigreq

// A control call that makes a signature request fail as the real service's
// processing can (failures.go), for integrators who want to test
// their error paths without writing a scenario rule:
//
//	POST /_sandbox/signature_requests/{signature_request_id}/fail
//	{"status_code": "error_unknown", "message": "...", "signature_id": "..."}
//
// status_code is one of error_file, error_unknown, error_invalid_email,
// error_component_position, error_text_tag; message defaults to a message
// for that status; signature_id (error_invalid_email only) names the signer
// whose address is at fault, every signer otherwise. It acts on a request
// that is processing, or sent with nobody having signed or declined yet (a
// failure found while its e-mails go out); 410 once canceled, 409 later.
// It answers the request as GET shows it to its requester.

import (
	"net/http"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterControlFailures adds POST /_sandbox/signature_requests/{id}/fail,
// which ends a request's processing in a chosen failure.
func RegisterControlFailures(r *api.Registry) {
	r.Control(http.MethodPost, "/signature_requests/{signature_request_id}/fail", controlFailRequest)
}

type failRequestBody struct {
	StatusCode  string `json:"status_code"`
	Message     string `json:"message"`
	SignatureID string `json:"signature_id"`
}

func controlFailRequest(c *api.Call) (any, error) {
	var b failRequestBody
	if err := c.BindStrict(&b); err != nil {
		return nil, err
	}
	f, e := checkFailRequest(b)
	if e != nil {
		return nil, e
	}
	return ControlRequest(c, func(tx *state.Txn) (*model.SignatureRequest, error) {
		id := c.Param("signature_request_id")
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
		if err != nil {
			return nil, apierr.NotFoundf("No signature request %s in this world.", id)
		}
		if e := failBlocked(req); e != nil {
			return nil, e
		}
		if b.SignatureID != "" {
			if req.Signature(b.SignatureID) == nil {
				return nil, apierr.NotFoundf("No signature %s on this signature request.", b.SignatureID).WithPath("signature_id")
			}
			f.SignatureIDs = []string{b.SignatureID}
		}
		o := fail(req, f, tx.Unix())
		if err := applyOutcome(c.Host, tx, o); err != nil {
			return nil, err
		}
		// A request failed while processing is not processed again.
		if err := state.CancelJobs(tx, req.ID, JobProcess); err != nil {
			return nil, err
		}
		return o.Req, nil
	})
}

// checkFailRequest validates the body of the fail call.
func checkFailRequest(b failRequestBody) (api.ProcessFailure, *apierr.Error) {
	code := strings.TrimSpace(b.StatusCode)
	switch {
	case code == "":
		return api.ProcessFailure{}, apierr.Missing("status_code")
	case !slices.Contains(failureStatusCodes, code):
		return api.ProcessFailure{}, apierr.Badf("status_code", "status_code is one of %s, not %q.", strings.Join(failureStatusCodes, ", "), code)
	case b.SignatureID != "" && code != model.SigErrorInvalidEmail:
		return api.ProcessFailure{}, apierr.Badf("signature_id", "signature_id names the signer whose address is at fault: it goes with error_invalid_email only.")
	}
	return api.ProcessFailure{StatusCode: code, Message: b.Message}, nil
}
