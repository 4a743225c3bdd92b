package mail_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail/mailtest"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// request is a signing e-mail as the sandbox records one.
func request() *model.Email {
	return &model.Email{
		ID: "0f4b2a1e-3c3d-4e5f-8a9b-0c1d2e3f4a5b", Seq: 7, Kind: "signature_request",
		To: "jack@example.com", Name: "Jack Signer", Subject: "Owner Person has requested your signature: NDA",
		Message: "Hello Jack,\nplease sign.", SignatureRequestID: "sr1", SignatureID: "sig1",
		Link: "http://127.0.0.1:8080/_sandbox/w/default/sign/abc?x=1&y=2", SentAt: 1735689602,
		FromName: "Owner Person", ReplyTo: "owner@sandbox.example", Title: "NDA",
	}
}

func parse(t *testing.T, e *model.Email) *mailtest.Message {
	t.Helper()
	raw := mail.Compose(e)
	m, err := mailtest.Parse(raw)
	require.NoError(t, err, "%s", raw)
	return m
}

// TestComposeHeaders: the headers a client shows, from the record: the
// requester as the display name of the sandbox's sender and as Reply-To,
// the recipient with their name, the subject, the world-clock date, a
// Message-ID in the sandbox's domain.
func TestComposeHeaders(t *testing.T) {
	e := request()
	m := parse(t, e)
	from, err := m.Address("From")
	require.NoError(t, err)
	assert.Equal(t, "Owner Person via Dropbox Sign", from.Name)
	assert.Equal(t, mail.SenderAddress, from.Address)
	reply, err := m.Address("Reply-To")
	require.NoError(t, err)
	assert.Equal(t, "Owner Person", reply.Name)
	assert.Equal(t, "owner@sandbox.example", reply.Address)
	to, err := m.Address("To")
	require.NoError(t, err)
	assert.Equal(t, "Jack Signer", to.Name)
	assert.Equal(t, "jack@example.com", to.Address)
	assert.Equal(t, e.Subject, m.Get("Subject"))
	date, err := m.Header.Date()
	require.NoError(t, err)
	assert.Equal(t, time.Unix(e.SentAt, 0).UTC(), date.UTC())
	assert.Equal(t, "<0f4b2a1e-3c3d-4e5f-8a9b-0c1d2e3f4a5b@mail.signsandbox.test>", m.Get("Message-ID"))
	assert.Equal(t, mail.MessageID(e), m.Get("Message-ID"))
	assert.Equal(t, "signature_request", m.Get("X-Signsandbox-Kind"))
	assert.Equal(t, "sr1", m.Get("X-Signsandbox-Signature-Request-Id"))
	assert.Equal(t, mail.From(e), "Owner Person via Dropbox Sign <"+mail.SenderAddress+">")

	got := map[string]string{}
	for _, h := range mail.Headers(e) {
		got[h.Name] = h.Value
	}
	assert.Equal(t, "Jack Signer <jack@example.com>", got["To"])
	assert.Equal(t, "Owner Person <owner@sandbox.example>", got["Reply-To"])
	assert.Equal(t, m.Get("Date"), got["Date"])
}

// TestComposeOwnMail: an e-mail to the party it is from (the completed
// copy to the requester) comes from the service, with no Reply-To.
func TestComposeOwnMail(t *testing.T) {
	e := request()
	e.Kind, e.To, e.Name = "completed", "OWNER@sandbox.example", "Owner Person"
	m := parse(t, e)
	from, err := m.Address("From")
	require.NoError(t, err)
	assert.Equal(t, "Dropbox Sign", from.Name)
	assert.Empty(t, m.Header.Get("Reply-To"))
	assert.Empty(t, mail.ReplyTo(e))

	e = &model.Email{ID: "x", Kind: "account_confirmation", To: "new@example.com", Subject: "Please confirm your email address"}
	m = parse(t, e)
	from, err = m.Address("From")
	require.NoError(t, err)
	assert.Equal(t, "Dropbox Sign", from.Name, "the service's own notice")
	assert.Empty(t, m.Header.Get("Reply-To"))
}

// TestComposeBody: both parts say what the e-mail is about, carry the
// requester's message and the link, and end with the sandbox's note.
func TestComposeBody(t *testing.T) {
	e := request()
	m := parse(t, e)
	assert.Equal(t, mail.Text(e), m.Text)
	assert.Equal(t, strings.ReplaceAll(mail.HTML(e), "\r\n", "\n"), m.HTML)
	for _, part := range []string{m.Text, m.HTML} {
		assert.Contains(t, part, "Owner Person (owner@sandbox.example) has requested your signature on")
		assert.Contains(t, part, "Message from Owner Person:")
		assert.Contains(t, part, "Hello Jack,")
		assert.Contains(t, part, "please sign.")
		assert.Contains(t, part, "Review &")
		assert.Contains(t, part, "It was not sent by Dropbox Sign.")
	}
	assert.Contains(t, m.Text, e.Link)
	assert.Contains(t, m.HTML, `href="http://127.0.0.1:8080/_sandbox/w/default/sign/abc?x=1&amp;y=2"`)
	assert.Contains(t, m.HTML, "background-color:#0061FE", "the service's button colour")
}

// TestComposeIsDeterministic: the same record gives the same bytes, and
// records that differ only in their id differ in Message-ID and boundary.
func TestComposeIsDeterministic(t *testing.T) {
	a, b := mail.Compose(request()), mail.Compose(request())
	assert.Equal(t, a, b)
	other := request()
	other.ID = "1f4b2a1e-3c3d-4e5f-8a9b-0c1d2e3f4a5b"
	c := mail.Compose(other)
	assert.NotEqual(t, a, c)
	assert.NotEqual(t, mail.MessageID(request()), mail.MessageID(other))
}

// TestEveryKindHasItsWording: every kind the sandbox sends reads as its
// own e-mail (not the subject repeated), with the link when it has one.
func TestEveryKindHasItsWording(t *testing.T) {
	for _, kind := range mail.Kinds {
		t.Run(kind, func(t *testing.T) {
			e := request()
			e.Kind, e.Actor, e.Note = kind, "Sam Signer (sam@example.com)", "Not this week"
			m := parse(t, e)
			first := strings.SplitN(m.Text, "\n", 2)[0]
			assert.NotEqual(t, e.Subject, first, "a headline of its own")
			assert.NotContains(t, m.Text, "Someone", "the sender is named")
			if strings.Contains(m.Text, "Message from") {
				assert.Contains(t, m.Text, "please sign.")
			}
		})
	}
	e := request()
	e.Kind = "declined"
	m := parse(t, e)
	assert.NotContains(t, m.Text, "Review", "a declined request has nothing to sign")
	e.Actor, e.Note = "Sam Signer (sam@example.com)", "Not this week"
	m = parse(t, e)
	assert.Contains(t, m.Text, "Sam Signer (sam@example.com) declined to sign.")
	assert.Contains(t, m.Text, "Reason given: Not this week")

	unknown := request()
	unknown.Kind = "something_new"
	m = parse(t, unknown)
	assert.True(t, strings.HasPrefix(m.Text, unknown.Subject+"\n"), "an unknown kind leads with its subject")
	assert.Contains(t, m.Text, unknown.Link)
}

// TestComposeBranding: an e-mail about a request sent through a branded
// app shows the app's name and colours; colours that are not #rrggbb
// keep the service's.
func TestComposeBranding(t *testing.T) {
	e := request()
	e.Brand = &model.EmailBrand{ClientID: "c1", AppName: "Acme Portal", HeaderBackgroundColor: "#003300", TextColor2: "#FAFAFA",
		PageBackgroundColor: "#EEEEEE", LinkColor: "#123456", PrimaryButtonColor: "#AA0000", PrimaryButtonTextColor: "#FFFFFF"}
	m := parse(t, e)
	for _, want := range []string{">Acme Portal<", "background-color:#003300", "color:#FAFAFA", "background-color:#EEEEEE",
		"color:#123456", "background-color:#AA0000", "color:#FFFFFF"} {
		assert.Contains(t, m.HTML, want)
	}
	assert.Contains(t, m.Text, "Sent through Acme Portal.")

	assert.NotContains(t, m.HTML, "<img", "no logo: its text")
	e.Brand.LogoURL = "http://127.0.0.1:8080/_sandbox/w/default/requests/sr1/logo"
	m = parse(t, e)
	assert.Contains(t, m.HTML, `<img src="http://127.0.0.1:8080/_sandbox/w/default/requests/sr1/logo" alt="Acme Portal"`)
	e.Brand.LogoURL = "javascript:alert(1)"
	m = parse(t, e)
	assert.NotContains(t, m.HTML, "<img", "only an http(s) logo")
	e.Brand.PrimaryButtonColor = "red;background:url(http://evil.example/)"
	m = parse(t, e)
	assert.NotContains(t, m.HTML, "evil.example")
	assert.Contains(t, m.HTML, "background-color:#0061FE")
}

// TestComposeEscapesEveryValue: a caller's markup in any value is text
// in the HTML part, and cannot add a header or a part.
func TestComposeEscapesEveryValue(t *testing.T) {
	const x = `"><script>alert(1)</script><img src=x onerror=alert(2)>`
	e := request()
	e.Subject, e.Title, e.Message, e.Name, e.FromName = "S "+x+"\r\nBcc: victim@example.com", "T "+x, "M "+x, "N "+x, "F "+x
	e.Actor, e.Note, e.Link = "A "+x, "O "+x, "http://127.0.0.1/sign/"+x
	e.Brand = &model.EmailBrand{AppName: "B " + x}
	for _, kind := range append([]string{"other"}, mail.Kinds...) {
		e.Kind = kind
		raw := mail.Compose(e)
		m, err := mailtest.Parse(raw)
		require.NoError(t, err, kind)
		assert.NotContains(t, m.HTML, "<script", kind)
		assert.NotContains(t, m.HTML, "<img", kind)
		assert.Empty(t, m.Header.Get("Bcc"), kind)
		assert.Equal(t, "S "+x+"  Bcc: victim@example.com", m.Get("Subject"), kind)
		to, err := m.Address("To")
		require.NoError(t, err, kind)
		assert.Equal(t, "N "+x, to.Name, kind)
		from, err := m.Address("From")
		require.NoError(t, err, kind)
		assert.Equal(t, "F "+x+" via Dropbox Sign", from.Name, kind)
	}
}

// TestHeaderEncoding: subjects and names a client must show exactly:
// non-ASCII text, ASCII that reads like an encoded-word, words longer
// than a line, scripts that make base64 the shorter encoding, and a very
// long subject, whose lines are folded.
func TestHeaderEncoding(t *testing.T) {
	for _, s := range []string{
		"Plain ASCII subject",
		"Zoë signed “the lease” — 100 % done",
		"=?utf-8?q?not_an_encoded_word?=",
		strings.Repeat("x", 300),
		"日本語の件名です。署名をお願いします。" + strings.Repeat("長い", 80),
		strings.Repeat("Long subject with many words ", 40),
		"tab\there and\u2028there",
	} {
		e := request()
		e.Subject, e.Name, e.FromName = s, s, s
		raw := mail.Compose(e)
		m, err := mailtest.Parse(raw)
		require.NoError(t, err, "%q\n%s", s, raw)
		want := strings.TrimSpace(strings.NewReplacer("\t", " ", "\u2028", " ").Replace(s))
		assert.Equal(t, want, m.Get("Subject"))
		to, err := m.Address("To")
		require.NoError(t, err, s)
		assert.Equal(t, want, to.Name)
		head := raw[:bytes.Index(raw, []byte("\r\n\r\n"))]
		for _, line := range strings.Split(string(head), "\r\n") {
			assert.LessOrEqual(t, len(line), 998, "line %q", line)
			if strings.HasPrefix(line, "Subject:") || strings.HasPrefix(line, " ") && !strings.Contains(line, `"`) {
				assert.LessOrEqual(t, len(line), 78, "the subject is folded: %q", line)
			}
		}
	}
}

// TestPartEncoding: text mostly in other scripts is sent in base64, Latin
// text in quoted-printable; both decode to the same text.
func TestPartEncoding(t *testing.T) {
	e := request()
	e.Message = strings.Repeat("署名をお願いします。", 40)
	raw := string(mail.Compose(e))
	assert.Contains(t, raw, "Content-Transfer-Encoding: base64")
	m := parse(t, e)
	assert.Contains(t, m.Text, e.Message)
	raw = string(mail.Compose(request()))
	assert.NotContains(t, raw, "Content-Transfer-Encoding: base64")
	assert.Contains(t, raw, "Content-Transfer-Encoding: quoted-printable")
}

// TestRecipient: the SMTP envelope's recipient is the address alone.
func TestRecipient(t *testing.T) {
	e := request()
	assert.Equal(t, "jack@example.com", mail.Recipient(e))
	e.To = "jack@example.com\r\nRCPT TO:<other@example.com>"
	assert.Equal(t, "jack@example.comRCPTTO:other@example.com", mail.Recipient(e), "no line break, space or bracket reaches SMTP")
	e.To = "not an address"
	assert.Empty(t, mail.Recipient(e))
}

// FuzzCompose: whatever a record holds, the message parses, its subject
// and names read back as given (control characters as spaces), and its
// parts are the text and HTML the package composes.
func FuzzCompose(f *testing.F) {
	f.Add("Subject", "Title", "Message\nline", "Name", "from@example.com", "signature_request")
	f.Add("=?utf-8?b?AAAA?=", "", "", "\"q\\\"", "a\"b@example.com", "declined")
	f.Add("日本語", "é", "\xff\xfe", "Zoë, Jr.", "x@y", "team_invite")
	f.Fuzz(func(t *testing.T, subject, title, message, name, to, kind string) {
		e := &model.Email{ID: "id-" + kind, Kind: kind, To: to, Name: name, Subject: subject, Title: title, Message: message,
			FromName: name, ReplyTo: to, SentAt: 1735689602, Link: "http://127.0.0.1/x"}
		raw := mail.Compose(e)
		m, err := mailtest.Parse(raw)
		if err != nil {
			t.Fatalf("%v\n%q", err, raw)
		}
		if m.Text != mail.Text(e) && m.Text != strings.ReplaceAll(strings.ToValidUTF8(mail.Text(e), "\uFFFD"), "\r\n", "\n") {
			t.Fatalf("text part %q, want %q", m.Text, mail.Text(e))
		}
		if !bytes.Equal(raw, mail.Compose(e)) {
			t.Fatal("not deterministic")
		}
	})
}
