package bulk

// The scheduler job of a bulk send: it creates the job's requests, one per
// signer list entry, in order, each through sigreq.Create (quota
// per request outside test_mode, processing and signature_request_sent as
// for any request), carrying the job's bulk_send_job_id. An entry whose
// request cannot be created because the quota ran out after the job was
// accepted is recorded as a failure; the others go on.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobBulkSend creates the requests of a bulk send job (subject: the job).
const jobBulkSend = "bulk_send_job.send"

// RegisterJobs adds the scheduler job that creates a bulk send's requests.
func RegisterJobs(r *api.Registry) { r.RegisterJob(jobBulkSend, runBulkSend) }

func runBulkSend(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
	j, err := state.Get[model.BulkSendJob](tx, state.TableBulkSendJobs, job.Subject)
	if err != nil || j.SentAt != 0 {
		return nil
	}
	n := state.Clone(j)
	n.Items, n.Spec, n.SentAt = nil, nil, tx.Unix()
	n.RequestIDs = append([]string(nil), j.RequestIDs...)
	n.Failures = append([]model.BulkSendFailure(nil), j.Failures...)
	acct, err := state.Get[model.Account](tx, state.TableAccounts, j.AccountID)
	if err != nil {
		for i := range j.Items {
			n.Failures = append(n.Failures, model.BulkSendFailure{Index: i, Error: "The sending account no longer exists."})
		}
		return state.Put(tx, state.TableBulkSendJobs, n)
	}
	base, err := sigreq.DecodeSpec(j.Spec)
	if err != nil {
		return err
	}
	for i, item := range j.Items {
		spec := *base
		spec.Requester = acct
		spec.Signers, spec.CustomFields = item.Signers, item.CustomFields
		req, err := sigreq.Create(tx, &spec)
		if err != nil {
			if ae, ok := apierr.As(err); ok {
				n.Failures = append(n.Failures, model.BulkSendFailure{Index: i, Error: ae.Msg})
				continue
			}
			return err
		}
		n.RequestIDs = append(n.RequestIDs, req.ID)
	}
	return state.Put(tx, state.TableBulkSendJobs, n)
}
