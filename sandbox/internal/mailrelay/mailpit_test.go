package mailrelay_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail/mailtest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// mailpitEnv names the Mailpit binary the relay's test runs against
// (.ci/run installs github.com/axllent/mailpit and sets it). Without it
// the test looks for mailpit on the PATH.
const mailpitEnv = "SIGNSANDBOX_TEST_MAILPIT"

// mailpit is a Mailpit server this test started on loopback ports.
type mailpit struct {
	SMTP, API string
}

// freePort answers a loopback address whose port was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// mailpitBinary answers the Mailpit to run: SIGNSANDBOX_TEST_MAILPIT,
// which must exist when set (CI sets it, and must not skip the test for a
// wrong path), or else mailpit on the PATH; the test skips with neither.
func mailpitBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv(mailpitEnv); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("%s=%s: %v", mailpitEnv, bin, err)
		}
		return bin
	}
	bin, err := exec.LookPath("mailpit")
	if err != nil {
		t.Skipf("no Mailpit: the relay's test against a real mail server needs its binary on the PATH or in %s "+
			"(go install github.com/axllent/mailpit@v1.33.1; .ci/run installs it and runs this test)", mailpitEnv)
	}
	return bin
}

// startMailpit starts Mailpit on loopback only, with no version check and
// no reverse DNS lookup of the client (nothing reaches the network), and
// stops it when the test ends.
func startMailpit(t *testing.T) *mailpit {
	t.Helper()
	bin := mailpitBinary(t)
	mp := &mailpit{SMTP: freePort(t), API: freePort(t)}
	var out bytes.Buffer
	cmd := exec.Command(bin, "--smtp", mp.SMTP, "--listen", mp.API, "--disable-version-check", "--smtp-disable-rdns",
		"--database", filepath.Join(t.TempDir(), "mailpit.db"))
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("mailpit's log:\n%s", out.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := http.Get("http://" + mp.API + "/readyz")
		if err == nil {
			_ = r.Body.Close()
			if r.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailpit did not start: %v\n%s", err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return mp
}

// get reads one of Mailpit's API answers.
func (mp *mailpit) get(t *testing.T, path string) []byte {
	t.Helper()
	r, err := http.Get("http://" + mp.API + path)
	require.NoError(t, err)
	defer r.Body.Close()
	body, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode, "%s: %s", path, body)
	return body
}

// mailpitSummary is a message as Mailpit lists it.
type mailpitSummary struct {
	ID        string `json:"ID"`
	MessageID string `json:"MessageID"`
}

// mailpitMessage is a message as Mailpit shows it to a person.
type mailpitMessage struct {
	From    struct{ Name, Address string }
	To      []struct{ Name, Address string }
	ReplyTo []struct{ Name, Address string }
	Subject string
	Date    time.Time
	Text    string
	HTML    string
}

// TestSMTPRelayToMailpit: a sandbox relaying to a real Mailpit delivers
// every e-mail of every kind, and Mailpit, read back through its own API,
// holds each as the outbox serves it: the same header fields, the same
// text and HTML parts, and the same sender, recipients, subject and date
// as Mailpit's own parser reads them.
func TestSMTPRelayToMailpit(t *testing.T) {
	mp := startMailpit(t)
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles(), sandbox.WithSMTPRelay(mp.SMTP))
	apitest.SendEveryEmailKind(t, srv)
	mails := waitEmails(t, srv, "every e-mail delivered to Mailpit", func(es []sandboxtest.Email) bool {
		return len(es) > 0 && allDelivered(len(es))(es)
	})

	var list struct {
		Total    int              `json:"total"`
		Messages []mailpitSummary `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(mp.get(t, fmt.Sprintf("/api/v1/messages?limit=%d", len(mails)+10)), &list))
	require.Equal(t, len(mails), list.Total, "each e-mail once")
	byMessageID := map[string]string{}
	for _, m := range list.Messages {
		byMessageID["<"+strings.Trim(m.MessageID, "<>")+">"] = m.ID
	}
	for _, e := range mails {
		id, ok := byMessageID[e.MessageID]
		require.True(t, ok, "Mailpit holds %s (%s)", e.MessageID, e.Kind)
		outbox, err := mailtest.Parse(srv.EmailMessage(e.ID))
		require.NoError(t, err)
		raw := mp.get(t, "/api/v1/message/"+id+"/raw")
		// Mailpit adds the trace fields a receiving server adds
		// (Return-Path, Received) above the message it got, byte for byte.
		sent := srv.EmailMessage(e.ID)
		require.True(t, bytes.HasSuffix(raw, sent), "%s: Mailpit holds the outbox's bytes:\n%s", e.Kind, raw)
		trace, err := mailtest.Fields(raw[:len(raw)-len(sent)])
		require.NoError(t, err)
		for _, name := range trace {
			assert.Contains(t, []string{"Return-Path", "Received"}, name, "%s: only trace fields come before the message", e.Kind)
		}
		got, err := mailtest.Parse(raw)
		require.NoError(t, err, "%s", raw)
		for name, values := range outbox.Header {
			assert.Equal(t, values, got.Header[name], "%s: header %s", e.Kind, name)
		}
		assert.Equal(t, "<noreply@mail.signsandbox.test>", got.Header.Get("Return-Path"), "the envelope's sender")
		assert.Equal(t, outbox.Text, got.Text, e.Kind)
		assert.Equal(t, outbox.HTML, got.HTML, e.Kind)

		var shown mailpitMessage
		require.NoError(t, json.Unmarshal(mp.get(t, "/api/v1/message/"+id), &shown))
		from, err := outbox.Address("From")
		require.NoError(t, err)
		assert.Equal(t, from.Name, shown.From.Name)
		assert.Equal(t, from.Address, shown.From.Address)
		require.Len(t, shown.To, 1)
		assert.Equal(t, e.To, shown.To[0].Address)
		assert.Equal(t, e.Subject, shown.Subject)
		assert.Equal(t, e.SentAt, shown.Date.Unix())
		if reply := outbox.Header.Get("Reply-To"); reply != "" {
			require.Len(t, shown.ReplyTo, 1, e.Kind)
			r, err := outbox.Address("Reply-To")
			require.NoError(t, err)
			assert.Equal(t, r.Address, shown.ReplyTo[0].Address)
		}
		assert.Equal(t, strings.TrimSpace(outbox.Text), strings.TrimSpace(strings.ReplaceAll(shown.Text, "\r\n", "\n")), e.Kind)
		if e.Link != "" {
			assert.Contains(t, shown.HTML, strings.ReplaceAll(e.Link, "&", "&amp;"), e.Kind)
		}
	}
}
