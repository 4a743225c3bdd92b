package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RawResponse is a handler result that is not a 200 JSON object: binary
// downloads, empty bodies, 201 and 204 answers, HTML pages.
type RawResponse struct {
	Status      int
	ContentType string
	Header      http.Header
	Body        []byte
}

// EmptyOK is the empty 200 of cancel, remove and delete operations. The body
// is empty with a JSON content type, which the official SDKs resolve to "".
func EmptyOK() *RawResponse {
	return &RawResponse{Status: http.StatusOK, ContentType: "application/json"}
}

// NoContent is a 204 (api app and fax deletion).
func NoContent() *RawResponse { return &RawResponse{Status: http.StatusNoContent} }

// WithStatus answers a JSON value with another 2xx status (201 of api app
// creation and team member removal).
type WithStatus struct {
	Status int
	Value  any
}

// WriteResult is the one place where handler results become HTTP answers.
// It answers the status it wrote, for the call observers.
func (s *Host) WriteResult(w http.ResponseWriter, c *Call, v any, err error) int {
	if err != nil {
		return s.writeError(w, c, err)
	}
	status := http.StatusOK
	switch t := v.(type) {
	case *RawResponse:
		for k, vals := range t.Header {
			w.Header()[k] = vals
		}
		if t.ContentType != "" {
			w.Header().Set("Content-Type", t.ContentType)
		}
		if t.Status/100 == 2 {
			setRateHeaders(w, c)
		}
		if t.Status != http.StatusNoContent {
			w.Header().Set("Content-Length", strconv.Itoa(len(t.Body)))
		}
		w.WriteHeader(t.Status)
		_, _ = w.Write(t.Body)
		return t.Status
	case WithStatus:
		status, v = t.Status, t.Value
	}
	enc := jsonenc.Get()
	defer enc.Release()
	body, merr := enc.Encode(v)
	if merr != nil {
		return s.writeError(w, c, merr)
	}
	if c != nil && len(c.Warnings) > 0 {
		body = spliceWarnings(body, c.Warnings, warningShapeOf(c.OperationID()))
	}
	writeJSONAnswer(w, c, status, body)
	return status
}

// writeJSONAnswer writes a JSON answer, with the caller's rate-limit
// headers when c has them (nil for errors): the header values share one
// slice and their numbers one string, two objects per answer instead of
// one per header.
func writeJSONAnswer(w http.ResponseWriter, c *Call, status int, body []byte) {
	nums, n := [4]int64{int64(len(body))}, 1
	if c != nil && c.Rate.Limit != 0 {
		nums[1], nums[2], nums[3], n = int64(c.Rate.Limit), int64(c.Rate.Remaining), c.Rate.Reset, 4
	}
	var scratch [80]byte
	digits, ends := scratch[:0], [5]int{}
	for i := range n {
		digits = strconv.AppendInt(digits, nums[i], 10)
		ends[i+1] = len(digits)
	}
	text := string(digits)
	v := make([]string, n+1)
	v[0] = "application/json"
	for i := range n {
		v[i+1] = text[ends[i]:ends[i+1]]
	}
	h := w.Header()
	h["Content-Type"], h["Content-Length"] = v[0:1:1], v[1:2:2]
	if n == 4 {
		// The official description spells the third header with a lower-case
		// l; Go would canonicalize it, so the map is written directly.
		h["X-RateLimit-Limit"], h["X-RateLimit-Remaining"], h["X-Ratelimit-Reset"] = v[2:3:3], v[3:4:4], v[4:5:5]
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// warningShape is how an operation's response schema holds warnings.
type warningShape int

const (
	warningsArray  warningShape = iota // "warnings": [WarningResponse, ...] (most operations)
	warningsObject                     // "warnings": WarningResponse (fax line answers)
	warningsNone                       // the schema has no warnings property
)

// warningShapes lists the operations whose official response schema does not
// hold warnings as an array; the SDKs deserialize by those schemas.
var warningShapes = map[string]warningShape{
	"faxLineAddUser": warningsObject, "faxLineCreate": warningsObject, "faxLineGet": warningsObject,
	"faxLineList": warningsObject, "faxLineRemoveUser": warningsObject,
	"faxLineAreaCodeGet": warningsNone, "faxList": warningsNone, "oauthTokenGenerate": warningsNone,
	"oauthTokenRefresh": warningsNone, "signatureRequestFilesAsDataUri": warningsNone,
	"signatureRequestFilesAsFileUrl": warningsNone, "templateFilesAsDataUri": warningsNone,
	"templateFilesAsFileUrl": warningsNone, "templateUpdateFiles": warningsNone,
}

func warningShapeOf(operationID string) warningShape { return warningShapes[operationID] }

// spliceWarnings adds the warnings to a JSON object body in the shape the
// operation's schema declares (only the first warning fits a single object;
// none fit where the schema has no warnings). The answer is copied once
// into room for the warnings; body itself is left as it was.
func spliceWarnings(body []byte, ws []Warning, shape warningShape) []byte {
	if shape == warningsNone || len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return body
	}
	room := len(`,"warnings":[]}`)
	for _, w := range ws {
		room += len(`{"warning_msg":"","warning_name":""},`) + len(w.WarningMsg) + len(w.WarningName)
	}
	out := append(make([]byte, 0, len(body)+room), body[:len(body)-1]...)
	if len(body) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"warnings":`...)
	if shape == warningsObject {
		out = ws[0].appendJSON(out)
	} else {
		out = append(out, '[')
		for i := range ws {
			if i > 0 {
				out = append(out, ',')
			}
			out = ws[i].appendJSON(out)
		}
		out = append(out, ']')
	}
	return append(out, '}')
}

// appendJSON writes a WarningResponse as encoding/json writes Warning.
func (w Warning) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"warning_msg":`...)
	dst = jsonenc.AppendString(dst, w.WarningMsg)
	dst = append(dst, `,"warning_name":`...)
	dst = jsonenc.AppendString(dst, w.WarningName)
	return append(dst, '}')
}

func setRateHeaders(w http.ResponseWriter, c *Call) {
	if c == nil || c.Rate.Limit == 0 {
		return
	}
	h := w.Header()
	// The official description spells the third header with a lower-case l;
	// Go would canonicalize it, so the map is written directly. The three
	// values share one array (each slice capped at its own element).
	v := []string{strconv.Itoa(c.Rate.Limit), strconv.Itoa(c.Rate.Remaining), strconv.FormatInt(c.Rate.Reset, 10)}
	h["X-RateLimit-Limit"] = v[0:1:1]
	h["X-RateLimit-Remaining"] = v[1:2:2]
	h["X-Ratelimit-Reset"] = v[2:3:3]
}

// writeError answers an error in the official envelope. Errors that are not
// API errors are bugs: they are logged and answered as a 400 bad_request
// rather than a 5xx, because no input may make the sandbox fail. It
// answers the status it wrote.
func (s *Host) writeError(w http.ResponseWriter, c *Call, err error) int {
	e, ok := apierr.As(err)
	var over *state.BudgetError
	if !ok && errors.As(err, &over) {
		// Files made by the sandbox itself (merged copies, templates) can
		// meet the server-wide budget at commit: a refusal, not a fault.
		e, ok = apierr.Badf("", "The sandbox cannot store more files: %v (--max-stored-bytes).", over), true
	}
	if !ok {
		s.log.Error("unexpected error", "operation", c.OperationID(), "err", err)
		e = apierr.New(apierr.BadRequest, "The request could not be processed: "+err.Error())
	}
	if c != nil && c.Route != nil {
		e = c.Body.KeyedError(e) // entries named by the client's keys (wire/php_arrays.go)
	}
	writeErrorBody(w, e)
	return e.Status()
}

// writeAPIError writes an error outside of a call (router fallbacks).
func writeAPIError(w http.ResponseWriter, e *apierr.Error) { writeErrorBody(w, e) }

// writeErrorBody writes e in the official envelope.
func writeErrorBody(w http.ResponseWriter, e *apierr.Error) {
	enc := jsonenc.Get()
	defer enc.Release()
	body, _ := enc.Encode(e.Body())
	writeJSONAnswer(w, nil, e.Status(), body)
}
