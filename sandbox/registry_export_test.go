package sandbox

import (
	"sort"
	"strings"

	"github.com/gorilla/mux"
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
	flags := map[string]controlRoute{}
	for _, cr := range controlRoutes {
		flags[cr.method+" "+ControlPrefix+cr.path] = cr
	}
	var out []RegisteredRouteForTest
	_ = s.router.Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, _ := r.GetPathTemplate()
		methods, _ := r.GetMethods()
		rt := RegisteredRouteForTest{Methods: methods, Path: path, Operation: s.routeOps[r]}
		if rt.Operation != "" {
			rt.Unhandled = handlers[rt.Operation] == nil
		}
		if rt.Operation == "" && len(methods) == 1 {
			cr := flags[methods[0]+" "+path]
			rt.Public, rt.NoBody = cr.public, cr.noBody
		}
		out = append(out, rt)
		return nil
	})
	return out
}

// JobKindsForTest lists the job kinds s runs, sorted. Kinds that test files
// add for themselves (prefix "foundationtest.") are left out: the list is
// what the product registers.
func JobKindsForTest(s *Sandbox) []string {
	var out []string
	for kind := range jobKinds {
		if strings.HasPrefix(kind, "foundationtest.") {
			continue
		}
		out = append(out, kind)
	}
	sort.Strings(out)
	return out
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
	views, owners := map[string]bool{}, map[string]bool{}
	for k := range objectViews {
		views[k] = true
	}
	for k := range fileOwners {
		if k != kindTestOwner {
			owners[k] = true
		}
	}
	set := func(ok bool) string {
		if ok {
			return "set"
		}
		return "unset"
	}
	return []string{
		"worldStarters " + itoa(len(worldStarters)),
		"worldReplacedHooks " + itoa(len(worldReplacedHooks)),
		"callHooks " + itoa(len(callHooks)),
		"afterCallHooks " + itoa(len(afterCallHooks)),
		"controlStartHooks " + itoa(len(controlStartHooks)),
		"afterControlHooks " + itoa(len(afterControlHooks)),
		"teamTransferHooks " + itoa(len(teamTransferHooks)),
		"objectViews " + keys(views),
		"fileOwners " + keys(owners),
		"templateResolver " + set(templateResolver != nil),
		"templateFailureHook " + set(templateFailureHook != nil),
		"sigreqProcessFault " + set(sigreqProcessFault != nil),
		"callbackFault " + set(callbackFault != nil),
		"onAccountCallbackSet " + set(onAccountCallbackSet != nil),
		"onAccountCreated " + set(onAccountCreated != nil),
		"onAppCallbackSet " + set(onAppCallbackSet != nil),
	}
}
