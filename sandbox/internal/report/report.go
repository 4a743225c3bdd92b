package report

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Reports: POST /report/create validates the request and answers at once;
// reportDelay later a job generates one CSV per requested report type from
// the world's data (csv.go) and e-mails the requester one link per
// type, as the real service does. The links are served by the sandbox.

// Register adds the report operation, the job that makes a report ready
// and the page that serves its CSV files to r.
func Register(r *api.Registry) {
	r.Handle("reportCreate", reportCreate)
	r.RegisterJob(jobReportReady, runReportReady)
	r.ControlPublic(http.MethodGet, "/w/{world}/reports/{report_id}/{report_type}.csv", reportCSVPage)
}

const (
	jobReportReady = "report.ready"
	// reportDelay is how long generating a report takes.
	reportDelay = time.Minute
	// reportDateLayout is MM/DD/YYYY.
	reportDateLayout = "01/02/2006"
	// reportAccepted is the success message of the official example.
	reportAccepted = "Your request is being processed. You will receive an email when the report is ready."
)

// reportTypes are the items of ReportCreateRequest.report_type.
var reportTypes = []string{"user_activity", "document_status", "sms_activity"}

var reportDate = regexp.MustCompile(`^\d{2}/\d{2}/\d{4}$`)

type reportCreateRequest struct {
	StartDate  string   `json:"start_date"`
	EndDate    string   `json:"end_date"`
	ReportType []string `json:"report_type"`
}

// reportView is ReportResponse.
type reportView struct {
	Success    string   `json:"success"`
	StartDate  string   `json:"start_date"`
	EndDate    string   `json:"end_date"`
	ReportType []string `json:"report_type"`
}

// reportCreateResponse is ReportCreateResponse.
type reportCreateResponse struct {
	Report reportView `json:"report"`
}

func parseReportDate(path, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, apierr.Missing(path)
	}
	t, err := time.Parse(reportDateLayout, v)
	if !reportDate.MatchString(v) || err != nil {
		return time.Time{}, apierr.Badf(path, "Invalid %s %q: use a date in MM/DD/YYYY format.", path, v)
	}
	return t, nil
}

// validate checks the request against the documented rules, with today
// taken from the world clock.
func (r *reportCreateRequest) validate(c *api.Call, now time.Time) error {
	if !c.Has("report_type") || r.ReportType == nil {
		return apierr.Missing("report_type")
	}
	if n := len(r.ReportType); n < 1 || n > 2 {
		return apierr.Badf("report_type", "report_type must list one or two report types (got %d).", n)
	}
	for i, t := range r.ReportType {
		if !slices.Contains(reportTypes, t) {
			return apierr.Badf(apierr.IndexPath("report_type", i), "Invalid report type %q: use %s.", t, strings.Join(reportTypes, ", "))
		}
		if slices.Index(r.ReportType, t) != i {
			return apierr.Badf(apierr.IndexPath("report_type", i), "Report type %q is listed twice.", t)
		}
	}
	start, err := parseReportDate("start_date", r.StartDate)
	if err != nil {
		return err
	}
	end, err := parseReportDate("end_date", r.EndDate)
	if err != nil {
		return err
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case start.Before(today.AddDate(-10, 0, 0)):
		return apierr.Badf("start_date", "start_date must not be more than 10 years in the past (the earliest is %s).",
			today.AddDate(-10, 0, 0).Format(reportDateLayout))
	case end.Before(start):
		return apierr.Badf("end_date", "end_date must not be before start_date.")
	case end.After(start.AddDate(0, 12, 0)):
		return apierr.Badf("end_date", "The date range may be up to 12 months long (end_date at most %s).",
			start.AddDate(0, 12, 0).Format(reportDateLayout))
	}
	return nil
}

// reportCreate requests reports. Reports cover the caller's team, which
// only its Admins may request; an account without a team gets a report on
// itself.
func reportCreate(c *api.Call) (any, error) {
	var req reportCreateRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := req.validate(c, c.World.Now().UTC()); err != nil {
		return nil, err
	}
	err := c.Update(func(tx *state.Txn) error {
		me, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		if me.TeamID != "" && me.RoleCode != "a" {
			return apierr.Forbiddenf("Only Admins of a Team can request its reports.")
		}
		id := tx.NewID()
		r := &model.Report{
			ID: id, AccountID: me.ID, TeamID: me.TeamID, Types: append([]string{}, req.ReportType...),
			StartDate: req.StartDate, EndDate: req.EndDate, LinkBase: c.WorldURL("reports/" + id),
			CreatedAt: tx.Unix(), Seq: tx.Seq(),
		}
		if err := state.Put(tx, state.TableReports, r); err != nil {
			return err
		}
		_, err = state.Schedule(tx, jobReportReady, id, reportDelay, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return reportCreateResponse{Report: reportView{
		Success: reportAccepted, StartDate: req.StartDate, EndDate: req.EndDate, ReportType: req.ReportType,
	}}, nil
}

// reportTypeLabels name the report types in the e-mails.
var reportTypeLabels = map[string]string{
	"user_activity":   "User activity",
	"document_status": "Document status",
	"sms_activity":    "SMS activity",
}

// runReportReady generates the CSVs and e-mails their links.
func runReportReady(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	cur, err := state.Get[model.Report](tx, state.TableReports, job.Subject)
	if err != nil || cur.ReadyAt != 0 {
		return nil
	}
	owner, err := state.Get[model.Account](tx, state.TableAccounts, cur.AccountID)
	if err != nil {
		return nil
	}
	r := state.Clone(cur)
	r.CSVBlobs = map[string]string{}
	sc, err := newReportScope(tx, r)
	if err != nil {
		return err
	}
	events, err := state.All[model.Event](tx, state.TableEvents, state.IndexSeq)
	if err != nil {
		return err
	}
	for _, t := range r.Types {
		data, err := buildReportCSV(tx, sc, events, t)
		if err != nil {
			return err
		}
		id, err := state.PutBlob(tx, data)
		if err != nil {
			return err
		}
		r.CSVBlobs[t] = id
		_, err = notify.Email(tx, model.Email{
			Kind: notify.MailReport, To: owner.Email, Name: owner.Name,
			Subject: reportTypeLabels[t] + " report for " + r.StartDate + " - " + r.EndDate + " is ready",
			Link:    r.LinkBase + "/" + t + ".csv",
			Title:   strings.ToLower(reportTypeLabels[t][:1]) + reportTypeLabels[t][1:] + " report for " + r.StartDate + " - " + r.EndDate,
		})
		if err != nil {
			return err
		}
	}
	r.ReadyAt = tx.Unix()
	return state.Put(tx, state.TableReports, r)
}

// reportCSVPage serves a ready report's CSV (the link of its e-mail); 404
// until the report is ready.
func reportCSVPage(c *api.Call) (any, error) {
	w := page.WorldFor(c.Host, c.Param("world"), page.HoldsRow[model.Report](state.TableReports, c.Param("report_id")))
	if w == nil {
		return nil, api.ErrControlNotFound("world", c.Param("world"))
	}
	tx := w.Store.Read()
	r, err := state.Get[model.Report](tx, state.TableReports, c.Param("report_id"))
	if err != nil {
		return nil, api.ErrControlNotFound("report", c.Param("report_id"))
	}
	blob, ok := r.CSVBlobs[c.Param("report_type")]
	if !ok {
		return nil, apierr.NotFoundf("The %s report %s is not ready (or was not requested).", c.Param("report_type"), r.ID)
	}
	data, err := state.GetBlob(tx, blob)
	if err != nil {
		return nil, api.ErrControlNotFound("report file", blob)
	}
	h := http.Header{}
	h.Set("Content-Disposition", `attachment; filename="`+c.Param("report_type")+`-`+r.ID+`.csv"`)
	return &api.RawResponse{Status: http.StatusOK, ContentType: "text/csv; charset=utf-8", Header: h, Body: data}, nil
}

// eventTitle reads the title of an event's signature request or template
// snapshot ("" when it has none).
func eventTitle(e *model.Event) string {
	var obj struct {
		Title string `json:"title"`
	}
	if len(e.Object) > 0 {
		_ = json.Unmarshal(e.Object, &obj)
	}
	return obj.Title
}
