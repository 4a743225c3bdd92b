package api

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callnote"
)

// CallHook runs before an operation's handler, after authentication. When it
// reports handled, its result is the answer and the handler does not run.
// Scenario fault rules are call hooks.
type CallHook func(c *Call) (v any, err error, handled bool)

// apiHandler wraps an operation: credentials, world, rate limit, hooks,
// handler, and the one response adapter.
func (s *Host) apiHandler(rt *Route, h Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.CallStart()
		c := &Call{Host: s, Request: r, Route: rt}
		defer c.Stay.Leave()
		v, err := s.runCall(c, h)
		for _, after := range s.reg.AfterCallHooks {
			after(c, v, err)
		}
		c.Stay.Mark(w.Header().Set)
		status := s.WriteResult(w, c, v, err)
		callnote.Tell(w, c.note(rt.OperationID, err))
		s.observeCall(c, rt.OperationID, false, start, status)
	})
}

func (s *Host) runCall(c *Call, h Handler) (any, error) {
	if c.Route.Auth != AuthNone {
		creds, ok, aerr := parseAuthHeader(c.Request)
		if aerr != nil {
			return nil, aerr
		}
		if !ok {
			return nil, apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedNoCredentials).Because("no credentials: the request has no Authorization header")
		}
		if e := s.authenticate(c, creds); e != nil {
			return nil, e
		}
		if e := checkScopes(c); e != nil {
			return nil, e
		}
		c.Stay.Enter(c.World) // before the count, which then sees its instant
		if e := s.countRate(c); e != nil {
			return nil, e
		}
	}
	for _, hook := range s.reg.CallHooks {
		if v, err, handled := hook(c); handled {
			return v, err
		}
	}
	v, err := h(c)
	// Operations without credentials (OAuth) find their world and account in
	// the handler; their answers carry the headers of that account.
	if err == nil && c.Rate.Limit == 0 && c.Account != nil && c.World != nil {
		_ = s.countRate(c)
	}
	return v, err
}

// countRate counts the call against the caller's window and refuses it when
// the world enforces limits and the window is used up.
func (s *Host) countRate(c *Call) *apierr.Error {
	cfg := c.Config().RateLimit
	c.Rate = c.World.Rate.Count(c.Account.ID, c.World.Now(), cfg.Limit, cfg.Window.D())
	if cfg.Enforce && c.Rate.Exceeded {
		return apierr.New(apierr.ExceededRate, apierr.MsgExceededRate)
	}
	return nil
}

// note is what the server's access log learns of an answered call (see
// package callnote): its operation, its world, and why it was refused.
func (c *Call) note(operation string, err error) callnote.Note {
	n := callnote.Note{Operation: operation}
	if c.World != nil {
		n.World = c.World.ID
	}
	if err != nil {
		if e, ok := apierr.As(err); ok {
			n.Refusal = e.Reason
		}
	}
	return n
}
