package sandbox

import (
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/gorilla/mux"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// TestRoutingIgnoresRegistrationOrder registers the areas in shuffled
// orders and routes a request for every route of the sandbox through each:
// every request is served by the same route (method, template, operation
// and control flags) whatever the order, as register.go states.
func TestRoutingIgnoresRegistrationOrder(t *testing.T) {
	build := func(order []func(*api.Registry)) *api.Host {
		r := api.NewRegistry()
		for _, register := range order {
			register(r)
		}
		h := api.NewHost(api.HostConfig{Reg: r})
		h.NewRouter()
		return h
	}
	base := build(areas)

	vars := regexp.MustCompile(`\{[^}]*\}`)
	type request struct{ method, path string }
	var requests []request
	_ = base.Router().Walk(func(rt *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := rt.GetPathTemplate()
		require.NoError(t, err)
		methods, _ := rt.GetMethods()
		for _, m := range methods {
			requests = append(requests, request{m, vars.ReplaceAllString(tpl, "x1")})
		}
		return nil
	})
	require.Greater(t, len(requests), 150)

	served := func(h *api.Host) []string {
		flags := map[string]string{}
		for _, cr := range h.Reg().ControlRoutes {
			flags[cr.Method+" "+api.ControlPrefix+cr.Path] = map[bool]string{true: "public"}[cr.Public] + map[bool]string{true: " nobody"}[cr.NoBody]
		}
		var out []string
		for _, rq := range requests {
			var m mux.RouteMatch
			req := httptest.NewRequest(rq.method, rq.path, nil)
			if !h.MatchRoute(req, &m) || m.Route == nil {
				out = append(out, rq.method+" "+rq.path+" -> no route")
				continue
			}
			tpl, _ := m.Route.GetPathTemplate()
			out = append(out, rq.method+" "+rq.path+" -> "+tpl+" op="+h.RouteOperation(m.Route)+" "+flags[rq.method+" "+tpl])
		}
		return out
	}
	want := served(base)
	for seed := range uint64(8) {
		order := slices.Clone(areas)
		rand.New(rand.NewPCG(seed, 26)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		assert.Equal(t, want, served(build(order)), "areas registered in the order of seed %d", seed)
	}
	reversed := slices.Clone(areas)
	slices.Reverse(reversed)
	assert.Equal(t, want, served(build(reversed)), "areas registered in reverse")
}

// TestHookOrdersThatMatter pins the two orderings of areas that register.go
// says decide behaviour: the recorder's call hook before the scenario
// rules' (a rule may answer a call and stop the list), and the transfer of
// signature requests before that of templates.
func TestHookOrdersThatMatter(t *testing.T) {
	at := func(fn func(*api.Registry)) int {
		i := slices.IndexFunc(areas, func(f func(*api.Registry)) bool {
			return reflect.ValueOf(f).Pointer() == reflect.ValueOf(fn).Pointer()
		})
		require.GreaterOrEqual(t, i, 0, "an area of register.go")
		return i
	}
	assert.Less(t, at(recording.RegisterHooks), at(scenarioworld.RegisterRules))
	assert.Less(t, at(sigreq.RegisterLifecycle), at(template.RegisterTransfer))

	r := newRegistry()
	require.Len(t, r.CallHooks, 2)
	v, err, handled := r.CallHooks[0](&api.Call{})
	assert.False(t, handled, "the first call hook (the recorder's) never answers a call")
	assert.Nil(t, v)
	assert.NoError(t, err)
}
