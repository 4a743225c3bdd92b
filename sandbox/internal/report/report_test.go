package report_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestReportIsMailedAMinuteLater: the request is answered at once with the
// official success message; a minute of world time later each report type
// is e-mailed with a link serving its CSV, and not before.
func TestReportIsMailedAMinuteLater(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "12/01/2024", "end_date": "12/31/2024", "report_type": []string{"user_activity", "sms_activity"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), "Your request is being processed.")

	type outbox struct {
		Emails []struct {
			Subject string `json:"subject"`
			Link    string `json:"link"`
		} `json:"emails"`
	}
	var mails outbox
	srv.Control(http.MethodGet, "/emails?kind=report", nil, &mails)
	assert.Empty(t, mails.Emails)
	srv.Advance(time.Minute)
	srv.Control(http.MethodGet, "/emails?kind=report&order=asc", nil, &mails)
	require.Len(t, mails.Emails, 2)
	assert.Equal(t, "User activity report for 12/01/2024 - 12/31/2024 is ready", mails.Emails[0].Subject)

	for _, m := range mails.Emails {
		r := srv.DoAs("", http.MethodGet, strings.TrimPrefix(m.Link, srv.URL), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
		rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
		require.NoError(t, err)
		require.NotEmpty(t, rows, "a header row at least")
	}
	link := mails.Emails[0].Link
	r = srv.DoAs("", http.MethodGet, strings.TrimPrefix(strings.Replace(link, "user_activity.csv", "document_status.csv", 1), srv.URL), nil)
	assert.Equal(t, http.StatusNotFound, r.Status, "a type that was not requested: %s", r.Body)
}

// TestReportErrors: the documented rules, each naming the parameter.
func TestReportErrors(t *testing.T) {
	srv := apitest.NewServer(t) // the world's today is 2025-01-01
	ok := map[string]any{"start_date": "12/01/2024", "end_date": "12/31/2024", "report_type": []string{"user_activity"}}
	with := func(k string, v any) map[string]any {
		b := map[string]any{}
		for kk, vv := range ok {
			b[kk] = vv
		}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		body map[string]any
		path string
	}{
		{with("report_type", nil), "report_type"},
		{with("report_type", []string{}), "report_type"},
		{with("report_type", []string{"user_activity", "document_status", "sms_activity"}), "report_type"},
		{with("report_type", []string{"user_activity", "money"}), "report_type[1]"},
		{with("report_type", []string{"user_activity", "user_activity"}), "report_type[1]"},
		{with("start_date", nil), "start_date"},
		{with("start_date", "2024-12-01"), "start_date"},
		{with("start_date", "13/01/2024"), "start_date"},
		{with("end_date", "1/1/2025"), "end_date"},
		{with("start_date", "12/31/2014"), "start_date"},
		{with("end_date", "11/30/2024"), "end_date"},
		{with("end_date", "12/02/2025"), "end_date"},
	} {
		e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/report/create", tc.body))
		assert.Equal(t, "bad_request", e.Name, "%v", tc.body)
		assert.Equal(t, tc.path, e.Path, "%v: %s", tc.body, e.Msg)
	}
	// Ten years back and a twelve-month range are allowed.
	r := srv.Do(http.MethodPost, "/v3/report/create", with("start_date", "01/01/2015"))
	assert.Equal(t, http.StatusBadRequest, r.Status, "2015-01-01 to 2024-12-31 is longer than 12 months")
	r = srv.Do(http.MethodPost, "/v3/report/create", map[string]any{"start_date": "01/01/2015", "end_date": "01/01/2016", "report_type": []string{"user_activity"}})
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
