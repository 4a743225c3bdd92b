package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAllowOutboundFlag(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	c, err := parseServeConfig([]string{"--allow-outbound", "files.internal, 10.1.0.0/16,private,*.corp.example"}, getenv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"files.internal", "10.1.0.0/16", "private", "*.corp.example"}, c.AllowOutbound)

	env["SIGNSANDBOX_ALLOW_OUTBOUND"] = "fd00::/8"
	c, err = parseServeConfig(nil, getenv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"fd00::/8"}, c.AllowOutbound)

	for _, bad := range []string{"http://files.internal", "files.internal:8080", "169.254.169.254", "fe80::/64"} {
		_, err := parseServeConfig([]string{"--allow-outbound", bad}, func(string) string { return "" }, io.Discard)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "--allow-outbound: ", bad)
	}
}

// outboundSecret is what the machine's internal HTTP server holds.
const outboundSecret = "INTERNAL-SECRET-TOKEN-42"

// TestBinaryOutboundRules builds the binary and runs the attack of issue
// 29 against it: a server with an admin token is given a file URL and a
// callback URL on this machine's loopback, where a server holds a secret.
// It connects to neither, the request ends in error_file, the callback log
// says "destination not allowed", and no answer nor its log holds the
// secret. The same server with --allow-outbound localhost, and one
// without an admin token, fetch the file and deliver the callback.
func TestBinaryOutboundRules(t *testing.T) {
	bin := testBinary(t)

	var conns atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	internal := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/cb" {
				_, _ = io.WriteString(w, "Hello API Event Received")
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, outboundSecret)
		}),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				conns.Add(1)
			}
		},
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() { _ = internal.Serve(ln) }()
	t.Cleanup(func() { _ = internal.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	t.Run("team server", func(t *testing.T) {
		srv := startOutboundBinary(t, bin, []string{"SIGNSANDBOX_ADMIN_TOKEN=outbound-test-token"})
		for _, u := range []string{
			"http://127.0.0.1:" + port + "/secret.txt",
			"http://localhost:" + port + "/secret.txt",
			"http://[::ffff:127.0.0.1]:" + port + "/secret.txt",
			"http://169.254.169.254/latest/meta-data/",
		} {
			status, pdf := srv.sendFileURL(t, u)
			assert.Equal(t, "error_file", status, u)
			assert.NotContains(t, string(pdf), outboundSecret)
		}
		log := srv.setCallbackAndLog(t, "http://localhost:"+port+"/cb")
		assert.Contains(t, log, "destination not allowed")
		assert.NotContains(t, log, "\"delivered\":true")
		for name, body := range map[string]string{
			"callback log": log,
			"state":        string(srv.get(t, "/_sandbox/state")),
			"server log":   srv.stop(t, 15*time.Second),
		} {
			assert.NotContains(t, body, outboundSecret, name)
		}
		assert.Zero(t, conns.Load(), "the binary connected to the internal server")
	})

	t.Run("allow-outbound", func(t *testing.T) {
		srv := startOutboundBinary(t, bin, []string{"SIGNSANDBOX_ADMIN_TOKEN=outbound-test-token"}, "--allow-outbound", "localhost")
		status, _ := srv.sendFileURL(t, "http://localhost:"+port+"/secret.txt")
		assert.Equal(t, "awaiting_signature", status)
		status, _ = srv.sendFileURL(t, "http://127.0.0.1:"+port+"/secret.txt")
		assert.Equal(t, "error_file", status, "only the name was allowed")
		assert.Contains(t, srv.setCallbackAndLog(t, "http://localhost:"+port+"/cb"), "\"delivered\":true")
		srv.stop(t, 15*time.Second)
	})

	t.Run("local sandbox", func(t *testing.T) {
		srv := startOutboundBinary(t, bin, nil)
		status, _ := srv.sendFileURL(t, "http://127.0.0.1:"+port+"/secret.txt")
		assert.Equal(t, "awaiting_signature", status)
		assert.Contains(t, srv.setCallbackAndLog(t, "http://127.0.0.1:"+port+"/cb"), "\"delivered\":true")
		srv.stop(t, 15*time.Second)
	})
}

// startOutboundBinary starts the binary on a fake clock with env and args.
func startOutboundBinary(t *testing.T, bin string, env []string, args ...string) *runningBinary {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--clock", "fake", "--log-level", "info"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return startBinary(t, cmd)
}

// do makes one call with the default world's key.
func (s *runningBinary) do(t *testing.T, method, path, contentType string, body []byte) []byte {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, bytes.NewReader(body))
	require.NoError(t, err)
	req.SetBasicAuth(s.key, "")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Less(t, resp.StatusCode, 500, "%s %s: %s", method, path, b)
	return b
}

func (s *runningBinary) get(t *testing.T, path string) []byte {
	return s.do(t, http.MethodGet, path, "", nil)
}

// sendFileURL sends a request with one file URL, lets its files be
// prepared, and answers its first signer's status and its merged PDF (or
// the answer in its place).
func (s *runningBinary) sendFileURL(t *testing.T, u string) (string, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("test_mode", "1")
	_ = mw.WriteField("signers[0][name]", "Jack")
	_ = mw.WriteField("signers[0][email_address]", "jack@example.com")
	_ = mw.WriteField("file_urls[0]", u)
	require.NoError(t, mw.Close())
	var sent struct {
		SignatureRequest struct {
			ID string `json:"signature_request_id"`
		} `json:"signature_request"`
	}
	b := s.do(t, http.MethodPost, "/v3/signature_request/send", mw.FormDataContentType(), body.Bytes())
	require.NoError(t, json.Unmarshal(b, &sent), "%s", b)
	id := sent.SignatureRequest.ID
	require.NotEmpty(t, id, "%s", b)
	s.do(t, http.MethodPost, "/_sandbox/clock/advance", "application/json", []byte(`{"seconds": 10}`))
	var got struct {
		SignatureRequest struct {
			Signatures []struct {
				Status string `json:"status_code"`
			} `json:"signatures"`
		} `json:"signature_request"`
	}
	b = s.get(t, "/v3/signature_request/"+id)
	require.NoError(t, json.Unmarshal(b, &got), "%s", b)
	require.NotEmpty(t, got.SignatureRequest.Signatures, "%s", b)
	return got.SignatureRequest.Signatures[0].Status, s.get(t, "/v3/signature_request/files/"+id)
}

// setCallbackAndLog sets the account's callback URL, waits for the
// callback_test attempt and answers the callback log.
func (s *runningBinary) setCallbackAndLog(t *testing.T, u string) string {
	t.Helper()
	s.do(t, http.MethodPut, "/v3/account", "application/json", []byte(`{"callback_url": "`+u+`"}`))
	s.do(t, http.MethodPost, "/_sandbox/callbacks/wait", "application/json", []byte(`{"timeout": "10s"}`))
	return string(s.get(t, "/_sandbox/callbacks?event_type=callback_test"))
}
