package api

import (
	"strings"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Registry is what one Sandbox serves and runs: its operations, control
// routes, job kinds and the hooks through which one area of the sandbox
// acts in another. Each area fills it in its register function, and New
// calls them all (registerAll), so that two sandboxes in one process never
// share a hook and a test that swaps one (a fault point) changes only its
// own sandbox.
//
// A hook is a field here only where a call cannot be made: its caller sits
// on a lower level than the code that fills it (tools/levels: a package
// imports only lower levels), or the filler is there only in some
// sandboxes. Each field says who fills it, who calls it, and which of the
// two makes it a hook. Where the caller could import the callee, the
// caller calls it (callbacks.EmitTestAccount, not a hook).
type Registry struct {
	// Handlers maps operationId to its handler (see Handle). Filled by
	// every resource area; the router (NewRouter) calls them.
	Handlers map[string]Handler
	// ControlRoutes are the /_sandbox routes in registration order, which
	// is the order the router tries them; no two of one method can match
	// one path (addControl), so that order decides nothing.
	ControlRoutes []ControlRoute
	// jobs is the one job registry of the sandbox: every world it makes
	// runs its jobs from it (see RegisterJob).
	jobs *world.JobRegistry
	// host is the Host the jobs run with, bound once (bindJobs).
	host *Host

	// WorldStarters run when a world is created (Host.NewWorld): the
	// callbacks' delivery worker, the SMTP relay's worker (only with
	// WithSMTPRelay), the console's change feed (the facade). A hook
	// because api sits below all three.
	WorldStarters []func(s *Host, w *world.World)
	// WorldReplacedHooks run after a world's database was replaced (reset,
	// import; Host.AfterWorldReplaced, called by control): the callbacks'
	// and the SMTP relay's workers drop their caches and wake. A hook
	// because api and control sit below both.
	WorldReplacedHooks []func(s *Host, w *world.World)

	// CallHooks are consulted in order for every API call, after
	// authentication and before the handler (runCall; see CallHook): the
	// recorder notes the call's start, then scenario rules may answer the
	// call themselves (a fault). A hook because recording and scenarioworld sit
	// above api; the order is written down in register.go.
	CallHooks []CallHook
	// AfterCallHooks see every API call's result before it is written
	// (apiHandler): the recorder records the call, scenario rules mark a
	// template created by the call to fail. A hook for the same reason.
	AfterCallHooks []func(c *Call, v any, err error)
	// ControlStartHooks see every control call whose world is known before
	// its handler runs (runControl): the recorder notes the world time the
	// call started at. A hook because recording sits above api.
	ControlStartHooks []func(c *Call)
	// AfterControlHooks see every control call's result (controlHandler):
	// the recorder records it, the console's feed notes a change. A hook
	// because recording and the facade sit above api.
	AfterControlHooks []func(c *Call, v any, err error)
	// CallObservers see the record of every API and control call once its
	// answer is written (observeCall; added with ObserveCalls): the
	// metrics (WithMetrics) and the idle-world janitor (WithIdleWorldTTL),
	// both options of the facade, so only some sandboxes have them.
	// CallClock times the calls (the wall clock unless a test gives
	// another).
	CallObservers []func(CallRecord)
	CallClock     clockwork.Clock
	// Calls counts the observed calls for GET /_sandbox/metrics (set by
	// the facade's metrics, read by its metrics route).
	Calls *metrics.Calls

	// Catalog shows every kind of object of a world, for readers that must
	// not import the areas that own them: the console, and the notifier,
	// which renders an event's object through it as GET shows it to each
	// receiver. Each resource adds its kinds when it registers.
	Catalog *catalog.Catalog
	// notifier records events and routes them to callback queues, with the
	// objects rendered by Catalog.
	notifier *notify.Notifier
	// OnAccountConfirmed runs inside the transaction that confirms an
	// account (account's confirm call): signature requests sends the
	// requests it held for the unconfirmed account. A hook because account
	// sits below sigreq.
	OnAccountConfirmed func(s *Host, w *world.World, tx *state.Txn, a *model.Account) error
	// TemplateFailure lets scenario rules (scenarioworld, which fills it) turn a
	// template's creation into template_error (fail, with the message; ""
	// for the usual one); the template preparation job asks it. A hook
	// because template sits below scenarioworld.
	TemplateFailure func(w *world.World, t *model.Template) (fail bool, msg string)

	// TeamTransferHooks run, in registration order, after the API apps of
	// a removed team member moved (team's transfer job; added with
	// OnTeamOwnershipTransfer by sigreq, then template). A hook because
	// team sits below both.
	TeamTransferHooks []TeamTransferHook
	// FileOwners maps an object kind to its owner hooks (filled by sigreq
	// and template), through which the documents area prepares and serves
	// their files. A hook because document sits below both.
	FileOwners map[string]FileOwner
	// CallbackFault is the fault point of callback deliveries (nil: no
	// fault): scenario rules (scenarioworld) set it, a facade test may swap it
	// (CallbacksSetFault), and the callbacks' sender consults it before
	// every attempt. A hook because callbacks sits below scenarioworld.
	CallbackFault CallbackFaultHook
	// ProcessFault is the fault point of signature request processing
	// (nil: no fault); scenario rules set it (see ProcessFaultHook).
	ProcessFault ProcessFaultHook
}

// NewRegistry returns a registry with nothing registered yet.
func NewRegistry() *Registry {
	r := &Registry{
		Handlers:   map[string]Handler{},
		jobs:       world.NewJobRegistry(),
		FileOwners: map[string]FileOwner{},
		Catalog:    catalog.New(),
	}
	r.notifier = &notify.Notifier{Catalog: r.Catalog}
	return r
}

// Handle attaches the handler of an official operation.
func (r *Registry) Handle(operationID string, h Handler) {
	if _, dup := r.Handlers[operationID]; dup {
		panic("sandbox: handler registered twice: " + operationID)
	}
	r.Handlers[operationID] = h
}

// Control adds a control route that acts on the caller's world.
func (r *Registry) Control(method, path string, h Handler) {
	r.addControl(ControlRoute{Method: method, Path: path, h: h})
}

// ControlPublic adds a control route that needs no world.
func (r *Registry) ControlPublic(method, path string, h Handler) {
	r.addControl(ControlRoute{Method: method, Path: path, h: h, Public: true})
}

// ControlNoBody adds a control call that takes no parameters in its body
// (actions named by their path: reset, view, bounce...).
func (r *Registry) ControlNoBody(method, path string, h Handler) {
	r.addControl(ControlRoute{Method: method, Path: path, h: h, NoBody: true})
}

// addControl adds a control route, refusing (a panic, at New) one that
// could answer a request another route of the same method answers: control
// routes never compete for a path, so the order they are registered in
// decides nothing about which one serves a call.
func (r *Registry) addControl(cr ControlRoute) {
	for _, o := range r.ControlRoutes {
		if o.Method == cr.Method && pathsOverlap(o.Path, cr.Path) {
			panic("sandbox: control routes " + cr.Method + " " + o.Path + " and " + cr.Path + " can match the same path")
		}
	}
	r.ControlRoutes = append(r.ControlRoutes, cr)
}

// pathsOverlap reports whether some path could match both templates: as
// many segments, and in each either equal literals or a variable (a segment
// holding "{", which matches any non-empty segment) against anything but an
// empty segment.
func pathsOverlap(a, b string) bool {
	sa, sb := strings.Split(a, "/"), strings.Split(b, "/")
	if len(sa) != len(sb) {
		return false
	}
	for i := range sa {
		va, vb := strings.Contains(sa[i], "{"), strings.Contains(sb[i], "{")
		switch {
		case va && vb:
		case va:
			if sb[i] == "" {
				return false
			}
		case vb:
			if sa[i] == "" {
				return false
			}
		case sa[i] != sb[i]:
			return false
		}
	}
	return true
}

// RegisterJob adds a job kind. Kinds are named "<resource>.<action>"; a
// kind registered twice panics. The job runs with the Host the registry is
// bound to (bindJobs).
func (r *Registry) RegisterJob(kind string, fn JobFunc) {
	r.jobs.Handle(kind, func(w *world.World, tx *state.Txn, job *model.Job) error {
		return fn(r.host, w, tx, job)
	})
}

// RegisterJobAlone adds a job kind whose jobs run each in a transaction of
// its own (world.JobRegistry.RunAlone): one that reads the committed state
// besides its transaction.
func (r *Registry) RegisterJobAlone(kind string, fn JobFunc) {
	r.RegisterJob(kind, fn)
	r.jobs.RunAlone(kind)
}

// Job returns the function of a job kind, bound to the registry's Host (nil
// for a kind nobody registered): scenario seeding runs jobs by hand.
func (r *Registry) Job(kind string) world.JobFunc { return r.jobs.Func(kind) }

// JobKinds lists the registered job kinds, sorted.
func (r *Registry) JobKinds() []string { return r.jobs.Kinds() }

// OnWorldStart adds a function that runs when a world is created.
func (r *Registry) OnWorldStart(fn func(s *Host, w *world.World)) {
	r.WorldStarters = append(r.WorldStarters, fn)
}

// TeamTransferHook moves one kind of object of a removed team member to the
// account of new_owner_email_address, inside the transfer job.
type TeamTransferHook func(s *Host, w *world.World, tx *state.Txn, fromAccountID, toAccountID string) error

// OnTeamOwnershipTransfer adds a transfer hook: the owners of signature
// requests and templates move theirs through it, so that all of a removed
// member's objects move in one job, as the official
// TeamRemoveMemberRequest describes new_owner_email_address.
func (r *Registry) OnTeamOwnershipTransfer(h TeamTransferHook) {
	r.TeamTransferHooks = append(r.TeamTransferHooks, h)
}
