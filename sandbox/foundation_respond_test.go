package sandbox

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// respond runs the response adapter on one handler result.
func respond(t *testing.T, s *Sandbox, c *api.Call, v any, err error) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	s.host.WriteResult(rec, c, v, err)
	return rec
}

// exactHeader returns the values of the header named exactly name. The rate
// headers are written with the official API's spelling (X-RateLimit-Limit),
// which Header.Get would look up canonicalized (X-Ratelimit-Limit).
func exactHeader(h http.Header, name string) []string { return h[name] }

func TestWriteResultShapes(t *testing.T) {
	s := optSandbox(t)
	rate := world.RateStatus{Limit: 100, Remaining: 99, Reset: 1735689660}
	c := &api.Call{Host: s.host, Rate: rate}

	rec := respond(t, s, c, map[string]any{"a": 1}, nil)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	assert.Equal(t, `{"a":1}`, rec.Body.String())
	assert.Equal(t, "7", rec.Header().Get("Content-Length"))
	assert.Equal(t, []string{"1735689660"}, rec.Header()["X-Ratelimit-Reset"], "written with the official spelling, not canonicalized")
	assert.Equal(t, []string{"99"}, exactHeader(rec.Header(), "X-RateLimit-Remaining"))

	rec = respond(t, s, c, api.WithStatus{Status: http.StatusCreated, Value: []int{1}}, nil)
	assert.Equal(t, http.StatusCreated, rec.Code)
	assert.Equal(t, `[1]`, rec.Body.String())

	rec = respond(t, s, c, api.EmptyOK(), nil)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Empty(t, rec.Body.String())
	assert.Equal(t, "0", rec.Header().Get("Content-Length"))
	assert.NotEmpty(t, exactHeader(rec.Header(), "X-RateLimit-Limit"))

	rec = respond(t, s, c, api.NoContent(), nil)
	assert.Equal(t, http.StatusNoContent, rec.Code)
	assert.Empty(t, rec.Header().Get("Content-Length"))

	rec = respond(t, s, c, &api.RawResponse{Status: http.StatusOK, ContentType: "application/pdf", Header: http.Header{"Content-Disposition": {"attachment"}}, Body: []byte("%PDF")}, nil)
	assert.Equal(t, "application/pdf", rec.Header().Get("Content-Type"))
	assert.Equal(t, "attachment", rec.Header().Get("Content-Disposition"))
	assert.Equal(t, "%PDF", rec.Body.String())

	rec = respond(t, s, c, &api.RawResponse{Status: http.StatusConflict, ContentType: "text/html", Body: []byte("x")}, nil)
	assert.Empty(t, exactHeader(rec.Header(), "X-RateLimit-Limit"), "non-2xx raw answers carry no rate headers")

	// No rate headers without a counted call (control plane).
	rec = respond(t, s, &api.Call{Host: s.host}, map[string]any{}, nil)
	assert.Empty(t, exactHeader(rec.Header(), "X-RateLimit-Limit"))
	rec = respond(t, s, nil, map[string]any{}, nil)
	assert.Equal(t, http.StatusOK, rec.Code)
}

func TestWarningsAreSpliced(t *testing.T) {
	s := optSandbox(t)
	c := &api.Call{Host: s.host}
	c.Warn("parameter_ignored", "ignored x")
	c.Warn("test_mode_only", "y")
	rec := respond(t, s, c, map[string]any{"account": map[string]any{"a": 1}}, nil)
	assert.JSONEq(t, `{"account":{"a":1},"warnings":[{"warning_msg":"ignored x","warning_name":"parameter_ignored"},{"warning_msg":"y","warning_name":"test_mode_only"}]}`, rec.Body.String())
	rec = respond(t, s, c, struct{}{}, nil)
	assert.JSONEq(t, `{"warnings":[{"warning_msg":"ignored x","warning_name":"parameter_ignored"},{"warning_msg":"y","warning_name":"test_mode_only"}]}`, rec.Body.String())
	rec = respond(t, s, c, []int{1}, nil)
	assert.Equal(t, `[1]`, rec.Body.String(), "only objects can carry warnings")
}

func TestErrorsBecomeTheEnvelope(t *testing.T) {
	var logs bytes.Buffer
	s := optSandbox(t, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	c := &api.Call{Host: s.host, Rate: world.RateStatus{Limit: 1}}
	rec := respond(t, s, c, nil, apierr.Badf("signers[0][name]", "bad"))
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.JSONEq(t, `{"error":{"error_msg":"bad","error_name":"bad_request","error_path":"signers[0][name]"}}`, rec.Body.String())
	assert.Empty(t, exactHeader(rec.Header(), "X-RateLimit-Limit"))

	// A plain error is a bug: logged, and still a 400 in the official shape.
	rec = respond(t, s, c, nil, errors.New("boom"))
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.Contains(t, rec.Body.String(), `"error_name":"bad_request"`)
	assert.Contains(t, logs.String(), "unexpected error")

	// A value that cannot be encoded is answered as an error, not a 500.
	rec = respond(t, s, c, map[string]any{"f": func() {}}, nil)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
}

func TestRecovererAnswersPanicsInTheEnvelope(t *testing.T) {
	var logs bytes.Buffer
	s := optSandbox(t, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	h := s.host.Recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("handler bug") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v3/account", nil))
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.Contains(t, rec.Body.String(), `"error_name":"bad_request"`)
	assert.Contains(t, logs.String(), "handler bug")

	abort := s.host.Recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	require.PanicsWithValue(t, http.ErrAbortHandler, func() {
		abort.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	}, "an aborted handler still aborts the connection")
}

// An operation of the route table without a handler answers 405
// method_not_supported naming itself, in the official envelope, and is
// listed as not implemented. Every operation has a handler today, so the
// test takes one away (no test of this package runs in parallel).
func TestNotImplementedOperationsAnswerTheEnvelope(t *testing.T) {
	const id = "accountVerify"
	s := optSandbox(t, withRegistry(func(r *api.Registry) {
		require.NotNil(t, r.Handlers[id])
		delete(r.Handlers, id)
	}))

	var op Operation
	for _, o := range s.host.Reg().Operations() {
		if o.ID == id {
			op = o
		}
	}
	require.Equal(t, id, op.ID)
	assert.False(t, op.Implemented)
	rec := optDo(t, s, s.DefaultAPIKey(), op.Method, api.APIPrefix+op.Path, `{"email_address":"owner@sandbox.example"}`)
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	assert.Contains(t, rec.Body.String(), `"error_name":"method_not_supported"`)
	assert.Contains(t, rec.Body.String(), id)
}
