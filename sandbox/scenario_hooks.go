package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// worldReplacedHooks run after a world's database was replaced (reset,
// import): subsystems drop caches and wake their workers.
var worldReplacedHooks []func(s *Sandbox, w *world.World)

func (s *Sandbox) afterWorldReplaced(w *world.World) {
	for _, fn := range worldReplacedHooks {
		fn(s, w)
	}
	w.Wake()
}
