package sandbox

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// callHook runs before an operation's handler, after authentication. When it
// reports handled, its result is the answer and the handler does not run.
// Scenario fault rules are call hooks.
type callHook func(c *call) (v any, err error, handled bool)

// apiHandler wraps an operation: credentials, world, rate limit, hooks,
// handler, and the one response adapter.
func (s *host) apiHandler(rt *route, h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.callStart()
		c := &call{s: s, r: r, rt: rt}
		v, err := s.runCall(c, h)
		for _, after := range s.reg.afterCallHooks {
			after(c, v, err)
		}
		status := s.writeResult(w, c, v, err)
		s.observeCall(c, rt.operationID, false, start, status)
	})
}

func (s *host) runCall(c *call, h handler) (any, error) {
	if c.rt.auth != authNone {
		creds, ok, aerr := parseAuthorization(c.r)
		if aerr != nil {
			return nil, aerr
		}
		if !ok {
			return nil, apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedNoCredentials)
		}
		if e := s.authenticate(c, creds); e != nil {
			return nil, e
		}
		if e := checkScopes(c); e != nil {
			return nil, e
		}
		if e := s.countRate(c); e != nil {
			return nil, e
		}
	}
	for _, hook := range s.reg.callHooks {
		if v, err, handled := hook(c); handled {
			return v, err
		}
	}
	v, err := h(c)
	// Operations without credentials (OAuth) find their world and account in
	// the handler; their answers carry the headers of that account.
	if err == nil && c.rate.Limit == 0 && c.account != nil && c.w != nil {
		_ = s.countRate(c)
	}
	return v, err
}

// countRate counts the call against the caller's window and refuses it when
// the world enforces limits and the window is used up.
func (s *host) countRate(c *call) *apierr.Error {
	cfg := c.config().RateLimit
	c.rate = c.w.Rate.Count(c.account.ID, c.w.Now(), cfg.Limit, cfg.Window.D())
	if cfg.Enforce && c.rate.Exceeded {
		return apierr.New(apierr.ExceededRate, apierr.MsgExceededRate)
	}
	return nil
}
