package fax

import (
	"net/http"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Faxes: POST /fax/send answers at once with the transmission
// "transmitting"; a scheduler job ends it faxTransmitDelay later in
// "success" or an error status. Pages are taken from the account's
// num_fax_pages_left when the fax is sent, counted in fax_pages_sent when it
// was transmitted, and given back when it failed or was deleted before it
// was transmitted; test_mode faxes cost nothing.

// registerFaxes adds the fax operations and the job that ends a
// transmission.
func registerFaxes(r *api.Registry) {
	r.Handle("faxSend", faxSend)
	r.Handle("faxGet", faxGet)
	r.Handle("faxList", faxList)
	r.Handle("faxDelete", faxDelete)
	r.Handle("faxFiles", faxFiles)
	r.RegisterJob(jobFaxTransmit, runFaxTransmit)
}

const (
	jobFaxTransmit = "fax.transmit"
	// faxTransmitDelay is how long a transmission takes.
	faxTransmitDelay = 30 * time.Second
	// maxPendingFaxes is how many faxes an account may have transmitting at
	// once before sends answer 429 max_faxes.
	maxPendingFaxes = 50
	// mailFax is the outbox kind of a fax delivered to an e-mail address.
	mailFax = "fax"
)

// faxOutcomes are the transmission results of recipient numbers by their
// last three digits (SIP response codes, for memorability); every other
// number, and every e-mail recipient, succeeds.
var faxOutcomes = map[string]string{
	"404": model.FaxErrorBadDestination,
	"480": model.FaxErrorNoAnswer,
	"486": model.FaxErrorBusy,
	"487": model.FaxErrorDisconnected,
	"500": model.FaxErrorUnknown,
	"503": model.FaxErrorCouldNotFax,
}

type faxSendRequest struct {
	Recipient        string      `json:"recipient"`
	Sender           string      `json:"sender"`
	Files            []wire.File `json:"files"`
	FileURLs         []string    `json:"file_urls"`
	TestMode         bool        `json:"test_mode"`
	CoverPageTo      string      `json:"cover_page_to"`
	CoverPageFrom    string      `json:"cover_page_from"`
	CoverPageMessage string      `json:"cover_page_message"`
	Title            string      `json:"title"`
}

// faxNumberDigits returns the digits of a fax number written in E.164 or
// with the usual separators, or "" when v is not one.
func faxNumberDigits(v string) string {
	s := strings.TrimSpace(v)
	s = strings.TrimPrefix(s, "+")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '(' || r == ')' || r == '.':
		default:
			return ""
		}
	}
	if n := b.Len(); n < 7 || n > 15 {
		return ""
	}
	return b.String()
}

func (r *faxSendRequest) validate(c *api.Call) error {
	r.Recipient = strings.TrimSpace(r.Recipient)
	switch {
	case r.Recipient == "":
		return apierr.Missing("recipient")
	case strings.Contains(r.Recipient, "@"):
		if err := param.CheckEmail("recipient", r.Recipient); err != nil {
			return err
		}
	case faxNumberDigits(r.Recipient) == "":
		return apierr.Badf("recipient", "Invalid recipient %q: give a fax number in E.164 format (such as +14155550123) or an e-mail address.", r.Recipient)
	}
	if r.Sender != "" {
		if faxNumberDigits(r.Sender) == "" {
			return apierr.Badf("sender", "Invalid sender %q: give a fax number in E.164 format.", r.Sender)
		}
		if strings.Contains(r.Recipient, "@") {
			c.Warn("parameter_ignored", "sender is only used when the recipient is a fax number and was ignored.")
			r.Sender = ""
		}
	}
	return nil
}

// hasCoverPage reports whether the fax gets a cover page (one more page).
func (r *faxSendRequest) hasCoverPage() bool {
	return faxCoverPage(r.CoverPageTo, r.CoverPageFrom, r.CoverPageMessage)
}

// faxCoverPage reports whether a fax with these cover page fields has a
// cover page: any of them given.
func faxCoverPage(to, from, message string) bool { return to != "" || from != "" || message != "" }

// faxSend sends a fax of uploaded files or file_urls.
func faxSend(c *api.Call) (any, error) {
	var req faxSendRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := req.validate(c); err != nil {
		return nil, err
	}
	pending, err := document.Collect(c.Host, c, req.Files, req.FileURLs)
	if err != nil {
		return nil, err
	}
	var out faxGetResponse
	err = c.Update(func(tx *state.Txn) error {
		me, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		if err := checkPendingFaxes(tx, me.ID); err != nil {
			return err
		}
		docs, err := document.Store(tx, pending)
		if err != nil {
			return err
		}
		pages := 0
		for _, d := range docs {
			pages += max(1, d.PageCount())
		}
		if req.hasCoverPage() {
			pages++
		}
		if !req.TestMode {
			if err := chargeFaxPages(tx, me, pages); err != nil {
				return err
			}
		}
		id := tx.NewID()
		title := req.Title
		if title == "" && len(docs) > 0 {
			title = docs[0].Name
		}
		sender := req.Sender
		if sender == "" {
			sender = me.Email
		}
		f := &model.Fax{
			ID: id, AccountID: me.ID, Title: title, OriginalTitle: title, Sender: sender, Recipient: req.Recipient,
			CoverPageTo: req.CoverPageTo, CoverPageFrom: req.CoverPageFrom, CoverPageMessage: req.CoverPageMessage,
			TestMode: req.TestMode, Documents: docs, Pages: pages, Status: model.FaxTransmitting,
			FilesURL: c.BaseURL() + "/v3/fax/files/" + id, CreatedAt: tx.Unix(), Seq: tx.Seq(),
		}
		if err := state.Put(tx, state.TableFaxes, f); err != nil {
			return err
		}
		if _, err := state.Schedule(tx, jobFaxTransmit, id, faxTransmitDelay, nil); err != nil {
			return err
		}
		out = faxGetResponse{Fax: viewFax(f)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func checkPendingFaxes(tx *state.Txn, accountID string) error {
	faxes, err := state.FaxesOf(tx, accountID)
	if err != nil {
		return err
	}
	n := 0
	for _, f := range faxes {
		if f.Status == model.FaxTransmitting && !f.Deleted {
			n++
		}
	}
	if n >= maxPendingFaxes {
		return apierr.New(apierr.MaxFaxes, "Too many faxes are being transmitted; wait until some have been sent.")
	}
	return nil
}

// chargeFaxPages takes pages from the account's num_fax_pages_left (null
// means unlimited): 402 when not enough are left.
func chargeFaxPages(tx *state.Txn, me *model.Account, pages int) error {
	left := me.Quotas.NumFaxPagesLeft
	if left == nil {
		return nil
	}
	if *left < pages {
		return apierr.PaymentRequiredf("This fax has %d page(s) but your account has %d fax page(s) left.", pages, *left)
	}
	a := state.Clone(me)
	a.Quotas.NumFaxPagesLeft = new(*left - pages)
	return state.Put(tx, state.TableAccounts, a)
}

// settleFaxPages records the end of a transmission on the sender's account:
// pages sent on success, pages given back otherwise.
func settleFaxPages(tx *state.Txn, f *model.Fax, sent bool) error {
	if f.TestMode {
		return nil
	}
	cur, err := state.Get[model.Account](tx, state.TableAccounts, f.AccountID)
	if err != nil {
		return nil
	}
	a := state.Clone(cur)
	switch {
	case sent:
		a.FaxPages += f.Pages
	case a.Quotas.NumFaxPagesLeft != nil:
		a.Quotas.NumFaxPagesLeft = new(*a.Quotas.NumFaxPagesLeft + f.Pages)
	default:
		return nil
	}
	return state.Put(tx, state.TableAccounts, a)
}

// faxOutcome decides how a transmission ends.
func faxOutcome(f *model.Fax) string {
	for _, d := range f.Documents {
		if d.Error != "" {
			return model.FaxErrorCouldNotFax
		}
	}
	if strings.Contains(f.Recipient, "@") {
		return model.FaxSuccess
	}
	digits := faxNumberDigits(f.Recipient)
	if len(digits) >= 3 {
		if status, ok := faxOutcomes[digits[len(digits)-3:]]; ok {
			return status
		}
	}
	return model.FaxSuccess
}

// runFaxTransmit ends a transmission.
func runFaxTransmit(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	cur, err := state.Get[model.Fax](tx, state.TableFaxes, job.Subject)
	if err != nil || cur.Deleted || cur.Status != model.FaxTransmitting {
		return nil
	}
	f := state.Clone(cur)
	f.Status, f.SentAt = faxOutcome(f), tx.Unix()
	if err := state.Put(tx, state.TableFaxes, f); err != nil {
		return err
	}
	if err := settleFaxPages(tx, f, f.Status == model.FaxSuccess); err != nil {
		return err
	}
	if f.Status == model.FaxSuccess && strings.Contains(f.Recipient, "@") {
		e := model.Email{Kind: mailFax, To: f.Recipient, Subject: "Fax: " + f.Title, Link: f.FilesURL, Title: f.Title}
		if a, err := state.Get[model.Account](tx, state.TableAccounts, f.AccountID); err == nil {
			e.FromName, e.ReplyTo = a.Name, a.Email
		}
		_, err := notify.Email(tx, e)
		return err
	}
	return nil
}

// callerFax finds a fax of the caller: 404 when unknown (or deleted, unless
// deletedOK), 403 when another account sent it.
func callerFax(c *api.Call, tx *state.Txn, deletedOK bool) (*model.Fax, error) {
	f, err := state.Get[model.Fax](tx, state.TableFaxes, c.Param("fax_id"))
	if err != nil || (f.Deleted && !deletedOK) {
		return nil, apierr.NotFoundf("Fax not found.").WithPath("fax_id")
	}
	if f.AccountID != c.Account.ID {
		return nil, apierr.Forbiddenf("You do not have access to this fax.").WithPath("fax_id")
	}
	return f, nil
}

// faxGet answers one fax.
func faxGet(c *api.Call) (any, error) {
	f, err := callerFax(c, c.Read(), false)
	if err != nil {
		return nil, err
	}
	return faxGetResponse{Fax: viewFax(f)}, nil
}

// faxList lists the caller's faxes, newest first.
func faxList(c *api.Call) (any, error) {
	page, size, err := api.ReadPaging(c)
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	all, err := state.FaxesOf(tx, c.Account.ID)
	if err != nil {
		return nil, err
	}
	var faxes []*model.Fax
	for i := len(all) - 1; i >= 0; i-- {
		if !all[i].Deleted {
			faxes = append(faxes, all[i])
		}
	}
	rows, info := api.PageSlice(faxes, page, size)
	out := faxListResponse{Faxes: []faxView{}, ListInfo: info}
	for _, f := range rows {
		out.Faxes = append(out.Faxes, viewFax(f))
	}
	return out, nil
}

// faxDelete deletes a fax (204). A fax still being transmitted is not sent
// and its pages are given back.
func faxDelete(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		cur, err := callerFax(c, tx, false)
		if err != nil {
			return err
		}
		f := state.Clone(cur)
		f.Deleted = true
		if f.Status == model.FaxTransmitting {
			if err := state.CancelJobs(tx, f.ID, jobFaxTransmit); err != nil {
				return err
			}
			if err := settleFaxPages(tx, f, false); err != nil {
				return err
			}
		}
		return state.Put(tx, state.TableFaxes, f)
	})
	if err != nil {
		return nil, err
	}
	return api.NoContent(), nil
}

// faxFiles downloads the fax as PDF; 410 once it was deleted.
func faxFiles(c *api.Call) (any, error) {
	tx := c.Read()
	f, err := callerFax(c, tx, true)
	if err != nil {
		return nil, err
	}
	if f.Deleted {
		return nil, apierr.Gone()
	}
	pdf, err := faxPDF(tx, f)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set("Content-Disposition", `attachment; filename="fax-`+f.ID+`.pdf"`)
	return &api.RawResponse{Status: http.StatusOK, ContentType: "application/pdf", Header: h, Body: pdf}, nil
}

// faxPDF is the fax as one PDF: the cover page when the fax has one, then
// its documents merged in order (a document that cannot be read is one page
// saying so, as it was counted), marked as a test document in test_mode,
// rendered by the documents subsystem. Its page count is the fax's Pages.
func faxPDF(tx *state.Txn, f *model.Fax) ([]byte, error) {
	comp := pdf.Composition{ID: f.ID, Title: f.Title, TestMode: f.TestMode, At: time.Unix(f.CreatedAt, 0).UTC()}
	readable := false
	for _, d := range f.Documents {
		src := pdf.Source{Name: d.Name}
		if d.PDFBlobID != "" {
			if b, err := state.GetBlob(tx, d.PDFBlobID); err == nil {
				src.PDF, readable = b, true
			}
		}
		comp.Documents = append(comp.Documents, src)
	}
	if !readable {
		return nil, apierr.NotFoundf("This fax has no file that could be read.")
	}
	if faxCoverPage(f.CoverPageTo, f.CoverPageFrom, f.CoverPageMessage) {
		comp.CoverPage = &pdf.CoverPage{To: f.CoverPageTo, From: f.CoverPageFrom, Message: f.CoverPageMessage,
			Recipient: f.Recipient, Sender: f.Sender, Pages: f.Pages}
	}
	pdf, _, err := pdf.RenderPDF(comp)
	return pdf, err
}
