package sandbox

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/edge"
)

// RouteMatchesForTest routes req twice: through gorilla/mux's Router.Match
// alone, and through the router's index (the fast path that serves).
func RouteMatchesForTest(s *Sandbox, req *http.Request) (viaRouter, viaIndex mux.RouteMatch, okRouter, okIndex bool) {
	okRouter = s.host.Router().Match(req, &viaRouter)
	okIndex = s.host.MatchRoute(req, &viaIndex)
	return
}

// RouterOnlyForTest is the sandbox served by gorilla/mux alone, without the
// index, behind the same edge and recoverer (and no other middleware).
func RouterOnlyForTest(s *Sandbox) http.Handler {
	return edge.Guard(s.host.Recoverer(s.host.Router()), edge.Config{BaseURL: s.cfg.baseURL, AllowedHosts: s.cfg.allowedHosts, AdminToken: s.cfg.adminToken})
}
