package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// AfterWorldReplaced runs the hooks of s after w's database was replaced
// (reset, import) and wakes w's workers.
func (s *Host) AfterWorldReplaced(w *world.World) {
	for _, fn := range s.reg.WorldReplacedHooks {
		fn(s, w)
	}
	w.Wake()
}
