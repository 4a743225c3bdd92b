package report_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestReportCreateEmailsCSVLinks(t *testing.T) {
	srv := apitest.NewServer(t)
	// Some activity to report on: a fax of the owner (1 page + cover).
	r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "cover_page_to": "Jill"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)

	r = srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "12/01/2024", "end_date": "01/01/2025", "report_type": []string{"user_activity", "document_status"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, map[string]any{"report": map[string]any{
		"success":     "Your request is being processed. You will receive an email when the report is ready.",
		"start_date":  "12/01/2024",
		"end_date":    "01/01/2025",
		"report_type": []any{"user_activity", "document_status"},
	}}, r.Map())
	assert.Empty(t, apitest.Emails(t, srv, "kind=report"), "the report is e-mailed when it is ready")

	jobs := srv.Advance(time.Minute)
	require.Len(t, jobs, 1)
	assert.Equal(t, "report.ready", jobs[0].Kind)
	mails := apitest.Emails(t, srv, "kind=report")
	require.Len(t, mails, 2, "one e-mail per report type")
	assert.Equal(t, "owner@sandbox.example", mails[0]["to"])

	status, rows := apitest.FetchCSV(t, mails[0]["link"].(string))
	require.Equal(t, http.StatusOK, status)
	require.Len(t, rows, 3, "a header and the team's two accounts")
	assert.Equal(t, []string{"Account ID", "Email Address", "Name", "Role", "Signature Requests Sent", "Signature Requests Completed",
		"Signature Requests Declined", "Templates Created", "Faxes Sent", "Fax Pages Sent"}, rows[0])
	assert.Equal(t, []string{apitest.OwnerID, "owner@sandbox.example", "Sandbox Owner", "Admin", "0", "0", "0", "0", "1", "2"}, rows[1])
	assert.Equal(t, []string{apitest.TeammateID, "teammate@sandbox.example", "Sandbox Teammate", "Member", "0", "0", "0", "0", "0", "0"}, rows[2])

	status, rows = apitest.FetchCSV(t, mails[1]["link"].(string))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []string{"Signature Request ID", "Title", "Sender Email Address", "Status", "Last Event", "Last Event Time (UTC)"}, rows[0])

	// A type that was not requested has no file.
	status, _ = apitest.FetchCSV(t, strings.Replace(mails[1]["link"].(string), "document_status", "sms_activity", 1))
	assert.Equal(t, http.StatusNotFound, status)
}

func TestReportCSVNotReadyAndOutsider(t *testing.T) {
	srv := apitest.NewServer(t)
	// An account without a team gets a report on itself.
	r := srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "01/01/2024", "end_date": "12/31/2024", "report_type": []string{"sms_activity"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	mails := apitest.Emails(t, srv, "kind=report&to=outsider@elsewhere.example")
	require.Len(t, mails, 1)
	status, rows := apitest.FetchCSV(t, mails[0]["link"].(string))
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, rows, 1, "the sandbox sends no text messages: the header only")

	// Before its job ran, a report's link answers 404. The link is not known
	// before the e-mail, but the same calls in a fresh world make the same
	// report id: the twin's link is this report's.
	twin := apitest.NewServer(t)
	r = twin.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "01/01/2024", "end_date": "12/31/2024", "report_type": []string{"sms_activity"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	link := twin.URL + strings.TrimPrefix(mails[0]["link"].(string), srv.URL)
	status, _ = apitest.FetchCSV(t, link)
	assert.Equal(t, http.StatusNotFound, status)
	twin.Advance(time.Minute)
	status, _ = apitest.FetchCSV(t, link)
	assert.Equal(t, http.StatusOK, status, "the same link once the report is ready")
}

func TestReportCreateValidation(t *testing.T) {
	srv := apitest.NewServer(t) // the world clock starts on 01/01/2025
	cases := []struct {
		name string
		body map[string]any
		path string
	}{
		{"missing report_type", map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024"}, "report_type"},
		{"empty report_type", map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024", "report_type": []string{}}, "report_type"},
		{"three report types", map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity", "document_status", "sms_activity"}}, "report_type"},
		{"unknown report type", map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity", "signatures"}}, "report_type[1]"},
		{"twice the same type", map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity", "user_activity"}}, "report_type[1]"},
		{"missing start_date", map[string]any{"end_date": "01/02/2024", "report_type": []string{"user_activity"}}, "start_date"},
		{"ISO start_date", map[string]any{"start_date": "2024-01-01", "end_date": "01/02/2024", "report_type": []string{"user_activity"}}, "start_date"},
		{"no such month", map[string]any{"start_date": "13/01/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity"}}, "start_date"},
		{"single digits", map[string]any{"start_date": "1/1/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity"}}, "start_date"},
		{"missing end_date", map[string]any{"start_date": "01/01/2024", "report_type": []string{"user_activity"}}, "end_date"},
		{"end before start", map[string]any{"start_date": "01/02/2024", "end_date": "01/01/2024", "report_type": []string{"user_activity"}}, "end_date"},
		{"more than 12 months", map[string]any{"start_date": "01/01/2023", "end_date": "01/02/2024", "report_type": []string{"user_activity"}}, "end_date"},
		{"more than 10 years ago", map[string]any{"start_date": "12/31/2014", "end_date": "01/31/2015", "report_type": []string{"user_activity"}}, "start_date"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/report/create", tc.body), http.StatusBadRequest, "bad_request", tc.path)
		})
	}
	t.Run("limits are inclusive", func(t *testing.T) {
		for _, body := range []map[string]any{
			{"start_date": "01/01/2015", "end_date": "01/01/2016", "report_type": []string{"user_activity"}},
			{"start_date": "02/29/2024", "end_date": "02/28/2025", "report_type": []string{"document_status"}},
			{"start_date": "01/01/2025", "end_date": "01/01/2025", "report_type": "user_activity"},
		} {
			r := srv.Do(http.MethodPost, "/v3/report/create", body)
			assert.Equal(t, http.StatusOK, r.Status, "%v: %s", body, r.Body)
		}
	})
	t.Run("team members other than Admins", func(t *testing.T) {
		apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/report/create",
			map[string]any{"start_date": "01/01/2024", "end_date": "01/02/2024", "report_type": []string{"user_activity"}}),
			http.StatusForbidden, "forbidden", "")
	})
	t.Run("OAuth tokens are refused", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v3/report/create", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer abc")
		assert.Equal(t, http.StatusUnauthorized, srv.Send(req).Status)
	})
}

func TestReportCSVIsDeterministic(t *testing.T) {
	run := func() [][]string {
		srv := apitest.NewServer(t)
		r := srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
			"start_date": "01/01/2024", "end_date": "12/31/2024", "report_type": []string{"user_activity"},
		})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		srv.Advance(time.Minute)
		mails := apitest.Emails(t, srv, "kind=report")
		require.Len(t, mails, 1)
		_, rows := apitest.FetchCSV(t, mails[0]["link"].(string))
		return append(rows, []string{mails[0]["link"].(string)[len(srv.URL):]})
	}
	assert.Equal(t, run(), run())
}
