package sandbox_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// logBuffer collects log lines from the sandbox's goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines answers the logged lines that contain every one of parts.
func (b *logBuffer) lines(parts ...string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, l := range strings.Split(b.buf.String(), "\n") {
		ok := l != ""
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

// loggedServer is a scenario-ready test server logging at level into the
// buffer it answers.
func loggedServer(t *testing.T, level slog.Level) (*sandboxtest.Server, *logBuffer) {
	t.Helper()
	buf := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: level}))
	return apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithLogger(logger)), buf
}

// loggedStory delivers callbacks (callback_test, signature_request_sent) to
// a receiver that acknowledges, then callback_test to one that fails, and
// fires a scenario rule.
func loggedStory(t *testing.T, srv *sandboxtest.Server) (okURL, badURL string) {
	t.Helper()
	ok := sandboxtest.NewReceiver(t)
	apitest.SetCallbackURL(t, srv, srv.APIKey, ok.URL)
	apitest.QuickSend(t, srv, srv.APIKey, "Logged", "a@example.com")
	srv.Advance(time.Minute) // processing: signature_request_sent
	srv.Control(http.MethodPost, "/callbacks/wait", nil, nil)

	bad := sandboxtest.NewReceiver(t)
	bad.Fail()
	apitest.SetCallbackURL(t, srv, srv.APIKey, bad.URL)
	srv.Control(http.MethodPost, "/callbacks/wait", nil, nil)

	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: logged\nrules:\n  - name: busy\n    match: {operation: teamGet}\n    respond: {status: 503}\n")
	require.Equal(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/team", nil).Status)
	return ok.URL, bad.URL
}

// At debug level the sandbox logs what became of each callback attempt
// (world, event type, URL, status or error) and each scenario rule that
// fired; the default info level keeps quiet about both, and only says
// when a delivery is given up.
func TestDebugLogsCallbackAttemptsAndRules(t *testing.T) {
	srv, buf := loggedServer(t, slog.LevelDebug)
	okURL, badURL := loggedStory(t, srv)

	delivered := buf.lines("msg=\"callback delivered\"", "world=default", "url="+okURL, "status=200")
	assert.NotEmpty(t, delivered, "a delivered attempt is logged")
	assert.NotEmpty(t, buf.lines("msg=\"callback delivered\"", "event_type=signature_request_sent"), "%s", strings.Join(buf.lines("callback"), "\n"))
	failed := buf.lines("msg=\"callback attempt failed\"", "world=default", "url="+badURL, "status=500", "err=")
	assert.NotEmpty(t, failed, "a failed attempt is logged with its status and error")
	fired := buf.lines("msg=\"scenario rule fired\"", "world=default", "rule=logged#0", "name=busy", "effect=respond", "fired=1")
	assert.Len(t, fired, 1)

	quiet, qbuf := loggedServer(t, slog.LevelInfo)
	_, badURL = loggedStory(t, quiet)
	assert.Empty(t, qbuf.lines("callback"), "no attempt lines at info")
	assert.Empty(t, qbuf.lines("scenario rule"), "no rule lines at info")

	// A delivery given up after its last retry is worth an info line.
	quiet.Advance(72 * time.Hour)
	quiet.Control(http.MethodPost, "/callbacks/wait", nil, nil)
	assert.Len(t, qbuf.lines("level=INFO", "msg=\"callback delivery given up\"", "url="+badURL, "attempt=13", "status=500"), 1)
	assert.Len(t, qbuf.lines("callback"), 1)
}
