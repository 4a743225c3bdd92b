package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

var sigreqTestStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func sigreqTestSandbox(t *testing.T) *Sandbox {
	t.Helper()
	s, err := New(WithFakeClock(sigreqTestStart))
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// sigreqTestCreate stores a request through sigreq.Create, the
// entry point templates, bulk send and drafts use.
func sigreqTestCreate(t *testing.T, s *Sandbox, mutate func(spec *sigreq.Spec)) string {
	t.Helper()
	var id string
	require.NoError(t, s.host.DefaultWorld().Store.Update(func(tx *state.Txn) error {
		acct, err := state.AccountByEmail(tx, "owner@sandbox.example")
		if err != nil {
			return err
		}
		spec := &sigreq.Spec{
			Requester: acct, TestMode: true, Title: "Internal",
			Signers:   []model.Signature{{Slot: 0, Name: "Ann", Email: "ann@example.com"}},
			Documents: []model.Document{{Name: "a.pdf"}},
			BaseURL:   "http://sandbox.test", WorldURL: "http://sandbox.test/_sandbox/w/default",
		}
		if mutate != nil {
			mutate(spec)
		}
		req, err := sigreq.Create(tx, spec)
		if err != nil {
			return err
		}
		id = req.ID
		return nil
	}))
	return id
}

func sigreqTestCall(t *testing.T, s *Sandbox, method, path string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.SetBasicAuth(s.DefaultAPIKey(), "")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

func sigreqTestEvents(t *testing.T, s *Sandbox, id string) []string {
	t.Helper()
	rows, err := state.All[model.Event](s.host.DefaultWorld().Store.Read(), state.TableEvents, state.IndexSeq)
	require.NoError(t, err)
	var out []string
	for _, e := range rows {
		if e.ObjectID == id {
			out = append(out, e.Type)
		}
	}
	return out
}

// TestHoldAndRelease: a held request (unclaimed drafts with hold_request)
// waits on_hold_by_requester until release_hold sends it.
func TestHoldAndRelease(t *testing.T) {
	s := sigreqTestSandbox(t)
	id := sigreqTestCreate(t, s, func(spec *sigreq.Spec) { spec.Hold = true })
	_, err := s.host.DefaultWorld().Advance(2 * time.Second)
	require.NoError(t, err)
	code, body := sigreqTestCall(t, s, http.MethodGet, "/v3/signature_request/"+id)
	require.Equal(t, http.StatusOK, code, "%v", body)
	sig := body["signature_request"].(map[string]any)["signatures"].([]any)[0].(map[string]any)
	assert.Equal(t, "on_hold_by_requester", sig["status_code"])
	assert.Equal(t, []string{notify.TypeRequestPrepared}, sigreqTestEvents(t, s, id), "processing reports the held request")

	code, body = sigreqTestCall(t, s, http.MethodPost, "/v3/signature_request/release_hold/"+id)
	require.Equal(t, http.StatusOK, code, "%v", body)
	sig = body["signature_request"].(map[string]any)["signatures"].([]any)[0].(map[string]any)
	assert.Equal(t, "awaiting_signature", sig["status_code"])
	assert.Equal(t, []string{notify.TypeRequestPrepared, notify.TypeRequestSent}, sigreqTestEvents(t, s, id))
	mails, err := state.All[model.Email](s.host.DefaultWorld().Store.Read(), state.TableEmails, state.IndexSeq)
	require.NoError(t, err)
	require.Len(t, mails, 1)
	assert.Equal(t, "ann@example.com", mails[0].To)

	code, _ = sigreqTestCall(t, s, http.MethodPost, "/v3/signature_request/release_hold/"+id)
	assert.Equal(t, http.StatusBadRequest, code)
}

// TestProcessingFaults: a document that cannot be used, or a failure a
// scenario injects, ends processing in error_file with file_error.
func TestProcessingFaults(t *testing.T) {
	s := sigreqTestSandbox(t)
	bad := sigreqTestCreate(t, s, func(spec *sigreq.Spec) {
		spec.Documents = []model.Document{{Name: "broken.pdf", Error: "the file is not a PDF"}}
	})
	prevFault := s.host.Reg().ProcessFault
	s.host.Reg().ProcessFault = func(_ *api.Host, _ *world.World, _ *state.Txn, req *model.SignatureRequest) *api.ProcessFailure {
		if req.Title == "Faulty" {
			return &api.ProcessFailure{StatusCode: model.SigErrorFile, Message: "injected conversion failure"}
		}
		return nil
	}
	t.Cleanup(func() { s.host.Reg().ProcessFault = prevFault })
	faulty := sigreqTestCreate(t, s, func(spec *sigreq.Spec) { spec.Title = "Faulty" })
	fine := sigreqTestCreate(t, s, nil)
	_, err := s.host.DefaultWorld().Advance(2 * time.Second)
	require.NoError(t, err)
	for _, id := range []string{bad, faulty} {
		code, body := sigreqTestCall(t, s, http.MethodGet, "/v3/signature_request/"+id)
		require.Equal(t, http.StatusOK, code)
		sr := body["signature_request"].(map[string]any)
		assert.Equal(t, true, sr["has_error"])
		sig := sr["signatures"].([]any)[0].(map[string]any)
		assert.Equal(t, "error_file", sig["status_code"])
		assert.NotEmpty(t, sig["error"])
		assert.Equal(t, []string{notify.TypeFileError}, sigreqTestEvents(t, s, id))
	}
	assert.Equal(t, []string{notify.TypeRequestSent}, sigreqTestEvents(t, s, fine))
}

// TestCreateWithGivenID: a spec with an ID (an unclaimed draft's
// signature_request_id) creates the request under that id, and a second
// request cannot take an id already used.
func TestCreateWithGivenID(t *testing.T) {
	s := sigreqTestSandbox(t)
	const given = "0123456789abcdef0123456789abcdef01234567"
	id := sigreqTestCreate(t, s, func(spec *sigreq.Spec) { spec.ID = given })
	assert.Equal(t, given, id)
	code, body := sigreqTestCall(t, s, http.MethodGet, "/v3/signature_request/"+given)
	require.Equal(t, http.StatusOK, code, "%v", body)
	assert.Equal(t, given, body["signature_request"].(map[string]any)["signature_request_id"])

	err := s.host.DefaultWorld().Store.Update(func(tx *state.Txn) error {
		acct, err := state.AccountByEmail(tx, "owner@sandbox.example")
		if err != nil {
			return err
		}
		_, err = sigreq.Create(tx, &sigreq.Spec{ID: given, Requester: acct, TestMode: true,
			Signers: []model.Signature{{Name: "Bo", Email: "bo@example.com"}}})
		return err
	})
	assert.ErrorContains(t, err, "already exists")

	other := sigreqTestCreate(t, s, nil)
	assert.NotEqual(t, given, other, "without an ID the request gets a new one")
}

// TestEncodeSpecDropsID: a stored spec (drafts, bulk jobs) keeps neither
// the requester nor an ID, and its JSON has no ID key.
func TestEncodeSpecDropsID(t *testing.T) {
	raw, err := (&sigreq.Spec{ID: "x", Title: "T"}).Encode()
	require.NoError(t, err)
	assert.NotContains(t, string(raw), `"ID"`)
	spec, err := sigreq.DecodeSpec(raw)
	require.NoError(t, err)
	assert.Equal(t, "", spec.ID)
	assert.Equal(t, "T", spec.Title)
}
