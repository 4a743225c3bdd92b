package callbacks

import "github.com/signsandbox/signsandbox/sandbox/internal/api"

// Register adds the callbacks area to r: the world hooks that start and
// wake a world's delivery worker, the callback_test hooks, then the control
// routes, in that order.
func Register(r *api.Registry) {
	registerHooks(r)
	registerControl(r)
}
