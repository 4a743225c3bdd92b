package sigreq

import "github.com/signsandbox/signsandbox/sandbox/internal/api"

// RegisterLifecycle installs what moves requests after they are created:
// the eID control call (POST /_sandbox/signatures/{id}/eid_incomplete), the
// file owner through which the documents area prepares and serves their
// files, the jobs (processing, expiry, reminders, test values), the hold
// released when an account confirms, and the team ownership transfer. It is
// one call because the facade registers all of them at one place; their
// order here is the order they always had.
func RegisterLifecycle(r *api.Registry) {
	registerEID(r)
	registerFiles(r)
	registerJobs(r)
	registerHold(r)
	registerTransfer(r)
}
