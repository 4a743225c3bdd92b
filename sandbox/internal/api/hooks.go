package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// JobFunc is a scheduler job implemented by the sandbox.
type JobFunc func(s *Host, w *world.World, tx *state.Txn, job *state.Job) error

// BindJobs makes s the Host its registry's jobs run with. Call it once,
// before s makes its first world; a registry serves one Host.
func BindJobs(s *Host) {
	if s.Reg.host != nil && s.Reg.host != s {
		panic("sandbox: a registry's jobs are bound to another host")
	}
	s.Reg.host = s
}

// startWorld runs the world starters of s for a world it has just
// created (delivery workers and other per-world background work).
func (s *Host) startWorld(w *world.World) {
	for _, fn := range s.Reg.WorldStarters {
		fn(s, w)
	}
}
