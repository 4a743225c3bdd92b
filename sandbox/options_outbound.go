package sandbox

import (
	"fmt"
	"net/http"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/outbound"
)

// WithAllowOutbound lets a team server (one with an admin token, or
// WithPublicOutboundOnly) connect to internal destinations it otherwise
// refuses when it fetches file_urls and delivers callbacks: host names
// (the name in the URL, "*.corp.example" for every name under a domain), IP
// addresses, CIDRs such as 10.1.0.0/16, or "private" for every loopback,
// private and CGNAT address. Link-local (cloud metadata), unspecified,
// multicast and broadcast addresses stay refused on every server; an
// entry that names only such addresses, or that CheckAllowOutbound refuses
// otherwise, makes New fail.
func WithAllowOutbound(entries ...string) Option {
	return func(cfg *config) error {
		for _, e := range entries {
			if err := outbound.CheckAllow(e); err != nil {
				return err
			}
		}
		cfg.allowOutbound = append(cfg.allowOutbound, entries...)
		return nil
	}
}

// CheckAllowOutbound reports whether entry can be given to
// WithAllowOutbound.
func CheckAllowOutbound(entry string) error { return outbound.CheckAllow(entry) }

// WithPublicOutboundOnly gives a sandbox without an admin token the
// destination rules of a team server: file_urls and callbacks reach public
// addresses only (and what WithAllowOutbound allows), for a program that
// serves a sandbox to others behind its own authentication. With
// WithAdminToken they apply anyway.
func WithPublicOutboundOnly() Option {
	return func(cfg *config) error { cfg.publicOutboundOnly = true; return nil }
}

// outboundClient is the client of every connection the sandbox makes on a
// caller's behalf (file_urls, callbacks): the configured one, its
// transport under the destination rules. A team server (admin token)
// connects only to public addresses and what the operator allowed; any
// server refuses link-local, metadata, unspecified, multicast and
// broadcast addresses. A client whose transport is not an *http.Transport
// is the embedding program's own network path and is used as given.
func outboundClient(cfg *config) (*http.Client, error) {
	policy, err := outbound.NewPolicy(cfg.adminToken != "" || cfg.publicOutboundOnly, cfg.allowOutbound)
	if err != nil {
		return nil, err
	}
	c := cfg.httpClient
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second, CheckRedirect: api.NoRedirects}
	}
	guarded, ok := policy.Guard(c)
	if !ok {
		cfg.logger.Warn("the HTTP client given to WithHTTPClient has a transport of its own: file_urls and callbacks are not checked against the destination rules",
			"transport", fmt.Sprintf("%T", c.Transport))
	}
	return guarded, nil
}
