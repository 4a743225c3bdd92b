package sigreq

// Failures that end a signature request's processing, one transition for
// every signature error status of the official description. The real
// service finds these problems while it processes a request, after the
// create call has answered, so they are never a 400: the request ends with
// has_error, its signatures carry the status code, and one event tells the
// callbacks:
//
//	error_file               file_error               (a document cannot be converted)
//	error_unknown            unknown_error            (an internal failure)
//	error_invalid_email      signature_request_invalid (a signer's address is undeliverable)
//	error_component_position signature_request_invalid (a form field lies outside its page)
//	error_text_tag           signature_request_invalid (the documents hold invalid text tags)
//
// signature_request_invalid is the official event for "an error in the
// request data"; file_error and unknown_error have their own.
//
// What causes them: documents that cannot be read (error_file), invalid
// text tags (text_tags.go), fields outside their page (placement.go),
// and, for the causes a sandbox cannot meet on its own (an internal error,
// an address the mail system refuses), scenario rules (fail_processing) and
// the control call POST /_sandbox/signature_requests/{id}/fail.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// failureStatusCodes are the signature error statuses, in the order of the
// official list.
var failureStatusCodes = []string{
	model.SigErrorUnknown, model.SigErrorFile, model.SigErrorComponentPosition, state.SigErrorTextTag, model.SigErrorInvalidEmail,
}

// failureEvent is the event each failure status emits.
func failureEvent(code string) string {
	switch code {
	case model.SigErrorFile:
		return notify.TypeFileError
	case model.SigErrorUnknown:
		return notify.TypeUnknownError
	}
	return notify.TypeRequestInvalid
}

// failureMessages are the messages of failures given without one.
var failureMessages = map[string]string{
	model.SigErrorFile:              "The file could not be converted.",
	model.SigErrorUnknown:           "An unknown error occurred while processing the signature request.",
	model.SigErrorInvalidEmail:      "The e-mail address of a signer is invalid: the signature request could not be delivered.",
	model.SigErrorComponentPosition: "A form field is placed outside the page of its document.",
	state.SigErrorTextTag:           "The file contains invalid text tags.",
}

// failureAudit is the audit trail's word for each failure.
var failureAudit = map[string]string{
	model.SigErrorFile:              "file error",
	model.SigErrorUnknown:           "unknown error",
	model.SigErrorInvalidEmail:      "invalid e-mail address",
	model.SigErrorComponentPosition: "form field placement error",
	state.SigErrorTextTag:           "text tag error",
}

// fail puts a request in error with a failure. The request must be
// processing, or sent with nobody having signed or declined yet (a failure
// found while its e-mails go out); anything later answers nil, as does a
// request that is canceled or being canceled. Unknown status codes are a
// programming error and answer nil too.
func fail(req *model.SignatureRequest, f api.ProcessFailure, now int64) *outcome {
	if !slices.Contains(failureStatusCodes, f.StatusCode) || failBlocked(req) != nil {
		return nil
	}
	msg := f.Message
	if msg == "" {
		msg = failureMessages[f.StatusCode]
	}
	o := begin(req)
	r := o.Req
	r.Phase, r.Error = model.PhaseError, msg
	for i := range r.Signatures {
		sg := &r.Signatures[i]
		if len(f.SignatureIDs) == 0 || slices.Contains(f.SignatureIDs, sg.ID) {
			sg.Status, sg.Error = f.StatusCode, msg
		}
	}
	o.audit(now, "", failureAudit[f.StatusCode], msg)
	o.event(failureEvent(f.StatusCode), "", msg)
	return o
}

// failBlocked says why a request cannot fail any more (nil when it can).
func failBlocked(req *model.SignatureRequest) *apierr.Error {
	switch {
	case req.Phase == model.PhaseCanceled:
		return apierr.Gone()
	case req.CancelPending:
		return apierr.Conflictf("The signature request is being canceled.")
	case req.Phase == model.PhaseProcessing:
		return nil
	case req.Phase != model.PhaseSent:
		return apierr.Conflictf("The signature request can no longer fail: it is %s.", phaseWord(req.Phase))
	}
	for _, sg := range req.Signatures {
		if sg.Status == model.SigSigned || sg.Status == model.SigDeclined {
			return apierr.Conflictf("The signature request can no longer fail: a signer has already signed or declined.")
		}
	}
	return nil
}
