package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// JobFunc is a scheduler job implemented by the sandbox.
type JobFunc func(s *Host, w *world.World, tx *state.Txn, job *model.Job) error

// bindJobs makes s the Host its registry's jobs run with (NewHost). Once,
// before s makes its first world; a registry serves one Host.
func bindJobs(s *Host) {
	if s.reg.host != nil && s.reg.host != s {
		panic("sandbox: a registry's jobs are bound to another host")
	}
	s.reg.host = s
}

// startWorld runs the world starters of s for a world it has just
// created (delivery workers and other per-world background work).
func (s *Host) startWorld(w *world.World) {
	for _, fn := range s.reg.WorldStarters {
		fn(s, w)
	}
}
