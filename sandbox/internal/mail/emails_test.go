package mail_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail/mailtest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestEveryEmailIsAMessage: every kind of e-mail the sandbox sends is
// served as a message a client reads (headers from the outbox's record,
// a text and an HTML part with the requester's message and the link it
// carries), its parts on their own routes, and the same calls give the
// same bytes in another sandbox.
func TestEveryEmailIsAMessage(t *testing.T) {
	base := sandbox.WithBaseURL("http://sandbox.test")
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles(), base)
	apitest.SendEveryEmailKind(t, srv)
	twin := apitest.NewServer(t, sandbox.WithOfflineFiles(), base)
	apitest.SendEveryEmailKind(t, twin)

	mails := srv.Emails()
	var kinds []string
	for _, e := range mails {
		if !slices.Contains(kinds, e.Kind) {
			kinds = append(kinds, e.Kind)
		}
		raw := srv.EmailMessage(e.ID)
		assert.Equal(t, string(raw), string(twin.EmailMessage(e.ID)), "%s: the same calls give the same message", e.Kind)
		m, err := mailtest.Parse(raw)
		require.NoError(t, err, "%s: %s", e.Kind, raw)
		to, err := m.Address("To")
		require.NoError(t, err)
		assert.Equal(t, e.To, to.Address, e.Kind)
		from, err := m.Address("From")
		require.NoError(t, err)
		assert.Equal(t, mail.SenderAddress, from.Address)
		assert.Equal(t, e.From, from.Name+" <"+from.Address+">", e.Kind)
		assert.Equal(t, e.Subject, m.Get("Subject"))
		assert.Equal(t, e.MessageID, m.Get("Message-ID"))
		date, err := m.Header.Date()
		require.NoError(t, err)
		assert.Equal(t, e.SentAt, date.Unix())
		if e.Link != "" {
			assert.Contains(t, m.Text, e.Link, e.Kind)
			assert.Contains(t, m.HTML, `href="`+strings.ReplaceAll(e.Link, "&", "&amp;")+`"`, e.Kind)
		}
		if e.Message != "" {
			assert.Contains(t, m.Text, "please sign the lease.", e.Kind)
		}
		html := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/emails/"+e.ID+"/html", nil)
		require.Equal(t, http.StatusOK, html.Status)
		assert.Equal(t, m.HTML, strings.ReplaceAll(string(html.Body), "\r\n", "\n"))
		assert.Contains(t, html.Header.Get("Content-Security-Policy"), "default-src 'none'")
		assert.NotContains(t, html.Header.Get("Content-Security-Policy"), "script")
		text := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/emails/"+e.ID+"/text", nil)
		require.Equal(t, http.StatusOK, text.Status)
		assert.Equal(t, m.Text, string(text.Body))
	}
	slices.Sort(kinds)
	want := slices.Clone(mail.Kinds)
	slices.Sort(want)
	assert.Equal(t, want, kinds, "every kind of e-mail was sent and has its own wording")

	byKind := func(kind, to string) *mailtest.Message {
		for _, e := range mails {
			if e.Kind == kind && (to == "" || e.To == to) {
				m, err := mailtest.Parse(srv.EmailMessage(e.ID))
				require.NoError(t, err)
				return m
			}
		}
		t.Fatalf("no %s e-mail to %q", kind, to)
		return nil
	}
	m := byKind("signature_request", "jack@example.com")
	reply, err := m.Address("Reply-To")
	require.NoError(t, err)
	assert.Equal(t, "owner@sandbox.example", reply.Address, "replies go to the requester")
	assert.Contains(t, m.Text, "Message from Sandbox Owner:")
	assert.Contains(t, byKind("declined", "").Text, "Lou Example (lou@example.com) declined to sign.")
	assert.Contains(t, byKind("declined", "").Text, "Reason given: The price is wrong")
	assert.Contains(t, byKind("reassigned", "").Text, "Kim New (kim@example.com) has been asked to sign in your place.")
	assert.Contains(t, byKind("reminder", "").Text, "is still waiting for your signature")
	assert.Empty(t, byKind("completed", "owner@sandbox.example").Header.Get("Reply-To"), "the requester's own copy")

	r := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/emails/nope", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, sandbox.ControlPrefix+"/emails/nope/html", nil).Status)
}

// TestEmailBrandingIsFixedWhenSent: an e-mail about a request sent through
// a white-labeled app shows the app's name and colours as they were when
// it was sent; a later change of the app brands later e-mails only.
func TestEmailBrandingIsFixedWhenSent(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	const app = "7d1043473d55bfa90e8530d35801d4e3" // the fixture app
	apitest.WantOK(t, srv.Do(http.MethodPut, "/v3/api_app/"+app, map[string]any{"white_labeling_options": map[string]any{
		"primary_button_color": "#00b3e6", "primary_button_text_color": "#ffffff", "header_background_color": "#003300"}}))
	apitest.SendToSigners(t, srv, map[string]any{"title": "Branded", "client_id": app}, "Jack Example <jack@example.com>")
	apitest.SendToSigners(t, srv, map[string]any{"title": "Plain"}, "Jill Example <jill@example.com>")
	srv.Advance(time.Minute)
	apitest.WantOK(t, srv.Do(http.MethodPut, "/v3/api_app/"+app, map[string]any{"white_labeling_options": map[string]any{
		"primary_button_color": "#7a00cc", "header_background_color": "#330000"}}))
	apitest.SendToSigners(t, srv, map[string]any{"title": "Rebranded", "client_id": app}, "Kim Example <kim@example.com>")
	srv.Advance(time.Minute)

	html := map[string]string{}
	for _, e := range srv.Emails() {
		m, err := mailtest.Parse(srv.EmailMessage(e.ID))
		require.NoError(t, err)
		html[e.To] = m.HTML
	}
	assert.Contains(t, html["jack@example.com"], "background-color:#00b3e6", "the app's button")
	assert.Contains(t, html["jack@example.com"], "background-color:#003300", "the app's header")
	assert.Contains(t, html["jack@example.com"], ">Sandbox App<", "the app's name as the logo")
	assert.NotContains(t, html["jill@example.com"], "#00b3e6", "a request without client_id has the service's look")
	assert.Contains(t, html["jill@example.com"], ">Dropbox Sign<")
	assert.Contains(t, html["kim@example.com"], "background-color:#7a00cc", "a later e-mail has the new colours")
	assert.Contains(t, html["kim@example.com"], "background-color:#330000")
}

// TestEmailShowsTheAppsLogo: an e-mail about a request sent through an
// app with a logo shows the logo the request's pages serve, in place of
// the app's name, which becomes its text alternative.
func TestEmailShowsTheAppsLogo(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	app := apitest.BrandedApp(t, srv, "Logo Co", `{"primary_button_color": "#00b3e6"}`, true)
	id, _ := apitest.SendToSigners(t, srv, map[string]any{"title": "With a logo", "client_id": app}, "Jack Example <jack@example.com>")
	srv.Advance(time.Minute)
	mails := srv.Emails()
	require.Len(t, mails, 1)
	m, err := mailtest.Parse(srv.EmailMessage(mails[0].ID))
	require.NoError(t, err)
	logo := srv.URL + "/_sandbox/w/default/requests/" + id + "/logo"
	assert.Contains(t, m.HTML, `<img src="`+logo+`" alt="Logo Co"`)
	r := srv.DoAs("", http.MethodGet, strings.TrimPrefix(logo, srv.URL), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "image/png", r.Header.Get("Content-Type"))
}

// TestOutboxReadMarksSearchAndClear: e-mails start unread, are marked
// read and unread, are found by search, and the outbox empties on
// request; a reminder then still carries a signing link.
func TestOutboxReadMarksSearchAndClear(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	a, _ := apitest.SendToSigners(t, srv, map[string]any{"title": "Lease", "message": "Bring the blue pen"}, "Jack Example <jack@example.com>")
	apitest.SendToSigners(t, srv, map[string]any{"title": "Loan"}, "Jill Example <jill@example.com>")
	srv.Advance(time.Minute)
	mails := srv.Emails()
	require.Len(t, mails, 2)
	assert.False(t, mails[0].Read)

	var marked sandboxtest.Email
	srv.Control(http.MethodPatch, "/emails/"+mails[0].ID, map[string]any{"read": true}, &marked)
	assert.True(t, marked.Read)
	assert.True(t, srv.Emails()[0].Read)
	r := srv.Do(http.MethodPatch, sandbox.ControlPrefix+"/emails/"+mails[0].ID, map[string]any{})
	assert.Equal(t, http.StatusBadRequest, r.Status, "read is required")
	r = srv.Do(http.MethodPatch, sandbox.ControlPrefix+"/emails/nope", map[string]any{"read": true})
	assert.Equal(t, http.StatusNotFound, r.Status)

	ids := func(q string) []string {
		var out []string
		for _, e := range srv.Emails("q", q) {
			out = append(out, e.To)
		}
		return out
	}
	assert.Equal(t, []string{"jill@example.com"}, ids("is:unread"))
	assert.Equal(t, []string{"jack@example.com"}, ids("is:read"))
	assert.Equal(t, []string{"jack@example.com"}, ids("blue pen"), "words of the body")
	assert.Equal(t, []string{"jack@example.com"}, ids(`body:"the blue pen"`))
	assert.Equal(t, []string{"jill@example.com"}, ids("subject:loan"))
	assert.Equal(t, []string{"jack@example.com", "jill@example.com"}, ids("kind:signature_request from:owner"))
	assert.Empty(t, ids("to:jack kind:reminder"))
	assert.Equal(t, []string{"jack@example.com"}, ids("JACK"))

	srv.Control(http.MethodPatch, "/emails/"+mails[0].ID, map[string]any{"read": false}, &marked)
	assert.False(t, marked.Read)

	assert.Equal(t, 2, srv.ClearEmails())
	assert.Empty(t, srv.Emails())
	assert.Equal(t, 0, srv.ClearEmails())
	srv.Advance(2 * time.Hour)
	apitest.WantOK(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+a, map[string]any{"email_address": "jack@example.com"}))
	mails = srv.Emails()
	require.Len(t, mails, 1)
	assert.Equal(t, "reminder", mails[0].Kind)
	assert.Contains(t, mails[0].Link, "/sign/", "a reminder after the outbox was cleared still links to the signing page")
	page := srv.Do(http.MethodGet, strings.TrimPrefix(mails[0].Link, srv.URL), nil)
	assert.Equal(t, http.StatusOK, page.Status, "the reminder's link opens the signing page")
}

// TestOutboxExportImportAndRestart: the outbox (read marks, branding,
// the composition's record) comes back exactly from an export and from
// the data directory, so every message is the same after.
func TestOutboxExportImportAndRestart(t *testing.T) {
	dir := t.TempDir()
	opts := []sandbox.Option{sandbox.WithOfflineFiles(), sandbox.WithDataDir(dir, "always"), sandbox.WithBaseURL("http://sandbox.test")}
	messages := func(srv *sandboxtest.Server) map[string]string {
		out := map[string]string{}
		for _, e := range srv.Emails() {
			out[e.ID] = string(srv.EmailMessage(e.ID)) + "|read=" + map[bool]string{true: "1", false: "0"}[e.Read]
		}
		return out
	}
	var before map[string]string
	var state []byte
	t.Run("before", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		const app = "7d1043473d55bfa90e8530d35801d4e3"
		apitest.WantOK(t, srv.Do(http.MethodPut, "/v3/api_app/"+app, map[string]any{"white_labeling_options": map[string]any{"header_background_color": "#003300"}}))
		_, sigs := apitest.SendToSigners(t, srv, map[string]any{"title": "Kept", "client_id": app, "allow_decline": true}, "Jack Example <jack@example.com>")
		srv.Advance(time.Minute)
		apitest.WantOK(t, srv.SignerAction(sigs[0], "decline", map[string]any{"reason": "no"}))
		srv.Control(http.MethodPatch, "/emails/"+srv.Emails()[0].ID, map[string]any{"read": true}, nil)
		before = messages(srv)
		require.Len(t, before, 2)
		r := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
		require.Equal(t, http.StatusOK, r.Status)
		state = r.Body

		srv.Control(http.MethodPost, "/reset", nil, nil)
		require.Empty(t, srv.Emails())
		apitest.WantOK(t, srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", state))
		assert.Equal(t, before, messages(srv), "an import gives the outbox back")
	})
	t.Run("after a restart", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		assert.Equal(t, before, messages(srv), "the data directory gives the outbox back")
		srv.ClearEmails()
	})
	t.Run("after a clear and a restart", func(t *testing.T) {
		srv := apitest.NewControlCheckedServer(t, opts...)
		assert.Empty(t, srv.Emails(), "a cleared outbox stays cleared")
	})
}
