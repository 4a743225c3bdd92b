package edge

// Who may call without credentials. A sandbox on a developer's machine is
// reached by pages of every site the developer visits: a page can post a
// form to http://127.0.0.1:8080/_sandbox/reset (forms need no CORS
// preflight), and through DNS rebinding (its own host name resolving to
// 127.0.0.1) it can even read answers, as the same origin. Three rules
// stop both, without any password:
//
//  1. A call without credentials to the control plane or its pages is
//     answered only when its Host is a loopback name or address, the host
//     of the base URL, or an allowed host. A rebinding page's requests
//     carry the page's own host name, so they are refused.
//  2. A browser's request (one with Origin or Sec-Fetch-Site) is answered
//     only under such a Host, with credentials or without: a browser uses
//     any other name only when a page rebinds it, and such a page could
//     send a world key it knows (the seeded default's, a fixed --api-key).
//  3. A call without credentials that changes state (any method but GET,
//     HEAD, OPTIONS) from a foreign Origin, or marked Sec-Fetch-Site:
//     cross-site, is refused: that is a page of another site posting.
//
// No answer carries CORS headers, so no other origin can read one.
// Credentials are an Authorization header (the handler checks it) or the
// valid admin token.

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// hostSet holds the host names, besides loopback ones, that may call
// without credentials.
type hostSet map[string]bool

func newHostSet(cfg Config) hostSet {
	s := hostSet{}
	if h := baseHost(cfg.BaseURL); h != "" {
		s[normalizeHost(h)] = true
	}
	for _, h := range cfg.AllowedHosts {
		if h = normalizeHost(hostname(strings.TrimSpace(h))); h != "" {
			s[h] = true
		}
	}
	return s
}

// CheckAllowedHost reports whether h can be an allowed host: a host name or
// an IP address, with no scheme, path or port.
func CheckAllowedHost(h string) error {
	_, _, err := net.SplitHostPort(h)
	if h == "" || strings.ContainsAny(h, "/ \t@?#") || err == nil {
		return fmt.Errorf("allowed host %q must be a host name or IP address, without scheme, port or path (such as sandbox.internal)", h)
	}
	return nil
}

// hostname is the host part of a Host header or of host:port.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// normalizeHost lower-cases a host name and drops a final dot.
func normalizeHost(h string) string { return strings.TrimSuffix(strings.ToLower(h), ".") }

// allows reports whether a host name may call without credentials. An
// empty one is allowed: browsers always send a Host, so a request without
// one is a program's (an HTTP/1.0 client, an in-process request).
func (s hostSet) allows(host string) bool {
	h := normalizeHost(host)
	switch {
	case h == "":
		return true
	case h == "localhost" || strings.HasSuffix(h, ".localhost"):
		// RFC 6761: browsers resolve these to loopback themselves.
		return true
	case s[h]:
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// foreignOrigin reports whether a request comes from a page of another
// site: Sec-Fetch-Site says so, or its Origin is opaque ("null") or has a
// host that may not call without credentials.
func (s hostSet) foreignOrigin(r *http.Request) bool {
	if strings.EqualFold(r.Header.Get("Sec-Fetch-Site"), "cross-site") {
		return true
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return true
	}
	return !s.allows(u.Hostname())
}

// check applies the three rules; credentialed says whether the request
// carries credentials (an Authorization header or the admin token).
func (s hostSet) check(r *http.Request, hasAdmin bool) *apierr.Error {
	credentialed := hasAdmin || r.Header.Get("Authorization") != ""
	browser := r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != ""
	host := hostname(r.Host)
	if !s.allows(host) {
		if browser {
			return apierr.Forbiddenf("This sandbox does not answer browsers that reach it as %q: it answers pages only under loopback names, the host of its base URL and its allowed hosts (--allowed-hosts), so that no web page can drive it through DNS rebinding.", echo(host)).
				Because("a browser reached the sandbox under a host that is not allowed")
		}
		if !credentialed && isControl(r.URL.Path) && !isHealth(r) {
			return apierr.Forbiddenf("This sandbox answers control calls without credentials only under loopback names, the host of its base URL and its allowed hosts (--allowed-hosts), not under %q; send a world's API key, or allow the host.", echo(host)).
				Because("a control call without credentials came under a host that is not allowed")
		}
	}
	if !credentialed && !isSafeMethod(r.Method) && s.foreignOrigin(r) {
		return apierr.Forbiddenf("A call without credentials that changes state is refused from a page of another site (Origin %q): it could be any site the developer visits.", echo(r.Header.Get("Origin"))).
			Because("a state change without credentials came from a foreign page (Origin)")
	}
	return nil
}
