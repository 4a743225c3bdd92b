package sigreq

import (
	"encoding/json"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Job kinds of signature requests.
const (
	JobProcess      = "signature_request.process"
	jobExpire       = "signature_request.expire"
	jobSigreqCancel = "signature_request.cancel"
	JobDownloadable = "signature_request.downloadable"
)

// JobArgs ties a job to the request version it was scheduled for: an
// edit starts a new generation and the older jobs do nothing.
type JobArgs struct {
	Generation int `json:"generation"`
}

func registerJobs(r *api.Registry) {
	r.RegisterJob(JobProcess, runSigreqProcess)
	r.RegisterJob(jobTestValue, runTestValue) // test_values.go
	r.RegisterJob(jobExpire, func(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
		req := JobRequest(tx, job)
		if req == nil {
			return nil
		}
		return applyOutcome(s, tx, expire(req, tx.Unix()))
	})
	r.RegisterJob(jobSigreqCancel, func(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
		req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
		if err != nil {
			return nil
		}
		return applyOutcome(s, tx, completeCancel(req, tx.Unix()))
	})
	r.RegisterJob(jobAutoRemind, runAutoRemind) // reminders.go
	r.RegisterJob(JobDownloadable, func(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
		req := JobRequest(tx, job)
		if req == nil || req.Phase != model.PhaseComplete || req.CancelPending {
			return nil
		}
		return emitForRequest(s, tx, req, sigEvent{Type: notify.TypeRequestDownloadable})
	})
}

// cancelRequestJobs drops a request's queued processing, expiry,
// reminder, downloadable and test value jobs: an edit starts them over, a
// completed cancelation ends them.
func cancelRequestJobs(tx *state.Txn, id string) error {
	return state.CancelJobs(tx, id, JobProcess, jobExpire, jobAutoRemind, JobDownloadable, jobTestValue)
}

// JobRequest loads a job's request when the job still applies to it.
func JobRequest(tx *state.Txn, job *model.Job) *model.SignatureRequest {
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, job.Subject)
	if err != nil {
		return nil
	}
	gen, ok := jobGeneration(job.Args)
	if !ok || gen != req.Generation {
		return nil
	}
	return req
}

// jobGeneration reads a job's JobArgs: its generation, and false when the
// arguments are not JobArgs. The arguments as Schedule writes them,
// {"generation":N}, are read here: a clock advance reads those of every
// request it processes, and the decoder spent five allocations on each.
// Anything else (another spelling in an imported state) is decoded by
// encoding/json as before.
func jobGeneration(raw json.RawMessage) (int, bool) {
	if len(raw) == 0 {
		return 0, true
	}
	if n, ok := scheduledGeneration(raw); ok {
		return n, true
	}
	var args JobArgs
	if json.Unmarshal(raw, &args) != nil {
		return 0, false
	}
	return args.Generation, true
}

// scheduledGeneration reads {"generation":N} exactly as json.Marshal
// writes JobArgs: N without sign, leading zeros or more digits than an
// int surely holds; false for anything else.
func scheduledGeneration(raw []byte) (int, bool) {
	const prefix = `{"generation":`
	if len(raw) < len(prefix)+2 || string(raw[:len(prefix)]) != prefix || raw[len(raw)-1] != '}' {
		return 0, false
	}
	digits := raw[len(prefix) : len(raw)-1]
	if len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// runSigreqProcess ends processing: sent, held, or in error. Failures in
// the order the service meets them: one a scenario injects, one a test
// value asks for (a trigger document, an invalid address), a document
// that cannot be read (error_file), invalid text tags (error_text_tag), a
// field outside its page (error_component_position).
func runSigreqProcess(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	req := JobRequest(tx, job)
	if req == nil || req.Phase != model.PhaseProcessing {
		return nil
	}
	now := tx.Unix()
	if fault := s.Reg().ProcessFault; fault != nil {
		if f := fault(s, w, tx, req); f != nil {
			return applyOutcome(s, tx, fail(req, *f, now))
		}
	}
	if f := testValueFailure(tx, req); f != nil { // test_values.go
		return applyOutcome(s, tx, fail(req, *f, now))
	}
	if o := tTextTagError(req, "", now); o != nil { // text_tags.go
		return applyOutcome(s, tx, o)
	}
	if o := failPlacement(req, now); o != nil { // placement.go
		return applyOutcome(s, tx, o)
	}
	return applyOutcome(s, tx, process(req, "", now))
}
