package sigreq

// The JSON of a signature request view, written straight from the stored
// row into the answer's buffer: the same bytes, in the same field order, as
// encoding/json writes for the declared shape (requestShape in
// views_shape.go, filled by shapeOf), which tests and the readcheck build
// hold it to.

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// errNoRequest is the error of a Response made without a row, a bug.
var errNoRequest = errors.New("sigreq: view of no signature request")

// MarshalJSON lets encoding/json write a view where it is part of a larger
// answer (bulk send jobs, events, the console). The buffer starts at about
// a view's size, so that it is not grown (and copied) several times.
func (r Response) MarshalJSON() ([]byte, error) {
	hint := 1024
	if r.req != nil {
		hint += 512 * len(r.req.Signatures)
	}
	return r.AppendJSON(make([]byte, 0, hint))
}

// AppendJSON writes SignatureRequestResponse: the bytes json.Marshal
// writes for shapeOf(req), without building it.
func (r Response) AppendJSON(dst []byte) ([]byte, error) {
	req := r.req
	if req == nil {
		return dst, errNoRequest
	}
	start := len(dst)
	dst = append(dst, `{"test_mode":`...)
	dst = jsonenc.AppendBool(dst, req.TestMode)
	dst = append(dst, `,"signature_request_id":`...)
	dst = jsonenc.AppendString(dst, req.ID)
	dst = append(dst, `,"requester_email_address":`...)
	dst = jsonenc.AppendNullString(dst, req.RequesterEmail)
	dst = append(dst, `,"title":`...)
	dst = jsonenc.AppendString(dst, req.Title)
	dst = append(dst, `,"original_title":`...)
	dst = jsonenc.AppendString(dst, req.OriginalTitle)
	dst = append(dst, `,"subject":`...)
	dst = jsonenc.AppendNullString(dst, req.Subject)
	dst = append(dst, `,"message":`...)
	dst = jsonenc.AppendNullString(dst, req.Message)
	dst = append(dst, `,"metadata":`...)
	dst, err := appendMetadata(dst, req.Metadata)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"created_at":`...)
	dst = jsonenc.AppendInt(dst, req.CreatedAt)
	dst = append(dst, `,"expires_at":`...)
	dst = jsonenc.AppendNullInt(dst, req.ExpiresAt)
	dst = append(dst, `,"is_complete":`...)
	dst = jsonenc.AppendBool(dst, req.Phase == model.PhaseComplete)
	dst = append(dst, `,"is_declined":`...)
	dst = jsonenc.AppendBool(dst, req.Phase == model.PhaseDeclined)
	dst = append(dst, `,"has_error":`...)
	dst = jsonenc.AppendBool(dst, req.Phase == model.PhaseError)
	dst = append(dst, `,"files_url":`...)
	dst = jsonenc.AppendJoined(dst, req.BaseURL, api.APIPrefix+"/signature_request/files/", req.ID)
	// Signers with accounts sign on the service's site; embedded requests
	// are signed only through sign URLs, so theirs is null (as the official
	// create_embedded example shows), and so is a finished request's.
	dst = append(dst, `,"signing_url":`...)
	if !req.Embedded && (req.Phase == model.PhaseSent || req.Phase == model.PhaseProcessing) {
		dst = jsonenc.AppendJoined(dst, req.WorldURL, "/requests/", req.ID)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"details_url":`...)
	dst = jsonenc.AppendJoined(dst, req.WorldURL, "/requests/", req.ID)
	dst = append(dst, `,"cc_email_addresses":`...)
	if req.CCEmails == nil {
		dst = append(dst, "[]"...)
	} else {
		dst = jsonenc.AppendStrings(dst, req.CCEmails)
	}
	dst = append(dst, `,"signing_redirect_url":`...)
	dst = jsonenc.AppendNullString(dst, req.SigningRedirectURL)
	dst = append(dst, `,"final_copy_uri":null,"template_ids":`...)
	if len(req.TemplateIDs) > 0 {
		dst = jsonenc.AppendStrings(dst, req.TemplateIDs)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"custom_fields":[`...)
	for i := range req.CustomFields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendCustomField(dst, &req.CustomFields[i])
	}
	dst = append(dst, `],"attachments":[`...)
	for i := range req.Attachments {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendAttachment(dst, &req.Attachments[i])
	}
	dst = append(dst, `],"response_data":[`...)
	for i := range req.ResponseData {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendResponseValue(dst, &req.ResponseData[i]); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `],"signatures":[`...)
	for i := range req.Signatures {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendSignature(dst, &req.Signatures[i])
	}
	dst = append(dst, `],"bulk_send_job_id":`...)
	dst = jsonenc.AppendNullString(dst, req.BulkSendJobID)
	dst = append(dst, `,"signer_experience":{"form_view":`...)
	formView := req.FormView
	if formView == "" {
		formView = "disabled"
	}
	dst = jsonenc.AppendString(dst, formView)
	dst = append(dst, "}}"...)
	checkShape(req, dst[start:])
	return dst, nil
}

// appendMetadata renders metadata the way the official send example shows
// it: scalar values come back as strings (custom_id 1234 is answered as
// "1234"), objects and arrays keep their shape, keys sorted. Numbers are
// rendered from their exact decimal text, never through a float. No
// metadata is an empty object.
func appendMetadata(dst []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(dst, "{}"...), nil
	}
	return jsonenc.AppendObject(dst, m, metadataScalar)
}

func metadataScalar(v any) any {
	switch t := v.(type) {
	case json.Number:
		return string(t)
	case bool:
		if t {
			return "true"
		}
		return "false"
	case nil:
		return nil
	}
	return v
}

// appendCustomField writes SignatureRequestResponseCustomFieldText or
// ...Checkbox: the value is a string or, for a checkbox, a boolean.
func appendCustomField(dst []byte, f *model.CustomField) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonenc.AppendString(dst, f.Type)
	dst = append(dst, `,"name":`...)
	dst = jsonenc.AppendString(dst, f.Name)
	dst = append(dst, `,"required":`...)
	dst = jsonenc.AppendBool(dst, f.Required)
	dst = append(dst, `,"api_id":`...)
	if f.APIID == "" {
		dst = jsonenc.AppendString(dst, f.Name)
	} else {
		dst = jsonenc.AppendString(dst, f.APIID)
	}
	dst = append(dst, `,"editor":`...)
	dst = jsonenc.AppendNullString(dst, f.Editor)
	dst = append(dst, `,"value":`...)
	if f.Type == "checkbox" {
		dst = jsonenc.AppendBool(dst, mergeChecked(f.Value))
	} else {
		dst = jsonenc.AppendString(dst, f.Value)
	}
	return append(dst, '}')
}

// appendAttachment writes SignatureRequestResponseAttachment (signer is
// the 1-based signer index, as a string).
func appendAttachment(dst []byte, a *model.Attachment) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonenc.AppendString(dst, a.ID)
	dst = append(dst, `,"signer":"`...)
	dst = strconv.AppendInt(dst, int64(a.SignerIndex+1), 10)
	dst = append(dst, `","name":`...)
	dst = jsonenc.AppendString(dst, a.Name)
	dst = append(dst, `,"required":`...)
	dst = jsonenc.AppendBool(dst, a.Required)
	dst = append(dst, `,"instructions":`...)
	dst = jsonenc.AppendNullString(dst, a.Instructions)
	dst = append(dst, `,"uploaded_at":`...)
	dst = jsonenc.AppendNullInt(dst, a.UploadedAt)
	return append(dst, '}')
}

// appendResponseValue writes one SignatureRequestResponseDataValue* entry
// (is_signed only where it is known).
func appendResponseValue(dst []byte, v *model.ResponseValue) ([]byte, error) {
	dst = append(dst, `{"api_id":`...)
	dst = jsonenc.AppendString(dst, v.APIID)
	dst = append(dst, `,"signature_id":`...)
	dst = jsonenc.AppendString(dst, v.SignatureID)
	dst = append(dst, `,"name":`...)
	dst = jsonenc.AppendString(dst, v.Name)
	dst = append(dst, `,"required":`...)
	dst = jsonenc.AppendBool(dst, v.Required)
	dst = append(dst, `,"type":`...)
	dst = jsonenc.AppendString(dst, v.Type)
	dst = append(dst, `,"value":`...)
	dst, err := jsonenc.AppendValue(dst, v.Value)
	if err != nil {
		return dst, err
	}
	if v.IsSigned != nil {
		dst = append(dst, `,"is_signed":`...)
		dst = jsonenc.AppendBool(dst, *v.IsSigned)
	}
	return append(dst, '}'), nil
}

// appendSignature writes SignatureRequestResponseSignatures.
func appendSignature(dst []byte, sg *model.Signature) []byte {
	dst = append(dst, `{"signature_id":`...)
	dst = jsonenc.AppendString(dst, sg.ID)
	dst = append(dst, `,"signer_group_guid":`...)
	dst = jsonenc.AppendNullString(dst, sg.GroupGUID)
	dst = append(dst, `,"signer_email_address":`...)
	dst = jsonenc.AppendString(dst, sg.Email)
	dst = append(dst, `,"signer_name":`...)
	dst = jsonenc.AppendNullString(dst, sg.Name)
	dst = append(dst, `,"signer_role":`...)
	dst = jsonenc.AppendNullString(dst, sg.Role)
	dst = append(dst, `,"order":`...)
	if sg.Order == nil {
		dst = append(dst, "null"...)
	} else {
		dst = strconv.AppendInt(dst, int64(*sg.Order), 10)
	}
	dst = append(dst, `,"status_code":`...)
	dst = jsonenc.AppendString(dst, sg.Status)
	dst = append(dst, `,"decline_reason":`...)
	dst = jsonenc.AppendNullString(dst, sg.DeclineReason)
	dst = append(dst, `,"signed_at":`...)
	dst = jsonenc.AppendNullInt(dst, sg.SignedAt)
	dst = append(dst, `,"last_viewed_at":`...)
	dst = jsonenc.AppendNullInt(dst, sg.LastViewedAt)
	dst = append(dst, `,"last_reminded_at":`...)
	dst = jsonenc.AppendNullInt(dst, sg.LastRemindedAt)
	dst = append(dst, `,"has_pin":`...)
	dst = jsonenc.AppendBool(dst, sg.PIN != "")
	// A phone number is for authentication unless its type says delivery.
	delivery := sg.SMSPhoneType == "delivery"
	dst = append(dst, `,"has_sms_auth":`...)
	dst = jsonenc.AppendBool(dst, sg.SMSPhone != "" && !delivery)
	dst = append(dst, `,"has_sms_delivery":`...)
	dst = jsonenc.AppendBool(dst, sg.SMSPhone != "" && delivery)
	dst = append(dst, `,"sms_phone_number":`...)
	dst = jsonenc.AppendNullString(dst, sg.SMSPhone)
	dst = append(dst, `,"reassigned_by":`...)
	dst = jsonenc.AppendNullString(dst, sg.ReassignedBy)
	dst = append(dst, `,"reassignment_reason":`...)
	dst = jsonenc.AppendNullString(dst, sg.ReassignmentReason)
	dst = append(dst, `,"reassigned_from":`...)
	dst = jsonenc.AppendNullString(dst, sg.ReassignedFrom)
	dst = append(dst, `,"error":`...)
	dst = jsonenc.AppendNullString(dst, sg.Error)
	return append(dst, '}')
}

// MarshalJSON writes SignatureRequestGetResponse for encoding/json.
func (g signatureRequestGetResponse) MarshalJSON() ([]byte, error) { return g.AppendJSON(nil) }

// AppendJSON writes SignatureRequestGetResponse.
func (g signatureRequestGetResponse) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"signature_request":`...)
	dst, err := g.SignatureRequest.AppendJSON(dst)
	if err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}

// MarshalJSON writes SignatureRequestListResponse for encoding/json.
func (l signatureRequestListResponse) MarshalJSON() ([]byte, error) { return l.AppendJSON(nil) }

// AppendJSON writes SignatureRequestListResponse.
func (l signatureRequestListResponse) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"signature_requests":[`...)
	for i, req := range l.Rows {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = (Response{req: req}).AppendJSON(dst); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `],"list_info":`...)
	dst = l.ListInfo.AppendJSON(dst)
	return append(dst, '}'), nil
}
