package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The binary on its own real clock (as `go run ./cmd/signsandbox` starts)
// records the happy path with --record: a request sent, processed, viewed,
// signed, its final copy prepared and downloaded, the event and e-mail
// logs read, every call at whatever wall time it happened. The binary's
// own `run` then replays the file byte for byte, and the file holds none
// of the world's keys. The flow waits on conditions (it polls until
// processing and preparation are done): how many polls it takes varies
// from run to run, and each is a recorded step like any other.
func TestBinaryRecordsARealClockSessionThatReplaysExactly(t *testing.T) {
	bin := testBinary(t)
	path := filepath.Join(t.TempDir(), "session.yaml")
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-level", "warn", "--offline", "--record", path)
	cmd.Env = append(os.Environ(), "SIGNSANDBOX_CLOCK=", "SIGNSANDBOX_KEEP_CREDENTIALS=")
	srv := startBinary(t, cmd)
	base, key := srv.base, srv.key

	call := func(method, path, body string) (int, []byte) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.SetBasicAuth(key, "")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, b
	}
	must := func(method, path, body string) []byte {
		t.Helper()
		code, b := call(method, path, body)
		require.Less(t, code, 300, "%s %s: %s", method, path, b)
		return b
	}
	// until polls a call until it answers want (a condition, not a wait
	// for some time to pass).
	until := func(want int, method, path string) []byte {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			code, b := call(method, path, "")
			if code == want {
				return b
			}
			require.True(t, time.Now().Before(deadline), "%s %s still answers %d: %s", method, path, code, b)
			time.Sleep(20 * time.Millisecond)
		}
	}

	must(http.MethodPatch, "/_sandbox/config", `{"send_processing_delay": "300ms", "file_preparation_delay": "700ms"}`)
	sent := string(must(http.MethodPost, "/v3/signature_request/send", `{"title": "Wall clock", "test_mode": true,
		"file_urls": ["https://example.com/doc.pdf"],
		"signers": [{"name": "Ann", "email_address": "ann@example.com", "order": 0}, {"name": "Ben", "email_address": "ben@example.com", "order": 1}]}`))
	id := between(sent, `"signature_request_id":"`, `"`)
	sigs := strings.Split(sent, `"signature_id":"`)
	require.Len(t, sigs, 3, sent)
	ann, ben := sigs[1][:32], sigs[2][:32]
	for !strings.Contains(string(must(http.MethodGet, "/_sandbox/callbacks?event_type=signature_request_sent&object_id="+id, "")), id) {
		time.Sleep(20 * time.Millisecond)
	}
	must(http.MethodPost, "/_sandbox/signatures/"+ann+"/view", "")
	must(http.MethodPost, "/_sandbox/signatures/"+ann+"/sign", "")
	must(http.MethodPost, "/_sandbox/signatures/"+ben+"/sign", "")
	until(http.StatusOK, http.MethodGet, "/v3/signature_request/files/"+id)
	must(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=zip", "")
	must(http.MethodGet, "/v3/signature_request/"+id, "")
	must(http.MethodGet, "/_sandbox/callbacks", "")
	must(http.MethodGet, "/_sandbox/emails", "")
	must(http.MethodGet, "/_sandbox/clock", "")

	srv.stop(t, 30*time.Second)
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "mode: real")
	assert.Contains(t, string(doc), "request: GET /v3/signature_request/files/"+id)
	assert.NotContains(t, string(doc), key)
	assert.NotContains(t, string(doc), base64.StdEncoding.EncodeToString([]byte(key+":")))

	var out bytes.Buffer
	replay := exec.Command(bin, "run", path)
	replay.Stdout, replay.Stderr = &out, &out
	require.NoError(t, replay.Run(), "%s", out.String())
	assert.Contains(t, out.String(), "1 scenario file(s): 1 passed, 0 failed")
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}
