package sigreq_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Automatic reminders (internal/sigreq/reminders.go): the service reminds
// signers who have not acted three and seven days after they were asked
// (the world configuration's auto_reminders), each reminder an e-mail and a
// signature_request_remind event that also starts the manual reminder
// window.

const day = 24 * time.Hour

// remSend sends a request with two unordered signers (or ordered ones) and
// answers it once processed (2 s later: the signing e-mails went out).
func remSend(t *testing.T, srv *sandboxtest.Server, ordered bool) map[string]any {
	t.Helper()
	body := apitest.TwoSigners()
	if !ordered {
		body["signers"] = []map[string]any{
			{"name": "Jack", "email_address": "jack@example.com"},
			{"name": "Jill", "email_address": "jill@example.com"},
		}
	}
	sr := apitest.SendRequest(t, srv, body)
	srv.Advance(2 * time.Second)
	return sr
}

// reminders lists the reminder e-mails of a request as "to@sent_at".
func reminders(srv *sandboxtest.Server, id string) []string {
	var out []string
	for _, e := range srv.Emails("kind", "reminder", "signature_request_id", id) {
		out = append(out, e.To+"@"+strconv.Itoa(int(e.SentAt)))
	}
	return out
}

// remindEvents lists the signature_request_remind events of a request as
// "related_signature_id@event_time".
func remindEvents(srv *sandboxtest.Server, id string) []string {
	var out []string
	for _, c := range srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_remind")) {
		out = append(out, c.RelatedSignatureID+"@"+strconv.Itoa(int(c.EventTime)))
	}
	return out
}

func remind(srv *sandboxtest.Server, id, email string) *sandboxtest.Response {
	return srv.Do(http.MethodPost, "/v3/signature_request/remind/"+id, map[string]any{"email_address": email})
}

func ranKinds(jobs []sandboxtest.RanJob, kind string) int {
	n := 0
	for _, j := range jobs {
		if j.Kind == kind {
			n++
		}
	}
	return n
}

const jobAutoRemind = "signature_request.auto_remind"

// TestAutomaticRemindersFollowTheDefaultSchedule: three and seven days
// after the request was sent, every signer who has not acted gets a
// reminder; last_reminded_at shows it, and a manual reminder within the
// hour of an automatic one is refused.
func TestAutomaticRemindersFollowTheDefaultSchedule(t *testing.T) {
	srv := apitest.NewServer(t)
	var cfg map[string]any
	srv.Control(http.MethodGet, "/config", nil, &cfg)
	assert.Equal(t, map[string]any{"enabled": true, "after": []any{"72h0m0s", "168h0m0s"}}, cfg["auto_reminders"])

	sr := remSend(t, srv, false)
	id := sr["signature_request_id"].(string)
	sent := srv.Now()
	at := func(d time.Duration) string { return strconv.Itoa(int(sent.Add(d).Unix())) }

	assert.Zero(t, ranKinds(srv.Advance(3*day-time.Second), jobAutoRemind))
	assert.Empty(t, reminders(srv, id), "not before three days")
	assert.Equal(t, 1, ranKinds(srv.Advance(time.Second), jobAutoRemind))
	assert.Equal(t, []string{"jack@example.com@" + at(3*day), "jill@example.com@" + at(3*day)}, reminders(srv, id))
	assert.Equal(t, []string{apitest.SignatureID(sr, 0) + "@" + at(3*day), apitest.SignatureID(sr, 1) + "@" + at(3*day)}, remindEvents(srv, id))
	got := apitest.GetRequestOK(t, srv, id)
	for _, sg := range apitest.Signatures(got) {
		assert.EqualValues(t, sent.Add(3*day).Unix(), sg["last_reminded_at"])
	}
	mail := srv.Emails("kind", "reminder", "signature_request_id", id)[0]
	assert.Contains(t, mail.Subject, "Reminder:")
	assert.Contains(t, mail.Link, "/sign/", "a reminder links to the signing page")

	// The manual window starts at the automatic reminder.
	apitest.WantError(t, remind(srv, id, "jack@example.com"), http.StatusBadRequest, "invalid_reminder", "")
	srv.Advance(time.Hour)
	r := remind(srv, id, "jack@example.com")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	// Jill signs; on day seven only Jack is reminded, and the schedule ends.
	srv.Sign(apitest.SignatureID(sr, 1), nil)
	srv.Advance(4*day - time.Hour)
	assert.Equal(t, []string{"jack@example.com@" + at(3*day), "jill@example.com@" + at(3*day),
		"jack@example.com@" + at(3*day+time.Hour), "jack@example.com@" + at(7*day)}, reminders(srv, id))
	assert.Zero(t, ranKinds(srv.Advance(60*day), jobAutoRemind), "two reminders by default, then none")
	assert.Len(t, reminders(srv, id), 4)
}

// TestAutomaticReminderLeavesSignersRemindedWithinTheHour: an automatic
// reminder follows the manual window too: a signer reminded by hand less
// than reminder_interval before is left out of it.
func TestAutomaticReminderLeavesSignersRemindedWithinTheHour(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := remSend(t, srv, false)
	id := sr["signature_request_id"].(string)
	sent := srv.Now()
	srv.Advance(3*day - 30*time.Minute)
	require.Equal(t, http.StatusOK, remind(srv, id, "jill@example.com").Status)
	srv.Advance(30 * time.Minute)
	assert.Equal(t, []string{"jill@example.com@" + strconv.Itoa(int(sent.Add(3*day-30*time.Minute).Unix())),
		"jack@example.com@" + strconv.Itoa(int(sent.Add(3*day).Unix()))}, reminders(srv, id))
}

// TestAutomaticRemindersStop: a request that is completed, declined,
// canceled or expired, or whose signers are all asked by embedded signing,
// gets no automatic reminder, and no reminder job stays queued for it.
func TestAutomaticRemindersStop(t *testing.T) {
	cases := map[string]func(t *testing.T, srv *sandboxtest.Server, sr map[string]any){
		"completed": func(_ *testing.T, srv *sandboxtest.Server, sr map[string]any) {
			srv.Sign(apitest.SignatureID(sr, 0), nil)
			srv.Sign(apitest.SignatureID(sr, 1), nil)
		},
		"declined": func(_ *testing.T, srv *sandboxtest.Server, sr map[string]any) {
			srv.Decline(apitest.SignatureID(sr, 0), "no")
		},
		"canceled": func(t *testing.T, srv *sandboxtest.Server, sr map[string]any) {
			r := srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+sr["signature_request_id"].(string), nil)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		},
		"expired": nil, // expires_at two days ahead
	}
	for name, act := range cases {
		t.Run(name, func(t *testing.T) {
			srv := apitest.NewServer(t)
			body := apitest.TwoSigners()
			body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}}
			body["allow_decline"] = true
			if act == nil {
				body["expires_at"] = srv.Now().Add(2 * day).Unix()
			}
			sr := apitest.SendRequest(t, srv, body)
			srv.Advance(2 * time.Second)
			if act != nil {
				act(t, srv, sr)
			}
			jobs := srv.Advance(30 * day)
			assert.Zero(t, ranKinds(jobs, jobAutoRemind), "%v", jobs)
			assert.Empty(t, reminders(srv, sr["signature_request_id"].(string)))
			assert.Empty(t, queuedJobs(t, srv, jobAutoRemind), "the reminder job was dropped, not left to find nothing")
		})
	}
	t.Run("embedded", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.TwoSigners()
		body["client_id"] = apitest.ClientID
		r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", body)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		jobs := srv.Advance(30 * day)
		assert.Zero(t, ranKinds(jobs, jobAutoRemind))
		assert.Empty(t, srv.Emails("kind", "reminder"))
	})
}

// queuedJobs lists the queued jobs of a kind in the world's state export.
func queuedJobs(t *testing.T, srv *sandboxtest.Server, kind string) []map[string]any {
	t.Helper()
	var st struct {
		Tables struct {
			Jobs []map[string]any `json:"jobs"`
		} `json:"tables"`
	}
	srv.Control(http.MethodGet, "/state", nil, &st)
	var out []map[string]any
	for _, j := range st.Tables.Jobs {
		if j["kind"] == kind {
			out = append(out, j)
		}
	}
	return out
}

// TestAutomaticRemindersStartOverWhenSomeoneIsAsked: the schedule counts
// from the last time the request asked someone to sign: the next signer of
// an ordered request, a reassigned signer, an edit and resend.
func TestAutomaticRemindersStartOverWhenSomeoneIsAsked(t *testing.T) {
	t.Run("the next signer's turn", func(t *testing.T) {
		srv := apitest.NewServer(t)
		sr := remSend(t, srv, true)
		id := sr["signature_request_id"].(string)
		sent := srv.Now()
		srv.Advance(4*day + time.Hour)
		srv.Sign(apitest.SignatureID(sr, 0), nil)
		asked := srv.Now()
		srv.Advance(30 * day)
		assert.Equal(t, []string{"jack@example.com@" + strconv.Itoa(int(sent.Add(3*day).Unix())),
			"jill@example.com@" + strconv.Itoa(int(asked.Add(3*day).Unix())), "jill@example.com@" + strconv.Itoa(int(asked.Add(7*day).Unix()))},
			reminders(srv, id), "Jill is reminded three and seven days after her turn came, Jack's day seven is gone")
	})
	t.Run("reassigned", func(t *testing.T) {
		srv := apitest.NewServer(t)
		body := apitest.TwoSigners()
		body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
		body["allow_reassign"] = true
		sr := apitest.SendRequest(t, srv, body)
		id := sr["signature_request_id"].(string)
		srv.Advance(2*time.Second + 2*day)
		srv.Reassign(apitest.SignatureID(sr, 0), "Kim", "kim@example.com", "on leave")
		asked := srv.Now()
		srv.Advance(3*day - time.Second)
		assert.Empty(t, reminders(srv, id), "not three days after the send, three days after the reassignment")
		srv.Advance(time.Second)
		assert.Equal(t, []string{"kim@example.com@" + strconv.Itoa(int(asked.Add(3*day).Unix()))}, reminders(srv, id))
	})
	t.Run("edited and resent", func(t *testing.T) {
		srv := apitest.NewServer(t)
		sr := remSend(t, srv, false)
		id := sr["signature_request_id"].(string)
		srv.Advance(2 * day)
		body := apitest.TwoSigners()
		body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
		r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+id, body, apitest.PDFFile{Name: "nda.pdf", Data: apitest.PDF(1)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		edited := r.Map()["signature_request"].(map[string]any)
		srv.Advance(2 * time.Second)
		resent := srv.Now()
		srv.Advance(30 * day)
		assert.Equal(t, []string{"jack@example.com@" + strconv.Itoa(int(resent.Add(3*day).Unix())), "jack@example.com@" + strconv.Itoa(int(resent.Add(7*day).Unix()))},
			reminders(srv, id))
		assert.Equal(t, []string{apitest.SignatureID(edited, 0) + "@" + strconv.Itoa(int(resent.Add(3*day).Unix())), apitest.SignatureID(edited, 0) + "@" + strconv.Itoa(int(resent.Add(7*day).Unix()))},
			remindEvents(srv, id), "the new signature ids")
	})
}

// TestAutomaticRemindersConfiguration: the schedule is the world's
// (PATCH /_sandbox/config), off by enabled: false, which also ends the
// schedules of requests already sent; bad schedules are refused naming
// auto_reminders.
func TestAutomaticRemindersConfiguration(t *testing.T) {
	srv := apitest.NewServer(t)
	var out map[string]any
	srv.Control(http.MethodPatch, "/config", map[string]any{"auto_reminders": map[string]any{"after": []any{"3h", 3600, "90m"}}}, &out)
	assert.Equal(t, map[string]any{"enabled": true, "after": []any{"3h0m0s", "1h0m0s", "1h30m0s"}}, out["auto_reminders"], "delays as text or seconds, in any order")
	sr := remSend(t, srv, false)
	id := sr["signature_request_id"].(string)
	sent := srv.Now()
	jobs := srv.Advance(4 * time.Hour)
	assert.Equal(t, 3, ranKinds(jobs, jobAutoRemind))
	assert.Equal(t, []string{"jack@example.com@" + strconv.Itoa(int(sent.Add(time.Hour).Unix())), "jill@example.com@" + strconv.Itoa(int(sent.Add(time.Hour).Unix())),
		"jack@example.com@" + strconv.Itoa(int(sent.Add(3*time.Hour).Unix())), "jill@example.com@" + strconv.Itoa(int(sent.Add(3*time.Hour).Unix()))},
		reminders(srv, id), "the reminder at 90 minutes, within the hour of the one before, reminds nobody")

	srv.Control(http.MethodPatch, "/config", map[string]any{"auto_reminders": map[string]any{"after": []any{"24h"}}}, nil)
	t.Run("refused", func(t *testing.T) {
		for _, body := range []map[string]any{
			{"auto_reminders": map[string]any{"after": []any{"-1h"}}},
			{"auto_reminders": map[string]any{"after": []any{0}}},
			{"auto_reminders": map[string]any{"after": []any{"8785h"}}},
			{"auto_reminders": map[string]any{"after": []any{}}},
			{"auto_reminders": map[string]any{"after": fiftyOneDelays()}},
		} {
			apitest.WantBadRequest(t, srv.Do(http.MethodPatch, "/_sandbox/config", body), "auto_reminders[after]")
		}
		for _, body := range []map[string]any{
			{"auto_reminders": map[string]any{"every": "1h"}},
			{"auto_reminders": map[string]any{"after": "1h"}},
			{"auto_reminders": map[string]any{"enabled": "sometimes"}},
			{"auto_reminders": true},
		} {
			r := srv.Do(http.MethodPatch, "/_sandbox/config", body)
			assert.Equal(t, http.StatusBadRequest, r.Status, "%v: %s", body, r.Body)
			apitest.ErrorParts(t, r.Body)
		}
	})

	off := apitest.NewServer(t)
	sr = remSend(t, off, false)
	off.Control(http.MethodPatch, "/config", map[string]any{"auto_reminders": map[string]any{"enabled": false}}, &out)
	assert.Equal(t, map[string]any{"enabled": false, "after": []any{"72h0m0s", "168h0m0s"}}, out["auto_reminders"])
	off.Advance(30 * day)
	assert.Empty(t, reminders(off, sr["signature_request_id"].(string)), "turned off: the plan of a request already sent ends")
	assert.Empty(t, queuedJobs(t, off, jobAutoRemind))
	sr = remSend(t, off, false)
	assert.Empty(t, queuedJobs(t, off, jobAutoRemind), "off: nothing is planned")
	off.Control(http.MethodPatch, "/config", map[string]any{"auto_reminders": map[string]any{"enabled": true}}, nil)
	off.Advance(30 * day)
	assert.Empty(t, reminders(off, sr["signature_request_id"].(string)), "turning them on plans requests sent from then on")
	assert.Equal(t, http.StatusOK, remind(off, sr["signature_request_id"].(string), "jack@example.com").Status, "manual reminders are not affected")
}

// TestAutomaticRemindersSurviveExportAndImport: the queued reminder job is
// part of the world's state: an import resumes it, and both runs give the
// same state, e-mails and events.
func TestAutomaticRemindersSurviveExportAndImport(t *testing.T) {
	srv := apitest.NewServer(t)
	sr := remSend(t, srv, true)
	id := sr["signature_request_id"].(string)
	srv.Advance(time.Hour)
	saved := srv.Do(http.MethodGet, "/_sandbox/state", nil).Body
	require.Len(t, queuedJobs(t, srv, jobAutoRemind), 1)

	run := func() (state, emails, events string) {
		srv.Advance(3 * day)
		srv.Sign(apitest.SignatureID(sr, 0), nil)
		srv.Advance(10 * day)
		return string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body),
			string(srv.Do(http.MethodGet, "/_sandbox/emails", nil).Body),
			string(srv.Do(http.MethodGet, "/_sandbox/callbacks", nil).Body)
	}
	st1, em1, ev1 := run()
	require.Len(t, reminders(srv, id), 3, "Jack on day three, Jill three and seven days after her turn")

	r := srv.Do(http.MethodPut, "/_sandbox/state", saved)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, string(saved), string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body), "the import exports as it was")
	st2, em2, ev2 := run()
	assert.Equal(t, st1, st2)
	assert.Equal(t, em1, em2)
	assert.Equal(t, ev1, ev2)
}

func fiftyOneDelays() []any {
	out := make([]any, 51)
	for i := range out {
		out[i] = strconv.Itoa(i+1) + "h"
	}
	return out
}

// TestAutomaticRemindersSurviveARestart: the queued reminder job is in the
// data directory's journal: after a restart the world is as it was and the
// reminder falls due on its schedule.
func TestAutomaticRemindersSurviveARestart(t *testing.T) {
	opts := []sandbox.Option{sandbox.WithDataDir(t.TempDir(), "always"), sandbox.WithRandomCredentials()}
	var key, id, saved string
	var sent time.Time
	t.Run("before", func(t *testing.T) {
		srv := apitest.NewServer(t, opts...)
		key = srv.APIKey
		sr := remSend(t, srv, false)
		id, sent = sr["signature_request_id"].(string), srv.Now()
		srv.Advance(day)
		require.Len(t, queuedJobs(t, srv, jobAutoRemind), 1)
		saved = string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body)
	})
	t.Run("after", func(t *testing.T) {
		srv := apitest.NewServer(t, opts...)
		require.Equal(t, key, srv.APIKey)
		assert.Equal(t, saved, string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body), "the journal restores the world exactly")
		srv.Advance(2 * day)
		at := strconv.Itoa(int(sent.Add(3 * day).Unix()))
		assert.Equal(t, []string{"jack@example.com@" + at, "jill@example.com@" + at}, reminders(srv, id))
	})
}
