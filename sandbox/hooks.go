package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobFunc is a scheduler job implemented by the sandbox.
type jobFunc func(s *Sandbox, w *world.World, tx *state.Txn, job *state.Job) error

// registerJobs binds every job kind to this sandbox. A template's
// preparation runs in a transaction of its own: its scenario failure hook
// reads the committed marks.
func registerJobs(s *Sandbox) {
	for kind, fn := range s.reg.jobKinds {
		s.jobs.Handle(kind, func(w *world.World, tx *state.Txn, job *state.Job) error {
			return fn(s, w, tx, job)
		})
	}
	s.jobs.RunAlone(jobTemplatePrepare)
}

// startWorld runs the world starters of s for a world it has just
// created (delivery workers and other per-world background work).
func (s *Sandbox) startWorld(w *world.World) {
	for _, fn := range s.reg.worldStarters {
		fn(s, w)
	}
}
