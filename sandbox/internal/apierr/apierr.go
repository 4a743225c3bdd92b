// Package apierr is the closed vocabulary of API errors: every error_name the
// sandbox can answer with, the one HTTP status it maps to, and the wire shape
// {"error": {"error_msg", "error_name", "error_path"}}.
//
// Lower layers return *Error values (or wrap them); only the HTTP layer turns
// them into responses. Keeping the names and statuses in one file is what
// lets a test pin the whole vocabulary against the official documentation.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
)

// Name is an official error_name value.
type Name string

// The error names, with the statuses documented in the official reference
// (docs/warnings-and-errors-ref-docs.md and the 4XX examples of openapi.yaml).
// Names the legacy docs list as "N/A" (template_error, signature_request_invalid,
// invalid_file) are event or status names, not HTTP answers, and are absent.
const (
	BadRequest                   Name = "bad_request"
	Unauthorized                 Name = "unauthorized"
	PaymentRequired              Name = "payment_required"
	Forbidden                    Name = "forbidden"
	NotFound                     Name = "not_found"
	MethodNotSupported           Name = "method_not_supported"
	Conflict                     Name = "conflict"
	Deleted                      Name = "deleted"
	UnprocessableEntity          Name = "unprocessable_entity"
	ExceededRate                 Name = "exceeded_rate"
	TeamInviteFailed             Name = "team_invite_failed"
	InvalidRecipient             Name = "invalid_recipient"
	InvalidReminder              Name = "invalid_reminder"
	SignatureRequestCancelFailed Name = "signature_request_cancel_failed"
	SignatureRequestRemoveFailed Name = "signature_request_remove_failed"
	SignatureRequestExpired      Name = "signature_request_expired"
	MaxFaxes                     Name = "max_faxes"
	Maintenance                  Name = "maintenance"
	Unavailable                  Name = "unavailable"
	Unknown                      Name = "unknown"
)

// statuses maps every name to its single HTTP status. exceeded_rate is 429
// as in the current spec's examples (the legacy table said 403).
var statuses = map[Name]int{
	BadRequest:                   http.StatusBadRequest,
	Unauthorized:                 http.StatusUnauthorized,
	PaymentRequired:              http.StatusPaymentRequired,
	Forbidden:                    http.StatusForbidden,
	NotFound:                     http.StatusNotFound,
	MethodNotSupported:           http.StatusMethodNotAllowed,
	Conflict:                     http.StatusConflict,
	Deleted:                      http.StatusGone,
	UnprocessableEntity:          http.StatusUnprocessableEntity,
	ExceededRate:                 http.StatusTooManyRequests,
	TeamInviteFailed:             http.StatusForbidden,
	InvalidRecipient:             http.StatusBadRequest,
	InvalidReminder:              http.StatusBadRequest,
	SignatureRequestCancelFailed: http.StatusBadRequest,
	SignatureRequestRemoveFailed: http.StatusBadRequest,
	SignatureRequestExpired:      http.StatusBadRequest,
	MaxFaxes:                     http.StatusTooManyRequests,
	Maintenance:                  http.StatusServiceUnavailable,
	Unavailable:                  http.StatusServiceUnavailable,
	Unknown:                      http.StatusInternalServerError,
}

// Names lists every known error name in sorted order, for validation of
// scenario files and for documentation.
func Names() []Name {
	out := make([]Name, 0, len(statuses))
	for n := range statuses {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Known reports whether n is in the vocabulary.
func Known(n Name) bool { _, ok := statuses[n]; return ok }

// Status is the HTTP status of the name; unknown names answer 400 so that a
// typo in a scenario can never produce a 5xx.
func (n Name) Status() int {
	if s, ok := statuses[n]; ok {
		return s
	}
	return http.StatusBadRequest
}

// Error is an API error as it travels up to the HTTP layer.
type Error struct {
	Name Name
	Msg  string
	Path string
	// StatusOverride lets a scenario rule answer with a status other than the
	// name's own (for example 503 with "unknown"); zero means Name.Status().
	StatusOverride int
	// Reason says, for the server's log only, why a call was refused when
	// the official message does not ("no world has this API key" behind
	// the official "Unauthorized user."). It is never answered and never
	// holds a credential.
	Reason string
}

func (e *Error) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Name, e.Msg, e.Path)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Msg)
}

// Status is the HTTP status the error is answered with.
func (e *Error) Status() int {
	if e.StatusOverride != 0 {
		return e.StatusOverride
	}
	return e.Name.Status()
}

// Body is the wire envelope of an error.
type Body struct {
	Error BodyError `json:"error"`
}

// BodyError is ErrorResponseError of the official schema.
type BodyError struct {
	ErrorMsg  string `json:"error_msg"`
	ErrorName string `json:"error_name"`
	ErrorPath string `json:"error_path,omitempty"`
}

// Body returns the wire envelope.
func (e *Error) Body() Body {
	return Body{Error: BodyError{ErrorMsg: e.Msg, ErrorName: string(e.Name), ErrorPath: e.Path}}
}

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// New builds an error with a name and message.
func New(name Name, msg string) *Error { return &Error{Name: name, Msg: msg} }

// Because returns a copy that carries a reason for the server's log (see
// Error.Reason); the answer stays the same.
func (e *Error) Because(reason string) *Error {
	c := *e
	c.Reason = reason
	return &c
}

// WithPath returns a copy that names the offending field.
func (e *Error) WithPath(path string) *Error {
	c := *e
	c.Path = path
	return &c
}

// Official messages reused across the API; tests compare against these.
const (
	MsgUnauthorizedNoCredentials = "Unauthorized user. No credentials supplied."
	MsgUnauthorizedInvalid       = "Unauthorized user."
	MsgNotFound                  = "Not found."
	MsgDeleted                   = "This resource has been deleted."
	MsgExceededRate              = "Too many requests."
	MsgPaymentRequired           = "You must upgrade to make additional requests."
	MsgFilesNotReady             = "Files are still being processed. Please try again later."
	MsgConflict                  = "An identical request is already being processed."
)

// Badf is a 400 bad_request naming a field.
func Badf(path, format string, args ...any) *Error {
	return &Error{Name: BadRequest, Msg: fmt.Sprintf(format, args...), Path: path}
}

// Missing is the 400 for a required field that was not given.
func Missing(path string) *Error {
	return &Error{Name: BadRequest, Msg: fmt.Sprintf("Missing required parameter: %s", path), Path: path}
}

// NotFoundf is a 404 not_found.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Name: NotFound, Msg: fmt.Sprintf(format, args...)}
}

// Gone is the 410 answered for canceled or deleted resources.
func Gone() *Error { return &Error{Name: Deleted, Msg: MsgDeleted} }

// Forbiddenf is a 403 forbidden.
func Forbiddenf(format string, args ...any) *Error {
	return &Error{Name: Forbidden, Msg: fmt.Sprintf(format, args...)}
}

// Conflictf is a 409 conflict.
func Conflictf(format string, args ...any) *Error {
	return &Error{Name: Conflict, Msg: fmt.Sprintf(format, args...)}
}

// PaymentRequiredf is a 402 payment_required.
func PaymentRequiredf(format string, args ...any) *Error {
	return &Error{Name: PaymentRequired, Msg: fmt.Sprintf(format, args...)}
}
