package sigreq

import (
	"encoding/json"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Job kinds of signature requests.
const (
	JobProcess      = "signature_request.process"
	JobExpire       = "signature_request.expire"
	jobSigreqCancel = "signature_request.cancel"
	JobDownloadable = "signature_request.downloadable"
)

// JobArgs ties a job to the request version it was scheduled for: an
// edit starts a new generation and the older jobs do nothing.
type JobArgs struct {
	Generation int `json:"generation"`
}

func RegisterJobs(r *api.Registry) {
	r.RegisterJob(JobProcess, runSigreqProcess)
	r.RegisterJob(JobExpire, func(s *api.Host, _ *world.World, tx *state.Txn, job *state.Job) error {
		req := JobRequest(tx, job)
		if req == nil {
			return nil
		}
		return ApplyOutcome(s, tx, TExpire(req, tx.Unix()))
	})
	r.RegisterJob(jobSigreqCancel, func(s *api.Host, _ *world.World, tx *state.Txn, job *state.Job) error {
		req, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
		if err != nil {
			return nil
		}
		return ApplyOutcome(s, tx, TCancelComplete(req, tx.Unix()))
	})
	r.RegisterJob(JobDownloadable, func(s *api.Host, _ *world.World, tx *state.Txn, job *state.Job) error {
		req := JobRequest(tx, job)
		if req == nil || req.Phase != state.PhaseComplete || req.CancelPending {
			return nil
		}
		return emitForRequest(s, tx, req, SigEvent{Type: notify.TypeRequestDownloadable})
	})
}

// cancelRequestJobs drops a request's queued processing, expiry and
// downloadable jobs: an edit starts them over, a completed cancelation ends
// them.
func cancelRequestJobs(tx *state.Txn, id string) error {
	for _, kind := range []string{JobProcess, JobExpire, JobDownloadable} {
		if err := state.CancelJobs(tx, id, kind); err != nil {
			return err
		}
	}
	return nil
}

// JobRequest loads a job's request when the job still applies to it.
func JobRequest(tx *state.Txn, job *state.Job) *state.SignatureRequest {
	req, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
	if err != nil {
		return nil
	}
	var args JobArgs
	if len(job.Args) > 0 {
		if json.Unmarshal(job.Args, &args) != nil {
			return nil
		}
	}
	if args.Generation != req.Generation {
		return nil
	}
	return req
}

// runSigreqProcess ends processing: sent, held, or in error. Failures in
// the order the service meets them: one a scenario injects, a document
// that cannot be read (error_file), invalid text tags (error_text_tag), a
// field outside its page (error_component_position).
func runSigreqProcess(s *api.Host, w *world.World, tx *state.Txn, job *state.Job) error {
	req := JobRequest(tx, job)
	if req == nil || req.Phase != state.PhaseProcessing {
		return nil
	}
	now := tx.Unix()
	if HooksOf(s.Reg).ProcessFault != nil {
		if f := HooksOf(s.Reg).ProcessFault(s, w, tx, req); f != nil {
			return ApplyOutcome(s, tx, TFail(req, *f, now))
		}
	}
	if o := tTextTagError(req, "", now); o != nil { // text_tags.go
		return ApplyOutcome(s, tx, o)
	}
	if o := TPlacementError(req, now); o != nil { // placement.go
		return ApplyOutcome(s, tx, o)
	}
	return ApplyOutcome(s, tx, TProcess(req, "", now))
}
