package report

// The CSV content of reports, generated from the world's data: the accounts
// of the report's team, the events the world recorded (which every
// subsystem emits as it changes signature requests and templates) and the
// faxes. The same world gives the same bytes.

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/team"
)

// reportScope is what one report covers: its accounts and its time range
// [from, to) in Unix seconds (the end date is inclusive).
type reportScope struct {
	accounts []*model.Account
	ids      map[string]*model.Account
	from, to int64
}

func newReportScope(tx *state.Txn, r *model.Report) (*reportScope, error) {
	sc := &reportScope{ids: map[string]*model.Account{}}
	start, _ := time.Parse(reportDateLayout, r.StartDate)
	end, _ := time.Parse(reportDateLayout, r.EndDate)
	sc.from, sc.to = start.Unix(), end.AddDate(0, 0, 1).Unix()
	if r.TeamID != "" {
		members, err := state.MembersOfTeam(tx, r.TeamID)
		if err != nil {
			return nil, err
		}
		sc.accounts = members
	}
	if len(sc.accounts) == 0 {
		if a, err := state.Get[model.Account](tx, state.TableAccounts, r.AccountID); err == nil {
			sc.accounts = []*model.Account{a}
		}
	}
	for _, a := range sc.accounts {
		sc.ids[a.ID] = a
	}
	return sc, nil
}

func (sc *reportScope) in(t int64) bool { return t >= sc.from && t < sc.to }

// actor is the account an event is attributed to (the sender: the first of
// its accounts), when it is in scope.
func (sc *reportScope) actor(e *model.Event) *model.Account {
	if len(e.AccountIDs) == 0 {
		return nil
	}
	return sc.ids[e.AccountIDs[0]]
}

// buildReportCSV renders one report type from the report's scope and the
// world's events (read once for all the types of a report).
func buildReportCSV(tx *state.Txn, sc *reportScope, events []*model.Event, reportType string) ([]byte, error) {
	var rows [][]string
	var err error
	switch reportType {
	case "user_activity":
		rows, err = userActivityRows(tx, sc, events)
	case "document_status":
		rows = documentStatusRows(sc, events)
	default: // sms_activity: the sandbox sends no text messages
		rows = [][]string{{"Date (UTC)", "Account ID", "Email Address", "Signature Request ID", "Phone Number", "Message Type", "Status"}}
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// userActivityRows counts, per account, what it did in the range.
func userActivityRows(tx *state.Txn, sc *reportScope, events []*model.Event) ([][]string, error) {
	type counts struct{ sent, completed, declined, templates, faxes, faxPages int }
	by := map[string]*counts{}
	for _, a := range sc.accounts {
		by[a.ID] = &counts{}
	}
	for _, e := range events {
		a := sc.actor(e)
		if a == nil || !sc.in(e.Time) {
			continue
		}
		switch e.Type {
		case notify.TypeRequestSent:
			by[a.ID].sent++
		case notify.TypeRequestAllSigned:
			by[a.ID].completed++
		case notify.TypeRequestDeclined:
			by[a.ID].declined++
		case notify.TypeTemplateCreated:
			by[a.ID].templates++
		}
	}
	for _, a := range sc.accounts {
		faxes, err := state.FaxesOf(tx, a.ID)
		if err != nil {
			return nil, err
		}
		for _, f := range faxes {
			if f.Status == model.FaxSuccess && sc.in(f.SentAt) {
				by[a.ID].faxes++
				by[a.ID].faxPages += f.Pages
			}
		}
	}
	rows := [][]string{{"Account ID", "Email Address", "Name", "Role", "Signature Requests Sent",
		"Signature Requests Completed", "Signature Requests Declined", "Templates Created", "Faxes Sent", "Fax Pages Sent"}}
	for _, a := range sc.accounts {
		n := by[a.ID]
		role := ""
		if a.TeamID != "" {
			role = team.RoleName(a.RoleCode)
		}
		rows = append(rows, []string{a.ID, a.Email, a.Name, role, strconv.Itoa(n.sent), strconv.Itoa(n.completed),
			strconv.Itoa(n.declined), strconv.Itoa(n.templates), strconv.Itoa(n.faxes), strconv.Itoa(n.faxPages)})
	}
	return rows, nil
}

// documentStatusLabels turn the last event of a request into its status.
var documentStatusLabels = map[string]string{
	notify.TypeRequestAllSigned: "Completed",
	notify.TypeRequestDeclined:  "Declined",
	notify.TypeRequestCanceled:  "Canceled",
	notify.TypeRequestExpired:   "Expired",
	notify.TypeRequestDestroyed: "Removed",
	notify.TypeFileError:        "Error",
	notify.TypeUnknownError:     "Error",
	notify.TypeRequestInvalid:   "Error",
}

// documentStatusRows lists the signature requests of the scope's accounts
// that had events in the range, in the order they first appeared, with their
// status as of their last event in the range.
func documentStatusRows(sc *reportScope, events []*model.Event) [][]string {
	type doc struct {
		id, title, sender string
		last              *model.Event
	}
	var order []string
	docs := map[string]*doc{}
	for _, e := range events {
		if e.ObjectType != notify.ObjectSignatureRequest || e.ObjectID == "" || !sc.in(e.Time) {
			continue
		}
		d := docs[e.ObjectID]
		if d == nil {
			a := sc.actor(e)
			if a == nil {
				continue
			}
			d = &doc{id: e.ObjectID, sender: a.Email}
			docs[e.ObjectID] = d
			order = append(order, e.ObjectID)
		}
		if t := eventTitle(e); t != "" {
			d.title = t
		}
		d.last = e
	}
	rows := [][]string{{"Signature Request ID", "Title", "Sender Email Address", "Status", "Last Event", "Last Event Time (UTC)"}}
	for _, id := range order {
		d := docs[id]
		status, ok := documentStatusLabels[d.last.Type]
		if !ok {
			status = "Awaiting signature"
		}
		rows = append(rows, []string{d.id, d.title, d.sender, status, d.last.Type,
			time.Unix(d.last.Time, 0).UTC().Format("2006-01-02 15:04:05")})
	}
	return rows
}
