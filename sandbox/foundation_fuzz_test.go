package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// bugLog collects the log records that mean a bug: a recovered panic or an
// error that was not an API error.
type bugLog struct {
	mu   sync.Mutex
	msgs []string
}

func (b *bugLog) Enabled(context.Context, slog.Level) bool { return true }
func (b *bugLog) WithAttrs([]slog.Attr) slog.Handler       { return b }
func (b *bugLog) WithGroup(string) slog.Handler            { return b }
func (b *bugLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "panic" && r.Message != "unexpected error" {
		return nil
	}
	var sb strings.Builder
	sb.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		sb.WriteString(" " + a.Key + "=" + a.Value.String())
		return true
	})
	b.mu.Lock()
	b.msgs = append(b.msgs, sb.String())
	b.mu.Unlock()
	return nil
}

func (b *bugLog) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.msgs
	b.msgs = nil
	return m
}

// fuzzSandbox is one sandbox per fuzz worker, renewed every so many inputs
// so that state (worlds, objects) does not pile up; building one per input
// would cost more than the request.
type fuzzSandbox struct {
	sb   *sandbox.Sandbox
	key  string
	bugs *bugLog
	uses int
}

var fuzzSB fuzzSandbox

func (f *fuzzSandbox) get(t *testing.T) *fuzzSandbox {
	if f.sb == nil || f.uses >= 100 {
		if f.sb != nil {
			f.sb.Close()
		}
		f.bugs = &bugLog{}
		sb, err := sandbox.New(sandbox.WithLogger(slog.New(f.bugs)), sandbox.WithOfflineFiles())
		if err != nil {
			t.Fatal(err)
		}
		f.sb, f.key, f.uses = sb, sb.DefaultAPIKey(), 0
	}
	f.uses++
	return f
}

// fuzzSeeds are requests that reach every kind of route: the captured SDK
// requests, each official operation with a placeholder for its parameters,
// and the control plane.
func fuzzSeeds(f *testing.F) {
	add := func(method, path, headers string, auth uint8, body string) {
		f.Add(method, path, headers, auth, []byte(body))
	}
	for _, op := range sandbox.Operations() {
		p := op.Path
		for strings.Contains(p, "{") {
			i, j := strings.Index(p, "{"), strings.Index(p, "}")
			p = p[:i] + "0123456789abcdef0123456789abcdef01234567" + p[j+1:]
		}
		prefix := sandbox.APIPrefix
		add(op.Method, prefix+p, "Content-Type: application/json", 1, `{}`)
	}
	for _, p := range []string{"/health", "/worlds", "/world", "/clock", "/clock/advance", "/reset", "/state", "/config", "/api_keys", "/oauth/authorize"} {
		add(http.MethodGet, sandbox.ControlPrefix+p, "", 1, "")
		add(http.MethodPost, sandbox.ControlPrefix+p, "Content-Type: application/json", 1, `{"seconds":1,"clock":"fake"}`)
	}
	add(http.MethodPut, "/v3/account", "Content-Type: application/x-www-form-urlencoded", 1, "locale=fr-FR&callback_url=http%3A%2F%2Fx")
	add(http.MethodPost, "/v3/signature_request/send", "Content-Type: multipart/form-data; boundary=XYZ", 1,
		"--XYZ\r\nContent-Disposition: form-data; name=\"signers\"\r\n\r\n[{\"name\":\"A\",\"email_address\":\"a@x.com\"}]\r\n--XYZ--\r\n")
	add(http.MethodGet, "/v3/account", "Authorization: Bearer nope", 3, "")
	add(http.MethodPost, "/oauth/token?refresh", "Content-Type: application/json", 0, `{"grant_type":"refresh_token","refresh_token":"x"}`)

	p := filepath.Join(filepath.Dir(conformance.Path()), "node-sdk-captured-requests.json")
	raw, err := os.ReadFile(p)
	if err != nil {
		return
	}
	var caps []struct {
		Method  string            `json:"method"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	}
	if json.Unmarshal(raw, &caps) != nil {
		return
	}
	for _, c := range caps {
		if c.Method == "" {
			continue
		}
		var hs []string
		for k, v := range c.Headers {
			if k != "authorization" && k != "content-length" {
				hs = append(hs, k+": "+v)
			}
		}
		add(c.Method, c.URL, strings.Join(hs, "\n"), 1, c.Body)
	}
}

// FuzzRouter sends arbitrary requests through a Sandbox in-process. The
// invariant is the product bar: no 5xx, no panic, no error that is not an
// API error, and every 4xx in the official error envelope.
func FuzzRouter(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, method, path, headers string, auth uint8, body []byte) {
		req, err := http.NewRequest(method, "http://sandbox.test"+path, bytes.NewReader(body))
		if err != nil || req.URL.Host != "sandbox.test" {
			return // not a request a client could send
		}
		for _, line := range strings.Split(headers, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && k != "" {
				req.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
			}
		}
		fz := fuzzSB.get(t)
		switch auth % 4 {
		case 1:
			req.SetBasicAuth(fz.key, "")
		case 2:
			req.SetBasicAuth("not-a-key", "")
		}
		// Long-polling control calls end with the request's context.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req = req.WithContext(ctx)

		rec := httptest.NewRecorder()
		fz.sb.ServeHTTP(rec, req)
		if bugs := fz.bugs.take(); len(bugs) > 0 {
			t.Fatalf("%s %s: %s", method, path, strings.Join(bugs, "\n"))
		}
		if rec.Code >= 500 {
			t.Fatalf("%s %s answered %d: %s", method, path, rec.Code, rec.Body.String())
		}
		if rec.Code >= 400 {
			checkEnvelope(t, method+" "+path, rec)
		}
	})
}

// checkEnvelope asserts the official error shape of a 4xx answer.
func checkEnvelope(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: %d with Content-Type %q", what, rec.Code, ct)
	}
	var e struct {
		Error *struct {
			Msg  *string `json:"error_msg"`
			Name *string `json:"error_name"`
			Path *string `json:"error_path"`
		} `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error == nil || e.Error.Name == nil || *e.Error.Name == "" || e.Error.Msg == nil {
		t.Fatalf("%s: %d without the official error envelope (%v): %s", what, rec.Code, err, rec.Body.String())
	}
}
