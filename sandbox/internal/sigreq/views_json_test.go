package sigreq

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// The structs below are how a view was built before it was written
// straight from the row (views_json.go): encoding/json's bytes for them are
// the reference the new writer must give, byte for byte.

type refResponse struct {
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
	CustomFields          []refCustomField              `json:"custom_fields"`
	Attachments           []template.AttachmentResponse `json:"attachments"`
	ResponseData          []refResponseData             `json:"response_data"`
	Signatures            []refSignature                `json:"signatures"`
	BulkSendJobID         *string                       `json:"bulk_send_job_id"`
	SignerExperience      template.SignerExperience     `json:"signer_experience"`
}

type refSignature struct {
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

type refCustomField struct {
	Type     string  `json:"type"`
	Name     string  `json:"name"`
	Required bool    `json:"required"`
	APIID    string  `json:"api_id"`
	Editor   *string `json:"editor"`
	Value    any     `json:"value,omitempty"`
}

type refResponseData struct {
	APIID       string `json:"api_id"`
	SignatureID string `json:"signature_id"`
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Type        string `json:"type"`
	Value       any    `json:"value"`
	IsSigned    *bool  `json:"is_signed,omitempty"`
}

type refGetResponse struct {
	SignatureRequest refResponse `json:"signature_request"`
}

type refListResponse struct {
	SignatureRequests []refResponse        `json:"signature_requests"`
	ListInfo          api.ListInfoResponse `json:"list_info"`
}

// refView is the former View.
func refView(req *state.SignatureRequest) refResponse {
	meta := make(map[string]any, len(req.Metadata))
	for k, v := range req.Metadata {
		meta[k] = metadataScalar(v)
	}
	out := refResponse{
		TestMode: req.TestMode, SignatureRequestID: req.ID, RequesterEmailAddress: api.NullString(req.RequesterEmail),
		Title: req.Title, OriginalTitle: req.OriginalTitle, Subject: api.NullString(req.Subject),
		Message: api.NullString(req.Message), Metadata: meta, CreatedAt: req.CreatedAt, ExpiresAt: req.ExpiresAt,
		IsComplete: req.Phase == state.PhaseComplete, IsDeclined: req.Phase == state.PhaseDeclined,
		HasError:   req.Phase == state.PhaseError,
		FilesURL:   req.BaseURL + api.APIPrefix + "/signature_request/files/" + req.ID,
		DetailsURL: req.WorldURL + "/requests/" + req.ID, CCEmailAddresses: append([]string{}, req.CCEmails...),
		SigningRedirectURL: api.NullString(req.SigningRedirectURL), CustomFields: []refCustomField{},
		Attachments: []template.AttachmentResponse{}, ResponseData: []refResponseData{}, Signatures: []refSignature{},
		BulkSendJobID: api.NullString(req.BulkSendJobID), SignerExperience: template.SignerExperience{FormView: req.FormView},
	}
	if out.SignerExperience.FormView == "" {
		out.SignerExperience.FormView = "disabled"
	}
	if len(req.TemplateIDs) > 0 {
		out.TemplateIDs = append([]string{}, req.TemplateIDs...)
	}
	if !req.Embedded && (req.Phase == state.PhaseSent || req.Phase == state.PhaseProcessing) {
		u := req.WorldURL + "/requests/" + req.ID
		out.SigningURL = &u
	}
	for _, f := range req.CustomFields {
		cf := refCustomField{Type: f.Type, Name: f.Name, Required: f.Required, APIID: f.APIID, Editor: api.NullString(f.Editor)}
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
		out.ResponseData = append(out.ResponseData, refResponseData{
			APIID: v.APIID, SignatureID: v.SignatureID, Name: v.Name, Required: v.Required, Type: v.Type,
			Value: v.Value, IsSigned: v.IsSigned,
		})
	}
	for _, sg := range req.Signatures {
		r := refSignature{
			SignatureID: sg.ID, SignerGroupGUID: api.NullString(sg.GroupGUID), SignerEmailAddress: sg.Email,
			SignerName: api.NullString(sg.Name), SignerRole: api.NullString(sg.Role), Order: sg.Order,
			StatusCode: sg.Status, DeclineReason: api.NullString(sg.DeclineReason), SignedAt: sg.SignedAt,
			LastViewedAt: sg.LastViewedAt, LastRemindedAt: sg.LastRemindedAt, HasPIN: sg.PIN != "",
			ReassignedBy: api.NullString(sg.ReassignedBy), ReassignmentReason: api.NullString(sg.ReassignmentReason),
			ReassignedFrom: api.NullString(sg.ReassignedFrom), Error: api.NullString(sg.Error),
		}
		auth := sg.SMSPhone != "" && sg.SMSPhoneType != "delivery"
		delivery := sg.SMSPhone != "" && sg.SMSPhoneType == "delivery"
		r.HasSMSAuth, r.HasSMSDelivery = &auth, &delivery
		r.SMSPhoneNumber = api.NullString(sg.SMSPhone)
		out.Signatures = append(out.Signatures, r)
	}
	return out
}

// viewRows makes n requests from a seeded source, each field empty, set
// or set to text json escapes (HTML characters, line separators, invalid
// UTF-8), so that every branch of the writer meets the reference.
func viewRows(seed uint64, n int) []*state.SignatureRequest {
	rng := rand.New(rand.NewPCG(seed, 7))
	texts := []string{"", "plain", "Jack & Jill <j@example.com>", "line\u2028sep\nnew", "bad\xffutf8", "é🙂", `"quoted\"`, "\x00\x1f"}
	text := func() string { return texts[rng.IntN(len(texts))] }
	maybe := func() bool { return rng.IntN(2) == 0 }
	ts := func() *int64 {
		if maybe() {
			return nil
		}
		v := rng.Int64N(2_000_000_000)
		return &v
	}
	phases := []string{state.PhaseProcessing, state.PhaseOnHold, state.PhaseSent, state.PhaseComplete,
		state.PhaseDeclined, state.PhaseExpired, state.PhaseError, state.PhaseCanceled}
	values := []any{nil, "", "text <b>", true, false, json.Number("12.5"), 3.25, map[string]any{"k": json.Number("1")}, []any{"a", nil}}
	var out []*state.SignatureRequest
	for i := range n {
		req := &state.SignatureRequest{
			ID: "fa" + itoa(i), TestMode: maybe(), RequesterEmail: text(), Title: text(), OriginalTitle: text(),
			Subject: text(), Message: text(), CreatedAt: rng.Int64N(2_000_000_000), ExpiresAt: ts(),
			Phase: phases[rng.IntN(len(phases))], Embedded: maybe(), BaseURL: "http://127.0.0.1:8080",
			WorldURL: "http://127.0.0.1:8080/_sandbox/w/" + text(), SigningRedirectURL: text(), BulkSendJobID: text(),
			FormView: []string{"", "disabled", "enabled"}[rng.IntN(3)],
		}
		if i%7 == 3 {
			req.BaseURL = "http://h\xe2" // a character split across parts of files_url
			req.ID = "\x82\xacid"
		}
		switch rng.IntN(3) {
		case 1:
			req.Metadata = map[string]any{}
		case 2:
			req.Metadata = map[string]any{"custom_id": json.Number("1234"), "flag": true, "off": false, "none": nil,
				"s": text(), "nested": map[string]any{"z": json.Number("1.50"), "a": []any{true, "<x>"}}, "list": []any{json.Number("2")}}
			for k := range rng.IntN(12) {
				req.Metadata["k"+itoa(k)+text()] = text()
			}
		}
		for range rng.IntN(3) {
			req.CCEmails = append(req.CCEmails, text())
		}
		if maybe() {
			req.CCEmails = []string{}
		}
		for range rng.IntN(3) {
			req.TemplateIDs = append(req.TemplateIDs, text())
		}
		for range rng.IntN(4) {
			req.CustomFields = append(req.CustomFields, state.CustomField{Name: text(), Type: []string{"text", "checkbox"}[rng.IntN(2)],
				Value: []string{"", "true", "1", "false", "x<y"}[rng.IntN(5)], Required: maybe(), APIID: text(), Editor: text()})
		}
		for range rng.IntN(3) {
			req.Attachments = append(req.Attachments, state.Attachment{ID: text(), SignerIndex: rng.IntN(12), Name: text(),
				Instructions: text(), Required: maybe(), UploadedAt: ts()})
		}
		for range rng.IntN(4) {
			v := state.ResponseValue{APIID: text(), SignatureID: text(), Name: text(), Type: text(), Required: maybe(),
				Value: values[rng.IntN(len(values))]}
			if maybe() {
				b := maybe()
				v.IsSigned = &b
			}
			req.ResponseData = append(req.ResponseData, v)
		}
		for range rng.IntN(4) {
			sg := state.Signature{ID: text(), GroupGUID: text(), Email: text(), Name: text(), Role: text(), Status: text(),
				SignedAt: ts(), LastViewedAt: ts(), LastRemindedAt: ts(), PIN: text(), SMSPhone: text(),
				SMSPhoneType: []string{"", "authentication", "delivery"}[rng.IntN(3)], DeclineReason: text(),
				ReassignedBy: text(), ReassignmentReason: text(), ReassignedFrom: text(), Error: text()}
			if maybe() {
				o := rng.IntN(5) - 1
				sg.Order = &o
			}
			req.Signatures = append(req.Signatures, sg)
		}
		out = append(out, req)
	}
	return out
}

func mustMarshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestViewWritesReferenceBytes: a view, a GET answer and a list page are
// written byte for byte as encoding/json wrote the former structs, through
// the answer encoder and through json.Marshal (events, bulk send jobs).
func TestViewWritesReferenceBytes(t *testing.T) {
	rows := viewRows(1, 400)
	var refPage refListResponse
	for _, req := range rows {
		want := mustMarshal(t, refView(req))
		if got := mustMarshal(t, View(req, "viewer")); got != want {
			t.Fatalf("view of %q:\n got %s\nwant %s", req.ID, got, want)
		}
		// Events store the view as AppendJSON writes it (no json.Marshal
		// pass over it), after whatever the buffer held.
		if got, err := View(req, "viewer").AppendJSON([]byte("held")); err != nil || string(got) != "held"+want {
			t.Fatalf("appended view of %q (%v):\n got %s\nwant held%s", req.ID, err, got, want)
		}
		want = mustMarshal(t, refGetResponse{SignatureRequest: refView(req)})
		enc := jsonenc.Get()
		got, err := enc.Encode(signatureRequestGetResponse{SignatureRequest: View(req, "viewer")})
		if err != nil || string(got) != want {
			t.Fatalf("GET answer of %q (%v):\n got %s\nwant %s", req.ID, err, got, want)
		}
		enc.Release()
		refPage.SignatureRequests = append(refPage.SignatureRequests, refView(req))
	}
	for _, lists := range [][2]any{
		{signatureRequestListResponse{ListInfo: api.NewListInfo(0, 1, 20)},
			refListResponse{SignatureRequests: []refResponse{}, ListInfo: api.NewListInfo(0, 1, 20)}},
		{signatureRequestListResponse{Rows: rows[:20], ListInfo: api.NewListInfo(401, 3, 20)},
			refListResponse{SignatureRequests: refPage.SignatureRequests[:20], ListInfo: api.NewListInfo(401, 3, 20)}},
	} {
		want := mustMarshal(t, lists[1])
		enc := jsonenc.Get()
		got, err := enc.Encode(lists[0])
		if err != nil || string(got) != want {
			t.Fatalf("list page (%v):\n got %s\nwant %s", err, got, want)
		}
		enc.Release()
		if got := mustMarshal(t, lists[0]); got != want {
			t.Fatalf("list page through json.Marshal:\n got %s\nwant %s", got, want)
		}
	}
}

// TestViewRefusesNoRequest: a view without a row is an error, never a
// panic or an answer.
func TestViewRefusesNoRequest(t *testing.T) {
	if _, err := json.Marshal(Response{}); err == nil || !strings.Contains(err.Error(), "no signature request") {
		t.Fatalf("empty view: %v", err)
	}
}

// TestViewInvalidNumberIsAnError: a value json cannot write fails the
// view as it failed encoding/json.
func TestViewInvalidNumberIsAnError(t *testing.T) {
	req := viewRows(2, 1)[0]
	req.ResponseData = []state.ResponseValue{{Value: json.Number("not a number")}}
	if _, err := json.Marshal(refView(req)); err == nil {
		t.Fatal("reference encoded an invalid number")
	}
	if _, err := json.Marshal(View(req, "")); err == nil {
		t.Fatal("view encoded an invalid number")
	}
}

// FuzzViewWritesReferenceBytes holds the writer to the reference on rows
// made from any seed.
func FuzzViewWritesReferenceBytes(f *testing.F) {
	f.Add(uint64(3))
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, req := range viewRows(seed, 5) {
			want := mustMarshal(t, refView(req))
			if got := mustMarshal(t, View(req, "")); got != want {
				t.Fatalf("seed %d, view of %q:\n got %s\nwant %s", seed, req.ID, got, want)
			}
			if got, err := View(req, "").AppendJSON(nil); err != nil || string(got) != want {
				t.Fatalf("seed %d, appended view of %q (%v):\n got %s\nwant %s", seed, req.ID, err, got, want)
			}
		}
	})
}
