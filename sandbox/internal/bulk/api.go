package bulk

// Bulk send: signatureRequestBulkSendWithTemplate and
// signatureRequestBulkCreateEmbeddedWithTemplate accept a job of up to 250
// requests from templates with one signer role and answer at once; a
// scheduler job creates the requests (jobs.go). bulkSendJobGet and
// bulkSendJobList read the jobs.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterAPI adds the four Bulk Send operations to the registry: the two
// that accept a job and the two that read jobs.
func RegisterAPI(r *api.Registry) {
	r.Handle("signatureRequestBulkSendWithTemplate", func(c *api.Call) (any, error) { return bulkSend(c, false) })
	r.Handle("signatureRequestBulkCreateEmbeddedWithTemplate", func(c *api.Call) (any, error) { return bulkSend(c, true) })
	r.Handle("bulkSendJobGet", bulkSendJobGet)
	r.Handle("bulkSendJobList", bulkSendJobList)
}

// bulkSend validates a bulk send body, binds every entry to the templates
// and queues the job. Refusals: 403 without a paid plan outside test_mode
// ("Standard plan and higher"), 400 for bad input naming the field (the
// entry, or signer_file with the CSV line), 402 when the quota cannot
// cover every request, and the templates' own errors (404, 409, ...).
func bulkSend(c *api.Call, embedded bool) (any, error) {
	var b sigreq.Body
	if err := c.Bind(&b); err != nil {
		return nil, err
	}
	var bb bulkBody
	if err := c.Bind(&bb); err != nil {
		return nil, err
	}
	if !c.Account.IsPaidHS && !b.TestMode {
		return nil, apierr.Forbiddenf(msgBulkPlan)
	}
	// Signers come from the signer list only (the bulk schemas have no
	// signers or grouped_signers).
	b.Signers, b.GroupedSigners = nil, nil
	if len(b.TemplateIDs) == 0 {
		return nil, apierr.Missing("template_ids")
	}
	if embedded && strings.TrimSpace(b.ClientID) == "" {
		return nil, apierr.Missing("client_id")
	}
	spec, e := b.Spec(c, sigreq.Op{Embedded: embedded, Template: true})
	if e != nil {
		return nil, e
	}
	if embedded {
		// Unlike create_embedded_with_template, the embedded bulk schema
		// has signing_redirect_url.
		if e := param.CheckRedirectURL("signing_redirect_url", b.SigningRedirectURL); e != nil {
			return nil, e
		}
		spec.SigningRedirectURL = b.SigningRedirectURL
	}
	entries, e := bulkEntries(c, &bb)
	if e != nil {
		return nil, e
	}
	for _, ent := range entries {
		if e := checkEntry(ent, b.TestMode); e != nil {
			return nil, e
		}
	}
	// template_ids, ccs and custom_fields are checked as send_with_template
	// checks them; the entries' signers were checked above.
	tb, e := b.CheckTemplateBody(c, true)
	if e != nil {
		return nil, e
	}
	var job *model.BulkSendJob
	err := c.Update(func(tx *state.Txn) error {
		acct, err := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
		if err != nil {
			return apierr.NotFoundf("Account not found.")
		}
		if e := spec.CheckClientID(tx, acct); e != nil {
			return e
		}
		if left := acct.Quotas.APISignatureRequestsLeft; !spec.TestMode && left != nil && *left < len(entries) {
			return apierr.PaymentRequiredf("%s (the job needs %d signature requests, %d are left).", apierr.MsgPaymentRequired, len(entries), *left)
		}
		spec.Requester = acct
		job, err = queueBulkJob(c, tx, spec, tb, entries, embedded)
		return err
	})
	if err != nil {
		return nil, err
	}
	spec.WarnUnconfirmed(c)
	return bulkSendJobSendResponse{BulkSendJob: viewBulkJob(job, c.Account.ID)}, nil
}

// queueBulkJob resolves the templates once, binds every entry to them,
// stores the job and schedules the creation of its requests after the
// world's SendProcessingDelay. What binding warns about the job as a whole
// is said once: its warnings go through warnOnce.
func queueBulkJob(c *api.Call, tx *state.Txn, spec *sigreq.Spec, tb *sigreq.TemplateBody, entries []bulkEntry, embedded bool) (*model.BulkSendJob, error) {
	use, err := tb.Resolve(c, tx)
	if err != nil {
		return nil, err
	}
	if len(use.SignerRoles) != 1 {
		return nil, apierr.Badf("template_ids", "%s; the template(s) have %d: %s.", msgBulkRoles, len(use.SignerRoles), strings.Join(use.RoleNames(), ", "))
	}
	role, merge := use.SignerRoles[0].Name, mergeNames(use)
	job := &model.BulkSendJob{
		ID: tx.NewID(), Seq: tx.Seq(), AccountID: spec.Requester.ID, ClientID: spec.ClientID, Embedded: embedded,
		TestMode: spec.TestMode, Total: len(entries), CreatedAt: tx.Unix(),
	}
	var base *sigreq.Spec
	for i, ent := range entries {
		bound, e := bindEntry(c, use, *spec, *tb, ent, role, merge)
		if e != nil {
			return nil, e
		}
		if i == 0 {
			base = bound
		}
		job.Items = append(job.Items, model.BulkSendItem{Signers: bound.Signers, CustomFields: bound.CustomFields})
	}
	if base.AllowReassign {
		c.Warn("reassign_unsupported", "The template allows signer reassignment, which bulk send does not support: the requests are sent without it.")
		base.AllowReassign = false
	}
	base.Embedded, base.BulkSendJobID = embedded, job.ID
	base.Signers, base.CustomFields = nil, nil
	if base.Title == "" && len(base.Documents) > 0 {
		base.Title = base.Documents[0].Title()
	}
	if job.Spec, err = base.Encode(); err != nil {
		return nil, err
	}
	if err := state.Put(tx, state.TableBulkSendJobs, job); err != nil {
		return nil, err
	}
	_, err = state.Schedule(tx, jobBulkSend, job.ID, state.GetConfig(tx).SendProcessingDelay.D(), nil)
	return job, err
}

// bulkSendJobGet answers a job the caller can see with a page of its
// requests (in signer list order; canceled requests and requests the caller
// removed are left out).
func bulkSendJobGet(c *api.Call) (any, error) {
	page, size, err := api.ReadPaging(c)
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	job, err := state.Get[model.BulkSendJob](tx, state.TableBulkSendJobs, c.Param("bulk_send_job_id"))
	if err != nil || !bulkJobVisible(tx, job, c.Account) {
		return nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	var reqs []*model.SignatureRequest
	for _, id := range job.RequestIDs {
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
		if err != nil || req.Phase == model.PhaseCanceled || !sigreq.Visible(tx, req, c.Account) {
			continue
		}
		reqs = append(reqs, req)
	}
	rows, info := api.PageSlice(reqs, page, size)
	out := bulkSendJobGetResponse{
		BulkSendJob:       viewBulkJob(job, c.Account.ID),
		ListInfo:          info,
		SignatureRequests: []sigreq.Response{},
	}
	for _, req := range rows {
		out.SignatureRequests = append(out.SignatureRequests, sigreq.View(req, c.Account.ID))
	}
	return out, nil
}

// bulkSendJobList answers the jobs of the caller and of its team, newest
// first (is_creator tells them apart).
func bulkSendJobList(c *api.Call) (any, error) {
	page, size, err := api.ReadPaging(c)
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	accounts, e := api.ListAccounts(tx, c.Account, "all")
	if e != nil {
		return nil, e
	}
	jobs, err := state.BulkSendJobsOf(tx, accounts)
	if err != nil {
		return nil, err
	}
	rows, info := api.PageSlice(jobs, page, size)
	out := bulkSendJobListResponse{ListInfo: info, BulkSendJobs: []bulkSendJobResponse{}}
	for _, j := range rows {
		out.BulkSendJobs = append(out.BulkSendJobs, viewBulkJob(j, c.Account.ID))
	}
	return out, nil
}

// bulkJobVisible: a job is seen by its sender and the sender's team.
func bulkJobVisible(tx *state.Txn, job *model.BulkSendJob, acct *model.Account) bool {
	if job.AccountID == acct.ID {
		return true
	}
	return acct.TeamID != "" && api.SameTeam(tx, job.AccountID, acct.ID)
}
