package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobFunc is a scheduler job implemented by the sandbox.
type jobFunc func(s *Sandbox, w *world.World, tx *state.Txn, job *state.Job) error

// jobKinds maps job kinds to their functions; files that schedule jobs add
// their kinds from init functions (see registerJob).
var jobKinds = map[string]jobFunc{}

// registerJob adds a job kind. Kinds are named "<resource>.<action>".
func registerJob(kind string, fn jobFunc) {
	if _, dup := jobKinds[kind]; dup {
		panic("sandbox: job kind registered twice: " + kind)
	}
	jobKinds[kind] = fn
}

// registerJobs binds every job kind to this sandbox.
func registerJobs(s *Sandbox) {
	for kind, fn := range jobKinds {
		s.jobs.Handle(kind, func(w *world.World, tx *state.Txn, job *state.Job) error {
			return fn(s, w, tx, job)
		})
	}
}

// worldStarters run when a world is created (delivery workers and other
// per-world background work register here).
var worldStarters []func(s *Sandbox, w *world.World)

func onWorldStart(fn func(s *Sandbox, w *world.World)) { worldStarters = append(worldStarters, fn) }

func (s *Sandbox) startWorld(w *world.World) {
	for _, fn := range worldStarters {
		fn(s, w)
	}
}

// onAccountCallbackSet runs, inside the updating transaction, when an
// account's callback URL is set to a new value (the callback_test event).
var onAccountCallbackSet func(s *Sandbox, w *world.World, tx *state.Txn, a *state.Account) error

// onAccountCreated runs inside the transaction that creates an account
// through the API (confirmation, account_confirmed).
var onAccountCreated func(s *Sandbox, w *world.World, tx *state.Txn, a *state.Account) error
