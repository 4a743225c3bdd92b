package sigreq

import (
	"encoding/json"
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// Response is SignatureRequestResponse of the official
// description. Nullable fields are pointers and always present, as the
// official examples show them.
type Response struct {
	TestMode              bool                          `json:"test_mode"`
	SignatureRequestID    string                        `json:"signature_request_id"`
	RequesterEmailAddress *string                       `json:"requester_email_address"`
	Title                 string                        `json:"title"`
	OriginalTitle         string                        `json:"original_title"`
	Subject               *string                       `json:"subject"`
	Message               *string                       `json:"message"`
	Metadata              map[string]any                `json:"metadata"`
	CreatedAt             int64                         `json:"created_at"`
	ExpiresAt             *int64                        `json:"expires_at"`
	IsComplete            bool                          `json:"is_complete"`
	IsDeclined            bool                          `json:"is_declined"`
	HasError              bool                          `json:"has_error"`
	FilesURL              string                        `json:"files_url"`
	SigningURL            *string                       `json:"signing_url"`
	DetailsURL            string                        `json:"details_url"`
	CCEmailAddresses      []string                      `json:"cc_email_addresses"`
	SigningRedirectURL    *string                       `json:"signing_redirect_url"`
	FinalCopyURI          *string                       `json:"final_copy_uri"`
	TemplateIDs           []string                      `json:"template_ids"`
	CustomFields          []customFieldResponse         `json:"custom_fields"`
	Attachments           []template.AttachmentResponse `json:"attachments"`
	ResponseData          []responseDataResponse        `json:"response_data"`
	Signatures            []signatureResponse           `json:"signatures"`
	BulkSendJobID         *string                       `json:"bulk_send_job_id"`
	SignerExperience      template.SignerExperience     `json:"signer_experience"`
}

// signatureResponse is SignatureRequestResponseSignatures.
type signatureResponse struct {
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
	HasSMSAuth         *bool   `json:"has_sms_auth"`
	HasSMSDelivery     *bool   `json:"has_sms_delivery"`
	SMSPhoneNumber     *string `json:"sms_phone_number"`
	ReassignedBy       *string `json:"reassigned_by"`
	ReassignmentReason *string `json:"reassignment_reason"`
	ReassignedFrom     *string `json:"reassigned_from"`
	Error              *string `json:"error"`
}

// customFieldResponse is SignatureRequestResponseCustomFieldText or
// ...Checkbox (value is a string or a boolean by type).
type customFieldResponse struct {
	Type     string  `json:"type"`
	Name     string  `json:"name"`
	Required bool    `json:"required"`
	APIID    string  `json:"api_id"`
	Editor   *string `json:"editor"`
	Value    any     `json:"value,omitempty"`
}

// responseDataResponse is one SignatureRequestResponseDataValue* entry.
type responseDataResponse struct {
	APIID       string `json:"api_id"`
	SignatureID string `json:"signature_id"`
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Type        string `json:"type"`
	Value       any    `json:"value"`
	IsSigned    *bool  `json:"is_signed,omitempty"`
}

// signatureRequestGetResponse is SignatureRequestGetResponse.
type signatureRequestGetResponse struct {
	SignatureRequest Response `json:"signature_request"`
}

// signatureRequestListResponse is SignatureRequestListResponse.
type signatureRequestListResponse struct {
	SignatureRequests []Response           `json:"signature_requests"`
	ListInfo          api.ListInfoResponse `json:"list_info"`
}

func RegisterViews(r *api.Registry) {
	r.ObjectViews[notify.ObjectSignatureRequest] = func(tx *state.Txn, id, viewer string) (any, error) {
		req, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, id)
		if err != nil {
			return nil, fmt.Errorf("signature request %s: %w", id, err)
		}
		return View(req, viewer), nil
	}
	r.Catalog.Add(catalog.Of(notify.ObjectSignatureRequest, state.TableSignatureRequests,
		func(req *state.SignatureRequest) string { return req.ID },
		func(_ *state.Txn, req *state.SignatureRequest) (any, error) {
			return View(req, req.RequesterAccountID), nil
		},
		func(tx *state.Txn, req *state.SignatureRequest, accountID string) bool {
			acct, err := state.Get[state.Account](tx, state.TableAccounts, accountID)
			return err == nil && Visible(tx, req, acct)
		}))
}

// View renders a request as GET /signature_request shows it
// to viewer (an account id; the rendering does not depend on it today, but
// callers pass it so that per-viewer differences stay in one place). It
// renders any phase, canceled included: callers decide about 410s. Events,
// list entries and every operation answering SignatureRequestGetResponse
// use it.
func View(req *state.SignatureRequest, viewer string) Response {
	_ = viewer
	out := Response{
		TestMode:              req.TestMode,
		SignatureRequestID:    req.ID,
		RequesterEmailAddress: api.NullString(req.RequesterEmail),
		Title:                 req.Title,
		OriginalTitle:         req.OriginalTitle,
		Subject:               api.NullString(req.Subject),
		Message:               api.NullString(req.Message),
		Metadata:              viewMetadata(req.Metadata),
		CreatedAt:             req.CreatedAt,
		ExpiresAt:             req.ExpiresAt,
		IsComplete:            req.Phase == state.PhaseComplete,
		IsDeclined:            req.Phase == state.PhaseDeclined,
		HasError:              req.Phase == state.PhaseError,
		FilesURL:              req.BaseURL + api.APIPrefix + "/signature_request/files/" + req.ID,
		DetailsURL:            req.WorldURL + "/requests/" + req.ID,
		CCEmailAddresses:      append([]string{}, req.CCEmails...),
		SigningRedirectURL:    api.NullString(req.SigningRedirectURL),
		CustomFields:          []customFieldResponse{},
		Attachments:           []template.AttachmentResponse{},
		ResponseData:          []responseDataResponse{},
		Signatures:            []signatureResponse{},
		BulkSendJobID:         api.NullString(req.BulkSendJobID),
		SignerExperience:      template.SignerExperience{FormView: req.FormView},
	}
	if out.SignerExperience.FormView == "" {
		out.SignerExperience.FormView = "disabled"
	}
	if len(req.TemplateIDs) > 0 {
		out.TemplateIDs = append([]string{}, req.TemplateIDs...)
	}
	// Signers with accounts sign on the service's site; embedded requests
	// are signed only through sign URLs, so theirs is null (as the official
	// create_embedded example shows), and so is a finished request's.
	if !req.Embedded && (req.Phase == state.PhaseSent || req.Phase == state.PhaseProcessing) {
		u := req.WorldURL + "/requests/" + req.ID
		out.SigningURL = &u
	}
	for _, f := range req.CustomFields {
		cf := customFieldResponse{Type: f.Type, Name: f.Name, Required: f.Required, APIID: f.APIID, Editor: api.NullString(f.Editor)}
		if cf.APIID == "" {
			cf.APIID = f.Name
		}
		if f.Type == "checkbox" {
			cf.Value = mergeChecked(f.Value)
		} else {
			cf.Value = f.Value
		}
		out.CustomFields = append(out.CustomFields, cf)
	}
	for _, a := range req.Attachments {
		out.Attachments = append(out.Attachments, template.AttachmentResponse{
			ID: a.ID, Signer: itoa(a.SignerIndex + 1), Name: a.Name, Required: a.Required,
			Instructions: api.NullString(a.Instructions), UploadedAt: a.UploadedAt,
		})
	}
	for _, v := range req.ResponseData {
		out.ResponseData = append(out.ResponseData, responseDataResponse{
			APIID: v.APIID, SignatureID: v.SignatureID, Name: v.Name, Required: v.Required, Type: v.Type,
			Value: v.Value, IsSigned: v.IsSigned,
		})
	}
	for _, sg := range req.Signatures {
		out.Signatures = append(out.Signatures, viewSignature(sg))
	}
	return out
}

// viewSignature renders one signature.
func viewSignature(sg state.Signature) signatureResponse {
	r := signatureResponse{
		SignatureID:        sg.ID,
		SignerGroupGUID:    api.NullString(sg.GroupGUID),
		SignerEmailAddress: sg.Email,
		SignerName:         api.NullString(sg.Name),
		SignerRole:         api.NullString(sg.Role),
		Order:              sg.Order,
		StatusCode:         sg.Status,
		DeclineReason:      api.NullString(sg.DeclineReason),
		SignedAt:           sg.SignedAt,
		LastViewedAt:       sg.LastViewedAt,
		LastRemindedAt:     sg.LastRemindedAt,
		HasPIN:             sg.PIN != "",
		ReassignedBy:       api.NullString(sg.ReassignedBy),
		ReassignmentReason: api.NullString(sg.ReassignmentReason),
		ReassignedFrom:     api.NullString(sg.ReassignedFrom),
		Error:              api.NullString(sg.Error),
	}
	auth := sg.SMSPhone != "" && sg.SMSPhoneType != "delivery"
	delivery := sg.SMSPhone != "" && sg.SMSPhoneType == "delivery"
	r.HasSMSAuth, r.HasSMSDelivery = &auth, &delivery
	r.SMSPhoneNumber = api.NullString(sg.SMSPhone)
	return r
}

// viewMetadata renders metadata the way the official send example shows
// it: scalar values come back as strings (custom_id 1234 is answered as
// "1234"), objects and arrays keep their shape. Numbers are rendered from
// their exact decimal text, never through a float. (encoding/json writes
// the keys sorted.)
func viewMetadata(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = metadataScalar(v)
	}
	return out
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
