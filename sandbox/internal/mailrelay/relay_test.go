package mailrelay_test

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail/mailtest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// waitEmails polls the outbox until settled accepts it (the relay works
// after commit, on its own goroutine) and answers it.
func waitEmails(t *testing.T, srv *sandboxtest.Server, what string, settled func([]sandboxtest.Email) bool) []sandboxtest.Email {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := srv.Emails()
		if settled(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox never got to %s: %+v", what, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// allDelivered: every e-mail of the outbox was delivered.
func allDelivered(n int) func([]sandboxtest.Email) bool {
	return func(es []sandboxtest.Email) bool {
		if len(es) < n {
			return false
		}
		for _, e := range es {
			if e.Delivery == nil || e.Delivery.State != "delivered" {
				return false
			}
		}
		return true
	}
}

// TestSMTPRelayDeliversTheOutbox: with a relay, every e-mail the world
// sends reaches the mail server once, in the order it was sent, as the
// exact message GET /_sandbox/emails/{id} shows, from the sandbox's
// sender to its recipient; the outbox shows each one delivered.
func TestSMTPRelayDeliversTheOutbox(t *testing.T) {
	sink := newSMTPSink(t)
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithSMTPRelay(sink.Addr))
	id, sigs := apitest.QuickSend(t, srv, srv.APIKey, "Relayed lease", "ann@example.com", "bob@example.com")
	srv.Advance(time.Minute)
	srv.SignerAction(sigs[0], "sign", map[string]any{})
	srv.SignerAction(sigs[1], "sign", map[string]any{})
	r := srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "newcomer@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	mails := waitEmails(t, srv, "every e-mail delivered", allDelivered(6))
	got := sink.Messages()
	require.Len(t, got, len(mails), "each e-mail once")
	for i, e := range mails {
		assert.Equal(t, 1, e.Delivery.Attempts, e.ID)
		assert.Equal(t, srv.Now().Unix(), e.Delivery.DeliveredAt, "on the world clock")
		assert.Equal(t, "noreply@mail.signsandbox.test", got[i].From)
		assert.Equal(t, []string{e.To}, got[i].To)
		assert.Equal(t, string(srv.EmailMessage(e.ID)), string(got[i].Data), "the relayed message is the outbox's, byte for byte")
		m, err := mailtest.Parse(got[i].Data)
		require.NoError(t, err)
		assert.Equal(t, e.MessageID, m.Get("Message-ID"))
		if e.SignatureRequestID != "" {
			assert.Equal(t, id, e.SignatureRequestID)
		}
	}
	var kinds []string
	for _, e := range mails {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []string{"signature_request", "signature_request", "completed", "completed", "completed", "team_invite"}, kinds)
}

// TestSMTPRelayRetriesOnTheWorldClock: a refusal for now (4xx) is tried
// again when the world clock reaches the next attempt; a refusal for good
// (5xx) fails the e-mail at once; each shows in the outbox with its
// attempts and the relay's reply.
func TestSMTPRelayRetriesOnTheWorldClock(t *testing.T) {
	sink := newSMTPSink(t)
	refused := 0
	sink.SetReply(func(rcpt string) string {
		switch {
		case rcpt == "gone@example.com":
			return "550 5.1.1 no such mailbox"
		case rcpt == "busy@example.com" && refused < 1:
			refused++
			return "451 4.3.0 try again later"
		}
		return ""
	})
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithSMTPRelay(sink.Addr))
	apitest.QuickSend(t, srv, srv.APIKey, "Retried", "busy@example.com", "gone@example.com")
	srv.Advance(time.Minute)
	settled := func(es []sandboxtest.Email) bool {
		return len(es) == 2 && es[0].Delivery != nil && es[0].Delivery.Attempts == 1 && es[1].Delivery != nil && es[1].Delivery.Attempts == 1
	}
	mails := waitEmails(t, srv, "one attempt each", settled)
	busy, gone := mails[0], mails[1]
	require.Equal(t, "busy@example.com", busy.To)
	assert.Equal(t, "pending", busy.Delivery.State)
	assert.Contains(t, busy.Delivery.Error, "451")
	assert.Equal(t, srv.Now().Unix()+60, busy.Delivery.NextAttemptAt, "the next attempt a minute later, on the world clock")
	assert.Equal(t, "failed", gone.Delivery.State)
	assert.Contains(t, gone.Delivery.Error, "550")
	assert.Zero(t, gone.Delivery.NextAttemptAt)
	assert.Empty(t, sink.Messages())

	srv.Advance(time.Minute)
	mails = waitEmails(t, srv, "the retry delivered", func(es []sandboxtest.Email) bool {
		return es[0].Delivery != nil && es[0].Delivery.State == "delivered"
	})
	assert.Equal(t, 2, mails[0].Delivery.Attempts)
	assert.Equal(t, "failed", mails[1].Delivery.State, "a failed e-mail stays failed")
	require.Len(t, sink.Messages(), 1)
	assert.Equal(t, string(srv.EmailMessage(busy.ID)), string(sink.Messages()[0].Data))
}

// TestSMTPRelayGivesUp: with no server at the relay's address, an e-mail
// is attempted five times on the world clock (at once, then 1 min, 5 min,
// 30 min and 2 h later), then failed with the connection's error.
func TestSMTPRelayGivesUp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithSMTPRelay(addr))
	apitest.QuickSend(t, srv, srv.APIKey, "Nowhere", "ann@example.com")
	srv.Advance(time.Minute)
	attempts := func(n int) func([]sandboxtest.Email) bool {
		return func(es []sandboxtest.Email) bool {
			return len(es) == 1 && es[0].Delivery != nil && es[0].Delivery.Attempts == n
		}
	}
	e := waitEmails(t, srv, "the first attempt", attempts(1))[0]
	assert.Equal(t, "pending", e.Delivery.State)
	assert.NotEmpty(t, e.Delivery.Error)
	for i, wait := range []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour} {
		assert.Equal(t, srv.Now().Add(wait).Unix(), e.Delivery.NextAttemptAt, "attempt %d", i+2)
		srv.Advance(wait)
		e = waitEmails(t, srv, "the next attempt", attempts(i+2))[0]
	}
	assert.Equal(t, "failed", e.Delivery.State)
	assert.Zero(t, e.Delivery.NextAttemptAt)
	srv.Advance(24 * time.Hour)
	assert.Equal(t, 5, srv.Emails()[0].Delivery.Attempts, "no attempt after the last")
}

// TestSMTPRelayLeavesTheWorldAlone: a world with a relay answers and
// exports exactly as one without (the delivery state is the relay's, not
// the world's), and without a relay the outbox shows no delivery.
func TestSMTPRelayLeavesTheWorldAlone(t *testing.T) {
	sink := newSMTPSink(t)
	base := sandbox.WithBaseURL("http://sandbox.test")
	relayed := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), base, sandbox.WithSMTPRelay(sink.Addr))
	plain := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), base)
	for _, srv := range []*sandboxtest.Server{relayed, plain} {
		_, sigs := apitest.QuickSend(t, srv, srv.APIKey, "Same", "ann@example.com")
		srv.Advance(time.Minute)
		srv.SignerAction(sigs[0], "sign", map[string]any{})
	}
	waitEmails(t, relayed, "every e-mail delivered", allDelivered(3))
	assert.Equal(t, apitest.WorldExport(t, plain, plain.APIKey), apitest.WorldExport(t, relayed, relayed.APIKey))
	for _, e := range plain.Emails() {
		assert.Nil(t, e.Delivery, "no relay, no delivery state")
		assert.Equal(t, string(plain.EmailMessage(e.ID)), string(relayed.EmailMessage(e.ID)))
	}
}

// TestSMTPRelayAfterReset: a reset forgets the relay's states (the new
// world's e-mails may reuse the ids), and the e-mails of the reset world
// are relayed as before; e-mails imported with a state are not relayed
// again.
func TestSMTPRelayAfterReset(t *testing.T) {
	sink := newSMTPSink(t)
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithSMTPRelay(sink.Addr))
	apitest.QuickSend(t, srv, srv.APIKey, "Before", "ann@example.com")
	srv.Advance(time.Minute)
	waitEmails(t, srv, "delivered", allDelivered(1))
	state := apitest.WorldExport(t, srv, srv.APIKey)

	srv.Control(http.MethodPost, "/reset", nil, nil)
	require.Empty(t, srv.Emails())
	apitest.QuickSend(t, srv, srv.APIKey, "After", "bob@example.com")
	srv.Advance(time.Minute)
	mails := waitEmails(t, srv, "delivered", allDelivered(1))
	require.Len(t, sink.Messages(), 2)
	assert.Equal(t, string(srv.EmailMessage(mails[0].ID)), string(sink.Messages()[1].Data))

	r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", []byte(state))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	for _, e := range srv.Emails() {
		assert.Nil(t, e.Delivery, "an imported e-mail is history, not relayed")
	}
	apitest.QuickSend(t, srv, srv.APIKey, "Imported world", "cyd@example.com")
	srv.Advance(time.Minute)
	waitEmails(t, srv, "the new e-mail delivered", func(es []sandboxtest.Email) bool {
		last := es[len(es)-1]
		return last.To == "cyd@example.com" && last.Delivery != nil && last.Delivery.State == "delivered"
	})
	assert.Len(t, sink.Messages(), 3)
}

// TestSMTPRelayOption: the relay address is host:port.
func TestSMTPRelayOption(t *testing.T) {
	for _, bad := range []string{"", "mailpit", ":25", "mailpit:0", "mailpit:x", "[::1]"} {
		_, err := sandbox.New(sandbox.WithSMTPRelay(bad))
		assert.Error(t, err, "%q", bad)
	}
	sb, err := sandbox.New(sandbox.WithSMTPRelay("[::1]:1025"))
	require.NoError(t, err)
	sb.Close()
}
