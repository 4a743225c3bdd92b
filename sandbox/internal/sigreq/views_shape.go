package sigreq

// The declared shape of SignatureRequestResponse: the fields, their JSON
// names, types and order, and how each is made from a stored row. The
// answers are not built from these structs: Response.AppendJSON
// (views_json.go) writes the same bytes straight from the row, so that an
// answer allocates nothing on the way. What holds them together:
//
//   - views_shape_test.go holds the writer to json.Marshal(shapeOf(row)),
//     byte for byte, over seeded rows that make every field both set and
//     null (a test fails when a field is never exercised), and holds these
//     structs' JSON names to the official description's schemas;
//   - under -tags readcheck every view the sandbox writes is compared with
//     its shape as it is written (views_json_check.go), so the whole test
//     suite checks the writer too.
//
// A new field is added here, in shapeOf and in the writer; the tests fail
// until the three agree.

import (
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// requestShape is SignatureRequestResponse as the sandbox serves it. A
// pointer is a nullable field (null when the row's value is empty).
type requestShape struct {
	TestMode              bool                  `json:"test_mode"`
	SignatureRequestID    string                `json:"signature_request_id"`
	RequesterEmailAddress *string               `json:"requester_email_address"`
	Title                 string                `json:"title"`
	OriginalTitle         string                `json:"original_title"`
	Subject               *string               `json:"subject"`
	Message               *string               `json:"message"`
	Metadata              map[string]any        `json:"metadata"`
	CreatedAt             int64                 `json:"created_at"`
	ExpiresAt             *int64                `json:"expires_at"`
	IsComplete            bool                  `json:"is_complete"`
	IsDeclined            bool                  `json:"is_declined"`
	HasError              bool                  `json:"has_error"`
	FilesURL              string                `json:"files_url"`
	SigningURL            *string               `json:"signing_url"`
	DetailsURL            string                `json:"details_url"`
	CCEmailAddresses      []string              `json:"cc_email_addresses"`
	SigningRedirectURL    *string               `json:"signing_redirect_url"`
	FinalCopyURI          *string               `json:"final_copy_uri"` // always null: deprecated, never served
	TemplateIDs           []string              `json:"template_ids"`   // null when the request used no template
	CustomFields          []customFieldShape    `json:"custom_fields"`
	Attachments           []attachmentShape     `json:"attachments"`
	ResponseData          []responseValueShape  `json:"response_data"`
	Signatures            []signatureShape      `json:"signatures"`
	BulkSendJobID         *string               `json:"bulk_send_job_id"`
	SignerExperience      signerExperienceShape `json:"signer_experience"`
}

// customFieldShape is SignatureRequestResponseCustomFieldText or
// ...Checkbox: Value is a string or, for a checkbox, a bool.
type customFieldShape struct {
	Type     string  `json:"type"`
	Name     string  `json:"name"`
	Required bool    `json:"required"`
	APIID    string  `json:"api_id"`
	Editor   *string `json:"editor"`
	Value    any     `json:"value"`
}

// attachmentShape is SignatureRequestResponseAttachment.
type attachmentShape struct {
	ID           string  `json:"id"`
	Signer       string  `json:"signer"` // the 1-based signer index, as a string
	Name         string  `json:"name"`
	Required     bool    `json:"required"`
	Instructions *string `json:"instructions"`
	UploadedAt   *int64  `json:"uploaded_at"`
}

// responseValueShape is one SignatureRequestResponseDataValue* entry; only
// signatures and initials say whether they are signed.
type responseValueShape struct {
	APIID       string `json:"api_id"`
	SignatureID string `json:"signature_id"`
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Type        string `json:"type"`
	Value       any    `json:"value"`
	IsSigned    *bool  `json:"is_signed,omitempty"`
}

// signatureShape is SignatureRequestResponseSignatures.
type signatureShape struct {
	SignatureID        string  `json:"signature_id"`
	SignerGroupGUID    *string `json:"signer_group_guid"`
	SignerEmailAddress string  `json:"signer_email_address"`
	SignerName         *string `json:"signer_name"`
	SignerRole         *string `json:"signer_role"`
	Order              *int    `json:"order"`
	StatusCode         string  `json:"status_code"`
	DeclineReason      *string `json:"decline_reason"`
	SignedAt           *int64  `json:"signed_at"`
	LastViewedAt       *int64  `json:"last_viewed_at"`
	LastRemindedAt     *int64  `json:"last_reminded_at"`
	HasPIN             bool    `json:"has_pin"`
	HasSMSAuth         bool    `json:"has_sms_auth"`
	HasSMSDelivery     bool    `json:"has_sms_delivery"`
	SMSPhoneNumber     *string `json:"sms_phone_number"`
	ReassignedBy       *string `json:"reassigned_by"`
	ReassignmentReason *string `json:"reassignment_reason"`
	ReassignedFrom     *string `json:"reassigned_from"`
	Error              *string `json:"error"`
}

// signerExperienceShape is SignatureRequestSignerExperience.
type signerExperienceShape struct {
	FormView string `json:"form_view"`
}

// shapeOf returns the shape of a stored request: what each field of
// SignatureRequestResponse means in terms of the row.
func shapeOf(req *model.SignatureRequest) requestShape {
	out := requestShape{
		TestMode:              req.TestMode,
		SignatureRequestID:    req.ID,
		RequesterEmailAddress: api.NullString(req.RequesterEmail),
		Title:                 req.Title,
		OriginalTitle:         req.OriginalTitle,
		Subject:               api.NullString(req.Subject),
		Message:               api.NullString(req.Message),
		Metadata:              map[string]any{},
		CreatedAt:             req.CreatedAt,
		ExpiresAt:             req.ExpiresAt,
		IsComplete:            req.Phase == model.PhaseComplete,
		IsDeclined:            req.Phase == model.PhaseDeclined,
		HasError:              req.Phase == model.PhaseError,
		FilesURL:              req.BaseURL + api.APIPrefix + "/signature_request/files/" + req.ID,
		DetailsURL:            req.WorldURL + "/requests/" + req.ID,
		CCEmailAddresses:      append([]string{}, req.CCEmails...),
		SigningRedirectURL:    api.NullString(req.SigningRedirectURL),
		CustomFields:          []customFieldShape{},
		Attachments:           []attachmentShape{},
		ResponseData:          []responseValueShape{},
		Signatures:            []signatureShape{},
		BulkSendJobID:         api.NullString(req.BulkSendJobID),
		SignerExperience:      signerExperienceShape{FormView: req.FormView},
	}
	// Scalar metadata values come back as strings (see appendMetadata).
	for k, v := range req.Metadata {
		out.Metadata[k] = metadataScalar(v)
	}
	// Signers with accounts sign on the service's site; embedded requests
	// are signed only through sign URLs, and a finished request is not
	// signed at all.
	if !req.Embedded && (req.Phase == model.PhaseSent || req.Phase == model.PhaseProcessing) {
		u := req.WorldURL + "/requests/" + req.ID
		out.SigningURL = &u
	}
	if len(req.TemplateIDs) > 0 {
		out.TemplateIDs = append([]string{}, req.TemplateIDs...)
	}
	if out.SignerExperience.FormView == "" {
		out.SignerExperience.FormView = "disabled"
	}
	for _, f := range req.CustomFields {
		cf := customFieldShape{Type: f.Type, Name: f.Name, Required: f.Required, APIID: f.APIID,
			Editor: api.NullString(f.Editor), Value: f.Value}
		if cf.APIID == "" {
			cf.APIID = f.Name
		}
		if f.Type == "checkbox" {
			cf.Value = mergeChecked(f.Value)
		}
		out.CustomFields = append(out.CustomFields, cf)
	}
	for _, a := range req.Attachments {
		out.Attachments = append(out.Attachments, attachmentShape{
			ID: a.ID, Signer: strconv.Itoa(a.SignerIndex + 1), Name: a.Name, Required: a.Required,
			Instructions: api.NullString(a.Instructions), UploadedAt: a.UploadedAt,
		})
	}
	for _, v := range req.ResponseData {
		out.ResponseData = append(out.ResponseData, responseValueShape{
			APIID: v.APIID, SignatureID: v.SignatureID, Name: v.Name, Required: v.Required, Type: v.Type,
			Value: v.Value, IsSigned: v.IsSigned,
		})
	}
	for _, sg := range req.Signatures {
		// A phone number is for authentication unless its type says delivery.
		delivery := sg.SMSPhoneType == "delivery"
		out.Signatures = append(out.Signatures, signatureShape{
			SignatureID: sg.ID, SignerGroupGUID: api.NullString(sg.GroupGUID), SignerEmailAddress: sg.Email,
			SignerName: api.NullString(sg.Name), SignerRole: api.NullString(sg.Role), Order: sg.Order,
			StatusCode: sg.Status, DeclineReason: api.NullString(sg.DeclineReason), SignedAt: sg.SignedAt,
			LastViewedAt: sg.LastViewedAt, LastRemindedAt: sg.LastRemindedAt, HasPIN: sg.PIN != "",
			HasSMSAuth: sg.SMSPhone != "" && !delivery, HasSMSDelivery: sg.SMSPhone != "" && delivery,
			SMSPhoneNumber: api.NullString(sg.SMSPhone), ReassignedBy: api.NullString(sg.ReassignedBy),
			ReassignmentReason: api.NullString(sg.ReassignmentReason), ReassignedFrom: api.NullString(sg.ReassignedFrom),
			Error: api.NullString(sg.Error),
		})
	}
	return out
}
