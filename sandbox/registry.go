package sandbox

import (
	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// registry is what one Sandbox serves and runs: its operations, control
// routes, job kinds and the hooks through which one area of the sandbox
// acts in another. Each area fills it in its register function, and New
// calls them all in one fixed order (registerAll), so that two sandboxes in
// one process never share a hook and a test that swaps one (a fault point)
// changes only its own sandbox.
type registry struct {
	// handlers maps operationId to its handler (see handle).
	handlers map[string]handler
	// controlRoutes are the /_sandbox routes in registration order, which
	// is the order the router tries them.
	controlRoutes []controlRoute
	// jobKinds maps job kinds to their functions (see registerJob).
	jobKinds map[string]jobFunc

	// worldStarters run when a world is created (delivery workers and other
	// per-world background work).
	worldStarters []func(s *host, w *world.World)
	// worldReplacedHooks run after a world's database was replaced (reset,
	// import): areas drop caches and wake their workers.
	worldReplacedHooks []func(s *host, w *world.World)

	// callHooks are consulted in order for every API call (see callHook).
	callHooks []callHook
	// afterCallHooks see every API call's result (recording, logs).
	afterCallHooks []func(c *call, v any, err error)
	// controlStartHooks see every control call whose world is known before
	// its handler runs (recording notes the world time the call started at).
	controlStartHooks []func(c *call)
	// afterControlHooks see every control call's result (recording).
	afterControlHooks []func(c *call, v any, err error)
	// callObservers see the record of every API and control call once
	// its answer is written (see observeCalls); callClock times the calls
	// (the wall clock unless a test gives another).
	callObservers []func(callRecord)
	callClock     clockwork.Clock
	// calls counts the observed calls for GET /_sandbox/metrics.
	calls *metrics.Calls

	// objectViews render an event's object as GET would show it to viewer
	// (an account id). Signature requests, templates and accounts register
	// theirs.
	objectViews map[string]notify.View
	// notifier records events and routes them to callback queues, with the
	// objects rendered by objectViews.
	notifier *notify.Notifier
	// catalog shows every kind of object of a world, for readers that must
	// not import the areas that own them (a console).
	catalog *catalog.Catalog
	// areas holds the hooks between areas that still live in the facade
	// (see areaHooks and areasOf); it is an areaHooks.
	areas any
}

// emptyRegistry returns a registry with nothing registered yet.
func emptyRegistry() *registry {
	r := &registry{
		handlers:    map[string]handler{},
		jobKinds:    map[string]jobFunc{},
		objectViews: map[string]notify.View{},
		catalog:     catalog.New(),
	}
	r.notifier = &notify.Notifier{Views: r.objectViews}
	return r
}

// handle attaches the handler of an official operation.
func (r *registry) handle(operationID string, h handler) {
	if _, dup := r.handlers[operationID]; dup {
		panic("sandbox: handler registered twice: " + operationID)
	}
	r.handlers[operationID] = h
}

// control adds a control route that acts on the caller's world.
func (r *registry) control(method, path string, h handler) {
	r.controlRoutes = append(r.controlRoutes, controlRoute{method: method, path: path, h: h})
}

// controlPublic adds a control route that needs no world.
func (r *registry) controlPublic(method, path string, h handler) {
	r.controlRoutes = append(r.controlRoutes, controlRoute{method: method, path: path, h: h, public: true})
}

// controlNoBody adds a control call that takes no parameters in its body
// (actions named by their path: reset, view, bounce...).
func (r *registry) controlNoBody(method, path string, h handler) {
	r.controlRoutes = append(r.controlRoutes, controlRoute{method: method, path: path, h: h, noBody: true})
}

// registerJob adds a job kind. Kinds are named "<resource>.<action>".
func (r *registry) registerJob(kind string, fn jobFunc) {
	if _, dup := r.jobKinds[kind]; dup {
		panic("sandbox: job kind registered twice: " + kind)
	}
	r.jobKinds[kind] = fn
}

// onWorldStart adds a function that runs when a world is created.
func (r *registry) onWorldStart(fn func(s *host, w *world.World)) {
	r.worldStarters = append(r.worldStarters, fn)
}
