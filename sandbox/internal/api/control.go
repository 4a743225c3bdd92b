package api

import (
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callnote"
)

// ControlRoute is one endpoint of the /_sandbox control plane.
type ControlRoute struct {
	Method string
	Path   string // relative to /_sandbox
	h      Handler
	// Public routes need no world (health, world creation, pages served by
	// world-scoped URLs).
	Public bool
	// NoBody routes take no parameters: a body that carries any is refused
	// before the handler acts (a typo must not reset a world).
	NoBody bool
}

// isPage reports whether a control path is a page served under a world's
// URLs (/w/{world}/...): pages read the forms browsers post, which may carry
// more fields than the page uses, so they keep the lenient reading.
func isPage(path string) bool { return strings.HasPrefix(path, "/w/") }

// controlHandler resolves the caller's world for control calls: the world of
// the credentials when the request has any (so parallel suites with their own
// keys never meet), else the default world.
func (s *Host) controlHandler(cr ControlRoute) http.Handler {
	operation := cr.Method + " " + ControlPrefix + cr.Path
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.CallStart()
		c := &Call{Host: s, Request: r, strict: !isPage(cr.Path)}
		defer c.Stay.Leave()
		v, err := s.runControl(c, cr)
		for _, after := range s.reg.AfterControlHooks {
			after(c, v, err)
		}
		c.Stay.Mark(w.Header().Set)
		status := s.WriteResult(w, c, v, err)
		callnote.Tell(w, c.note(operation, err))
		s.observeCall(c, operation, true, start, status)
	})
}

func (s *Host) runControl(c *Call, cr ControlRoute) (any, error) {
	if !cr.Public {
		creds, ok, aerr := parseAuthHeader(c.Request)
		if aerr != nil {
			return nil, aerr
		}
		if ok {
			if e := s.authenticate(c, creds); e != nil {
				return nil, e
			}
		} else {
			c.World = s.defaultWorld
		}
	}
	if cr.NoBody {
		if err := c.refuseParameters(); err != nil {
			return nil, err
		}
	}
	c.Stay.Enter(c.World)
	for _, start := range s.reg.ControlStartHooks {
		start(c)
	}
	return cr.h(c)
}

// ActingAccountID is the account a control call acts for when it names
// none: the caller's, or the world's first account for a call without
// credentials (which reaches the default world).
func (c *Call) ActingAccountID() string {
	if c.Account != nil {
		return c.Account.ID
	}
	return c.Host.FirstAccountID()
}

// ErrControlNotFound returns the 404 of an unknown control object.
func ErrControlNotFound(what, id string) error {
	return apierr.NotFoundf("No %s %q in this world.", what, id)
}
