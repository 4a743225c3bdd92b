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
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/stage"
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

// registerAll is the one place that says what a sandbox is made of. The
// order matters where a registry keeps it: control routes are tried by the
// router in this order, hooks run in this order. TestGoldenRegistry pins
// the result.
func registerAll(r *api.Registry) {
	// The official operations, by tag.
	account.Register(r)
	apiapp.Register(r)
	bulk.RegisterAPI(r)
	fax.Register(r)
	oauth.Register(r)
	report.Register(r)
	sigreq.RegisterAPI(r) // with create and list
	team.Register(r)
	template.RegisterAPI(r)
	template.RegisterOverlay(r)
	template.RegisterShare(r)
	template.RegisterUpdate(r)
	unclaimed.RegisterAPI(r)
	bulk.RegisterJobs(r)

	// Callbacks, then the control plane.
	callbacks.Register(r)
	account.RegisterConfirm(r)
	sigreq.RegisterControlFailures(r)
	control.RegisterKeys(r)
	recording.RegisterControl(r)
	stage.RegisterControl(r)
	sigreq.RegisterControlSigners(r)
	control.RegisterState(r)
	template.RegisterControl(r)
	unclaimed.RegisterControl(r)
	control.RegisterWorld(r)

	// Pages, files, the outbox and the operation list.
	template.RegisterEditor(r)
	sigreq.RegisterSignPage(r)
	document.Register(r)
	control.RegisterOutbox(r)
	api.RegisterRoutesInfo(r)
	registerMetrics(r)

	// Scenarios at work: jobs, recording, rules (fault points).
	stage.RegisterJobs(r)
	recording.RegisterHooks(r)
	stage.RegisterRules(r)

	// Signature requests, templates, drafts and their object views.
	sigreq.RegisterLifecycle(r) // eID control call, files, jobs, hold, transfer
	template.RegisterPrepare(r)
	template.RegisterTransfer(r)
	unclaimed.RegisterClaim(r)
	unclaimed.RegisterPage(r)
	sigreq.RegisterViews(r)
	template.RegisterViews(r)

	// The read side of the other kinds (catalog).
	account.RegisterViews(r)
	apiapp.RegisterViews(r)
	bulk.RegisterViews(r)
	fax.RegisterViews(r)
	team.RegisterViews(r)
	unclaimed.RegisterViews(r)

	// The console for people, last: its routes come after every other.
	registerConsole(r)
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
