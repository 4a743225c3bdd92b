package sandbox

import (
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/account"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apiapp"
	"github.com/signsandbox/signsandbox/sandbox/internal/bulk"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/control"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fax"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
	"github.com/signsandbox/signsandbox/sandbox/internal/report"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/team"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/unclaimed"
)

// newRegistry returns a registry filled by every area of the sandbox.
func newRegistry() *api.Registry {
	r := api.NewRegistry()
	registerAll(r)
	return r
}

// registerAll is the one place that says what a sandbox is made of: it
// runs every area's register function, in the order of areas.
func registerAll(r *api.Registry) {
	for _, register := range areas {
		register(r)
	}
}

// areas are the register functions of every area of a sandbox.
//
// Their order decides nothing about routing: an operation's handler is
// found by its operationId, the API routes are sorted by specificity when
// the router is built (fewer path variables first), and no two control
// routes of one method can match the same path (Registry.addControl refuses
// such a pair), so whichever order they are registered in, every request is
// served by the same route. TestRoutingIgnoresRegistrationOrder registers
// the areas in shuffled orders and checks that.
//
// The order does decide the order of hooks that run in a list, and there
// exactly these orderings matter:
//   - recording.RegisterHooks before scenarioworld.RegisterRules: both add a
//     CallHook, and a scenario fault rule may answer a call itself, which
//     stops the list; the recorder must have noted the call's start first,
//     so that a faulted call is recorded too.
//   - sigreq.RegisterLifecycle before template.RegisterTransfer: a removed
//     team member's signature requests move before the templates, and the
//     changes the team transfer job writes (so the data directory's
//     journal of that transaction) follow that order.
//
// Every other list hook is independent of its neighbours (world starters
// and world-replaced hooks start or wake workers of their own area; the
// after-call and control hooks each record or mark their own state), and
// single hooks and keyed registries (FileOwners, the catalog, job kinds)
// are set once. TestGoldenRegistry pins what the list produces.
var areas = []func(*api.Registry){
	// The official operations, by tag.
	account.Register,
	apiapp.Register,
	bulk.RegisterAPI,
	fax.Register,
	oauth.Register,
	report.Register,
	sigreq.RegisterAPI, // with create and list
	team.Register,
	template.RegisterAPI,
	template.RegisterOverlay,
	template.RegisterShare,
	template.RegisterUpdate,
	unclaimed.RegisterAPI,
	bulk.RegisterJobs,

	// Callbacks, then the control plane.
	callbacks.Register,
	account.RegisterConfirm,
	sigreq.RegisterControlFailures,
	control.RegisterKeys,
	recording.RegisterControl,
	scenarioworld.RegisterControl,
	sigreq.RegisterControlSigners,
	control.RegisterState,
	template.RegisterControl,
	unclaimed.RegisterControl,
	control.RegisterWorld,

	// Pages, files, the outbox and the operation list.
	template.RegisterEditor,
	sigreq.RegisterSignPage,
	document.Register,
	control.RegisterOutbox,
	api.RegisterRoutesInfo,
	registerMetrics,

	// Scenarios at work: jobs, recording, rules (fault points).
	scenarioworld.RegisterJobs,
	recording.RegisterHooks,
	scenarioworld.RegisterRules,

	// Signature requests, templates, drafts and their object views.
	sigreq.RegisterLifecycle, // eID control call, files, jobs, hold, transfer
	template.RegisterPrepare,
	template.RegisterTransfer,
	unclaimed.RegisterClaim,
	unclaimed.RegisterPage,
	sigreq.RegisterViews,
	template.RegisterViews,

	// The read side of the other kinds (catalog).
	account.RegisterViews,
	apiapp.RegisterViews,
	bulk.RegisterViews,
	fax.RegisterViews,
	team.RegisterViews,
	unclaimed.RegisterViews,

	// The console for people.
	registerConsole,
}

// Operations lists the route table in its order (by tag, then operationId):
// every operation of the official description and whether the sandbox
// implements it. GET /_sandbox/operations answers the same list.
func Operations() []Operation { return productRegistry().Operations() }

// productRegistry is what every sandbox registers, built once for the
// questions asked without a sandbox at hand (Operations, the scenario
// vocabulary). It is only read.
func productRegistry() *api.Registry {
	productOnce.Do(func() { productReg = newRegistry() })
	return productReg
}

var (
	productOnce sync.Once
	productReg  *api.Registry
)
