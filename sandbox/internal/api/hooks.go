package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// JobFunc is a scheduler job implemented by the sandbox.
type JobFunc func(s *Host, w *world.World, tx *state.Txn, job *state.Job) error

// RegisterJobs binds every job kind to this sandbox.
func RegisterJobs(s *Host) {
	for kind, fn := range s.Reg.JobKinds {
		s.Jobs.Handle(kind, func(w *world.World, tx *state.Txn, job *state.Job) error {
			return fn(s, w, tx, job)
		})
	}
}

// startWorld runs the world starters of s for a world it has just
// created (delivery workers and other per-world background work).
func (s *Host) startWorld(w *world.World) {
	for _, fn := range s.Reg.WorldStarters {
		fn(s, w)
	}
}
