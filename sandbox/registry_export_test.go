package sandbox

import (
	"sort"
	"strings"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
)

// RegisteredRouteForTest is one route of a sandbox's router as gorilla/mux
// tries it: Operation is the official operationId of an API route ("" for
// control routes), Public and NoBody the flags of a control route.
type RegisteredRouteForTest struct {
	Methods   []string
	Path      string
	Operation string
	// Unhandled marks an API route whose operation has no handler.
	Unhandled bool
	Public    bool
	NoBody    bool
}

// RegisteredRoutesForTest lists the routes of s's router in the order the
// router tries them (the order of registration, which decides precedence).
func RegisteredRoutesForTest(s *Sandbox) []RegisteredRouteForTest {
	flags := map[string]api.ControlRoute{}
	for _, cr := range s.host.Reg().ControlRoutes {
		flags[cr.Method+" "+api.ControlPrefix+cr.Path] = cr
	}
	var out []RegisteredRouteForTest
	_ = s.host.Router().Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, _ := r.GetPathTemplate()
		methods, _ := r.GetMethods()
		rt := RegisteredRouteForTest{Methods: methods, Path: path, Operation: s.host.RouteOperation(r)}
		if rt.Operation != "" {
			rt.Unhandled = s.host.Reg().Handlers[rt.Operation] == nil
		}
		if rt.Operation == "" && len(methods) == 1 {
			cr := flags[methods[0]+" "+path]
			rt.Public, rt.NoBody = cr.Public, cr.NoBody
		}
		out = append(out, rt)
		return nil
	})
	return out
}

// JobKindsForTest lists the job kinds s runs, sorted.
func JobKindsForTest(s *Sandbox) []string {
	return s.host.Reg().JobKinds()
}

// HooksForTest describes the hooks s runs: how many functions each list
// holds, the keys of each keyed registry, and which single hooks are set.
func HooksForTest(s *Sandbox) []string {
	keys := func(m map[string]bool) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	owners := map[string]bool{}
	for k := range s.host.Reg().FileOwners {
		owners[k] = true
	}
	set := func(ok bool) string {
		if ok {
			return "set"
		}
		return "unset"
	}
	return []string{
		"worldStarters " + itoa(len(s.host.Reg().WorldStarters)),
		"worldReplacedHooks " + itoa(len(s.host.Reg().WorldReplacedHooks)),
		"callHooks " + itoa(len(s.host.Reg().CallHooks)),
		"afterCallHooks " + itoa(len(s.host.Reg().AfterCallHooks)),
		"controlStartHooks " + itoa(len(s.host.Reg().ControlStartHooks)),
		"afterControlHooks " + itoa(len(s.host.Reg().AfterControlHooks)),
		"teamTransferHooks " + itoa(len(s.host.Reg().TeamTransferHooks)),
		"fileOwners " + keys(owners),
		"catalog " + strings.Join(s.host.Reg().Catalog.Kinds(), ","),
		"templateFailureHook " + set(s.host.Reg().TemplateFailure != nil),
		"sigreqProcessFault " + set(s.host.Reg().ProcessFault != nil),
		"callbackFault " + set(s.host.Reg().CallbackFault != nil),
		"onAccountConfirmed " + set(s.host.Reg().OnAccountConfirmed != nil),
	}
}
