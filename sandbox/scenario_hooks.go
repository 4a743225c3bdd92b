package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// afterWorldReplaced runs the hooks of s after w's database was replaced
// (reset, import) and wakes w's workers.
func (s *host) afterWorldReplaced(w *world.World) {
	for _, fn := range s.reg.worldReplacedHooks {
		fn(s, w)
	}
	w.Wake()
}
