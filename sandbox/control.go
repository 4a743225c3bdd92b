package sandbox

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// controlRoute is one endpoint of the /_sandbox control plane.
type controlRoute struct {
	method string
	path   string // relative to /_sandbox
	h      handler
	// public routes need no world (health, world creation, pages served by
	// world-scoped URLs).
	public bool
	// noBody routes take no parameters: a body that carries any is refused
	// before the handler acts (a typo must not reset a world).
	noBody bool
}

// isPage reports whether a control path is a page served under a world's
// URLs (/w/{world}/...): pages read the forms browsers post, which may carry
// more fields than the page uses, so they keep the lenient reading.
func isPage(path string) bool { return strings.HasPrefix(path, "/w/") }

func (s *host) registerControl(r *mux.Router) {
	for _, cr := range s.reg.controlRoutes {
		r.Handle(ControlPrefix+cr.path, s.controlHandler(cr)).Methods(cr.method)
	}
}

// controlHandler resolves the caller's world for control calls: the world of
// the credentials when the request has any (so parallel suites with their own
// keys never meet), else the default world.
func (s *host) controlHandler(cr controlRoute) http.Handler {
	operation := cr.method + " " + ControlPrefix + cr.path
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.callStart()
		c := &call{s: s, r: r, strict: !isPage(cr.path)}
		v, err := s.runControl(c, cr)
		for _, after := range s.reg.afterControlHooks {
			after(c, v, err)
		}
		status := s.writeResult(w, c, v, err)
		s.observeCall(c, operation, true, start, status)
	})
}

func (s *host) runControl(c *call, cr controlRoute) (any, error) {
	if !cr.public {
		creds, ok, aerr := parseAuthorization(c.r)
		if aerr != nil {
			return nil, aerr
		}
		if ok {
			if e := s.authenticate(c, creds); e != nil {
				return nil, e
			}
		} else {
			c.w = s.defWorld
		}
	}
	if cr.noBody {
		if err := c.refuseParameters(); err != nil {
			return nil, err
		}
	}
	for _, start := range s.reg.controlStartHooks {
		start(c)
	}
	return cr.h(c)
}

// actingAccountID is the account a control call acts for when it names
// none: the caller's, or the world's first account for a call without
// credentials (which reaches the default world).
func (c *call) actingAccountID() string {
	if c.account != nil {
		return c.account.ID
	}
	return c.s.firstAccountID()
}

// errControlNotFound answers unknown control objects.
func errControlNotFound(what, id string) error {
	return apierr.NotFoundf("No %s %q in this world.", what, id)
}
