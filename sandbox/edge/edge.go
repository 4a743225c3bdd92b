// Package edge guards the HTTP edge of a sandbox: what a request must look
// like before any handler sees it (a path, not a redirect target; headers of
// a bounded size; a path with empty segments is redirected to the same
// path without them), who may call without credentials (loopback, the public
// base URL's host, hosts the operator allows; never a foreign page), and
// which control calls need the operator's admin token. It also wraps the
// binary's listener so that a connection cap holds and the errors net/http
// answers on its own come in the official error envelope too.
//
// The package knows the sandbox's URL layout (the /_sandbox control plane
// and its /_sandbox/w/ pages) because judging a request at the edge means
// knowing what it asks for; it never reads the wall clock, as nothing in the
// sandbox does.
package edge

import (
	"net/http"
	"net/url"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callnote"
)

// Config is what Guard checks requests against.
type Config struct {
	// BaseURL is the sandbox's public base URL, if any: its host may call
	// without credentials.
	BaseURL string
	// AllowedHosts are further host names (or IP addresses) that may call
	// without credentials, besides loopback ones.
	AllowedHosts []string
	// AdminToken, when set, is required for administration (see
	// AdminHeader).
	AdminToken string
}

// Guard wraps next with every check of the edge, cheapest first: the
// request target, the header size, the caller's host and origin, and the
// admin token. A refused request never reaches next. What a handler
// leaves unread of a request body is discarded before its answer
// (unread_body.go).
func Guard(next http.Handler, cfg Config) http.Handler {
	hosts := newHostSet(cfg)
	admin := newAdminToken(cfg.AdminToken)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w, r, done := drainUnread(w, r)
		defer done()
		e, redirect := checkTarget(r)
		if e != nil {
			writeError(w, e)
			return
		}
		if redirect != "" {
			w.Header().Set("Location", redirect)
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		if e := checkHeaderSize(r); e != nil {
			writeError(w, e)
			return
		}
		hasAdmin := admin.presented(r)
		if e := hosts.check(r, hasAdmin); e != nil {
			refuse(w, e)
			return
		}
		if e := admin.check(r, hasAdmin); e != nil {
			refuse(w, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a refused call and tells the server's access log why
// (see package callnote).
func refuse(w http.ResponseWriter, e *apierr.Error) {
	writeError(w, e)
	callnote.Tell(w, callnote.Note{Refusal: e.Reason})
}

// baseHost is the host name of a base URL ("" when there is none).
func baseHost(base string) string {
	if base == "" {
		return ""
	}
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
