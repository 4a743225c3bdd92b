package sigreq

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// getShape and listShape are SignatureRequestGetResponse and
// SignatureRequestListResponse made of the declared shape (views_shape.go).
type getShape struct {
	SignatureRequest requestShape `json:"signature_request"`
}

type listShape struct {
	SignatureRequests []requestShape       `json:"signature_requests"`
	ListInfo          api.ListInfoResponse `json:"list_info"`
}

// viewRows makes n requests from a seeded source, each field empty, set
// or set to text json escapes (HTML characters, line separators, invalid
// UTF-8), so that every branch of the writer meets the shape.
func viewRows(seed uint64, n int) []*model.SignatureRequest {
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
	phases := []string{model.PhaseProcessing, model.PhaseOnHold, model.PhaseSent, model.PhaseComplete,
		model.PhaseDeclined, model.PhaseExpired, model.PhaseError, model.PhaseCanceled}
	values := []any{nil, "", "text <b>", true, false, json.Number("12.5"), 3.25, map[string]any{"k": json.Number("1")}, []any{"a", nil}}
	var out []*model.SignatureRequest
	for i := range n {
		req := &model.SignatureRequest{
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
			req.CustomFields = append(req.CustomFields, model.CustomField{Name: text(), Type: []string{"text", "checkbox"}[rng.IntN(2)],
				Value: []string{"", "true", "1", "false", "x<y"}[rng.IntN(5)], Required: maybe(), APIID: text(), Editor: text()})
		}
		for range rng.IntN(3) {
			req.Attachments = append(req.Attachments, model.Attachment{ID: text(), SignerIndex: rng.IntN(12), Name: text(),
				Instructions: text(), Required: maybe(), UploadedAt: ts()})
		}
		for range rng.IntN(4) {
			v := model.ResponseValue{APIID: text(), SignatureID: text(), Name: text(), Type: text(), Required: maybe(),
				Value: values[rng.IntN(len(values))]}
			if maybe() {
				b := maybe()
				v.IsSigned = &b
			}
			req.ResponseData = append(req.ResponseData, v)
		}
		for range rng.IntN(4) {
			sg := model.Signature{ID: text(), GroupGUID: text(), Email: text(), Name: text(), Role: text(), Status: text(),
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
// written byte for byte as encoding/json writes their declared shape,
// through the answer encoder and through json.Marshal (events, bulk send
// jobs).
func TestViewWritesReferenceBytes(t *testing.T) {
	rows := viewRows(1, 400)
	var refPage listShape
	for _, req := range rows {
		want := mustMarshal(t, shapeOf(req))
		if got := mustMarshal(t, View(req, "viewer")); got != want {
			t.Fatalf("view of %q:\n got %s\nwant %s", req.ID, got, want)
		}
		// Events store the view as AppendJSON writes it (no json.Marshal
		// pass over it), after whatever the buffer held.
		if got, err := View(req, "viewer").AppendJSON([]byte("held")); err != nil || string(got) != "held"+want {
			t.Fatalf("appended view of %q (%v):\n got %s\nwant held%s", req.ID, err, got, want)
		}
		want = mustMarshal(t, getShape{SignatureRequest: shapeOf(req)})
		enc := jsonenc.Get()
		got, err := enc.Encode(signatureRequestGetResponse{SignatureRequest: View(req, "viewer")})
		if err != nil || string(got) != want {
			t.Fatalf("GET answer of %q (%v):\n got %s\nwant %s", req.ID, err, got, want)
		}
		enc.Release()
		refPage.SignatureRequests = append(refPage.SignatureRequests, shapeOf(req))
	}
	for _, lists := range [][2]any{
		{signatureRequestListResponse{ListInfo: api.NewListInfo(0, 1, 20)},
			listShape{SignatureRequests: []requestShape{}, ListInfo: api.NewListInfo(0, 1, 20)}},
		{signatureRequestListResponse{Rows: rows[:20], ListInfo: api.NewListInfo(401, 3, 20)},
			listShape{SignatureRequests: refPage.SignatureRequests[:20], ListInfo: api.NewListInfo(401, 3, 20)}},
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
	req.ResponseData = []model.ResponseValue{{Value: json.Number("not a number")}}
	if _, err := json.Marshal(shapeOf(req)); err == nil {
		t.Fatal("the shape encoded an invalid number")
	}
	if _, err := json.Marshal(View(req, "")); err == nil {
		t.Fatal("view encoded an invalid number")
	}
}

// FuzzViewWritesReferenceBytes holds the writer to the declared shape on
// rows made from any seed.
func FuzzViewWritesReferenceBytes(f *testing.F) {
	f.Add(uint64(3))
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, req := range viewRows(seed, 5) {
			want := mustMarshal(t, shapeOf(req))
			if got := mustMarshal(t, View(req, "")); got != want {
				t.Fatalf("seed %d, view of %q:\n got %s\nwant %s", seed, req.ID, got, want)
			}
			if got, err := View(req, "").AppendJSON(nil); err != nil || string(got) != want {
				t.Fatalf("seed %d, appended view of %q (%v):\n got %s\nwant %s", seed, req.ID, err, got, want)
			}
		}
	})
}
