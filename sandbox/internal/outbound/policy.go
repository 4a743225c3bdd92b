package outbound

// The rules themselves: what a server refuses, what an operator allowed,
// and the error a refusal is.

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// AllowPrivate is the --allow-outbound entry that allows every address a
// team server otherwise refuses (loopback, private, CGNAT), though never
// the classes no server connects to.
const AllowPrivate = "private"

// Policy decides which addresses the sandbox may connect to on a caller's
// behalf. Its zero value is a local sandbox's: everything but the "never"
// classes (Class.Never). Read-only once made.
type Policy struct {
	// publicOnly: a team server, which refuses loopback, private and CGNAT
	// addresses unless allowed below.
	publicOnly bool
	// allowPrivate lifts the team-server rule for every address.
	allowPrivate bool
	prefixes     []netip.Prefix
	// hosts are lower-case names without a final dot; suffixes are the
	// ".example.com" of "*.example.com" entries.
	hosts    map[string]bool
	suffixes []string
}

// NewPolicy makes the rules of a server: publicOnly for a team server (one
// with an admin token), and the --allow-outbound entries (host names,
// "*.suffix" names, IP addresses, CIDRs, or AllowPrivate). An entry
// CheckAllow refuses makes it fail.
func NewPolicy(publicOnly bool, allow []string) (*Policy, error) {
	p := &Policy{publicOnly: publicOnly}
	for _, e := range allow {
		if err := p.add(e); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// CheckAllow reports whether entry can be given to --allow-outbound.
func CheckAllow(entry string) error {
	return new(Policy).add(entry)
}

// add adds one allow entry.
func (p *Policy) add(entry string) error {
	e := strings.TrimSpace(entry)
	if strings.EqualFold(e, AllowPrivate) {
		p.allowPrivate = true
		return nil
	}
	if pr, err := parsePrefix(e); err == nil {
		if c := Classify(pr.Addr()); c.Never() && neverContains(pr) {
			return fmt.Errorf("allow-outbound entry %q: %s addresses are never connected to", entry, c)
		}
		p.prefixes = append(p.prefixes, pr)
		return nil
	}
	name := strings.TrimSuffix(strings.ToLower(e), ".")
	if _, _, err := net.SplitHostPort(name); err == nil || !validName(strings.TrimPrefix(name, "*.")) {
		return fmt.Errorf("allow-outbound entry %q must be a host name (or *.domain), an IP address, a CIDR such as 10.1.0.0/16, or %q", entry, AllowPrivate)
	}
	if suffix, ok := strings.CutPrefix(name, "*"); ok {
		p.suffixes = append(p.suffixes, suffix)
		return nil
	}
	if p.hosts == nil {
		p.hosts = map[string]bool{}
	}
	p.hosts[name] = true
	return nil
}

// parsePrefix reads an IP address (bracketed or not) or a CIDR as a
// prefix, IPv4-mapped ones as IPv4.
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		pr, err := netip.ParsePrefix(s)
		if err != nil {
			return pr, err
		}
		if pr.Addr().Is4In6() && pr.Bits() >= 96 {
			pr = netip.PrefixFrom(pr.Addr().Unmap(), pr.Bits()-96)
		}
		return pr.Masked(), nil
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap().WithZone("")
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// neverContains reports whether a prefix lies inside one range of a
// "never" class, so that allowing it could allow nothing.
func neverContains(pr netip.Prefix) bool {
	for _, s := range special {
		if s.class.Never() && s.prefix.Bits() <= pr.Bits() && s.prefix.Contains(pr.Addr()) {
			return true
		}
	}
	return false
}

// validName accepts a DNS name: labels of letters, digits, '-' and '_'.
func validName(n string) bool {
	if n == "" || len(n) > 253 {
		return false
	}
	for _, label := range strings.Split(n, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// PublicOnly reports whether this is a team server's policy.
func (p *Policy) PublicOnly() bool { return p.publicOnly }

// Check decides whether a connection to addr, made for a URL whose host
// is host (a name or an IP literal), may be made: nil, or a *RefusedError.
func (p *Policy) Check(host string, addr netip.Addr) error {
	c := Classify(addr)
	switch {
	case c == Public:
		return nil
	case c.Never():
	case !p.publicOnly || p.allows(host, addr):
		return nil
	}
	return &RefusedError{Host: host, Addr: addr.WithZone(""), Class: c, PublicOnly: p.publicOnly}
}

// allows reports whether the operator allowed a non-public destination.
func (p *Policy) allows(host string, addr netip.Addr) bool {
	if p.allowPrivate {
		return true
	}
	a := addr.WithZone("").Unmap()
	for _, pr := range p.prefixes {
		if pr.Contains(a) {
			return true
		}
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if p.hosts[h] {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(h, s) {
			return true
		}
	}
	return false
}

// RefusedError is a connection the rules refused. Its Error is what a
// caller may read: it names neither the address nor its class, which would
// tell an outsider what a name resolves to inside the network; Detail is
// for the operator's log.
type RefusedError struct {
	Host       string
	Addr       netip.Addr
	Class      Class
	PublicOnly bool
}

// Error says that the destination is not allowed and by which rule,
// the same for every address the rule covers.
func (e *RefusedError) Error() string {
	if e.PublicOnly {
		return "destination not allowed: this shared server connects only to public addresses"
	}
	return "destination not allowed: link-local, metadata, multicast, broadcast and unspecified addresses are never connected to"
}

// Detail says what was refused, for the operator.
func (e *RefusedError) Detail() string {
	if a, err := netip.ParseAddr(strings.Trim(e.Host, "[]")); err == nil && a.WithZone("") == e.Addr {
		return fmt.Sprintf("%s is a %s address", e.Addr, e.Class)
	}
	return fmt.Sprintf("%s resolved to %s, a %s address", e.Host, e.Addr, e.Class)
}
