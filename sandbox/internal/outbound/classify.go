package outbound

// Which kind of address an IP is. The tables follow IANA's special-purpose
// address registries; the embedding rules (IPv4-mapped, NAT64, 6to4,
// Teredo) classify an IPv6 address that leads to an IPv4 host as that
// host, so that no IPv6 spelling reaches an address its IPv4 form cannot.

import "net/netip"

// Class is the kind of an address, as far as the destination rules care.
type Class int

// The classes. Public is the only one every server connects to; the
// "never" classes no server connects to; the rest only a server without
// an admin token, or one that allows them (--allow-outbound).
const (
	Public Class = iota
	// Loopback: 127.0.0.0/8, ::1.
	Loopback
	// Private: RFC 1918, RFC 4193 unique local (fc00::/7), deprecated
	// IPv6 site-local (fec0::/10), and the other ranges IANA marks as not
	// globally reachable that networks use inside (192.0.0.0/24,
	// benchmarking 198.18.0.0/15, the documentation ranges, local-use
	// NAT64 64:ff9b:1::/48).
	Private
	// SharedCGNAT: 100.64.0.0/10 (RFC 6598), which also holds some
	// clouds' metadata services (100.100.100.200).
	SharedCGNAT
	// LinkLocal: 169.254.0.0/16 and fe80::/10, where cloud metadata
	// services answer (169.254.169.254).
	LinkLocal
	// Metadata: an instance metadata address outside the link-local
	// ranges (AWS's fd00:ec2::254).
	Metadata
	// Unspecified: 0.0.0.0/8 and ::; Linux connects 0.0.0.0 to the local
	// host.
	Unspecified
	// Multicast: 224.0.0.0/4 and ff00::/8.
	Multicast
	// Broadcast: 255.255.255.255.
	Broadcast
	// Reserved: 240.0.0.0/4, and IPv4-compatible IPv6 addresses
	// (::a.b.c.d, deprecated since 2006): never a destination.
	Reserved
)

var classNames = map[Class]string{
	Public: "public", Loopback: "loopback", Private: "private", SharedCGNAT: "shared (CGNAT)",
	LinkLocal: "link-local", Metadata: "metadata service", Unspecified: "unspecified",
	Multicast: "multicast", Broadcast: "broadcast", Reserved: "reserved",
}

// String names the class for the operator's log.
func (c Class) String() string { return classNames[c] }

// Never reports whether no server connects to addresses of this class,
// whatever it allows: no sandbox use needs them, and link-local ones hold
// the cloud metadata services with their credentials.
func (c Class) Never() bool {
	switch c {
	case LinkLocal, Metadata, Unspecified, Multicast, Broadcast, Reserved:
		return true
	}
	return false
}

// special lists the IPv4 and IPv6 ranges that are not public, first match
// wins (so the metadata address comes before its unique-local range).
var special = []struct {
	prefix netip.Prefix
	class  Class
}{
	{netip.MustParsePrefix("0.0.0.0/8"), Unspecified},
	{netip.MustParsePrefix("10.0.0.0/8"), Private},
	{netip.MustParsePrefix("100.64.0.0/10"), SharedCGNAT},
	{netip.MustParsePrefix("127.0.0.0/8"), Loopback},
	{netip.MustParsePrefix("169.254.0.0/16"), LinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), Private},
	{netip.MustParsePrefix("192.0.0.0/24"), Private},
	{netip.MustParsePrefix("192.0.2.0/24"), Private},
	{netip.MustParsePrefix("192.168.0.0/16"), Private},
	{netip.MustParsePrefix("198.18.0.0/15"), Private},
	{netip.MustParsePrefix("198.51.100.0/24"), Private},
	{netip.MustParsePrefix("203.0.113.0/24"), Private},
	{netip.MustParsePrefix("224.0.0.0/4"), Multicast},
	{netip.MustParsePrefix("255.255.255.255/32"), Broadcast},
	{netip.MustParsePrefix("240.0.0.0/4"), Reserved},

	{netip.MustParsePrefix("::/128"), Unspecified},
	{netip.MustParsePrefix("::1/128"), Loopback},
	{netip.MustParsePrefix("::/96"), Reserved}, // IPv4-compatible
	{netip.MustParsePrefix("64:ff9b:1::/48"), Private},
	{netip.MustParsePrefix("2001:db8::/32"), Private},
	{netip.MustParsePrefix("fd00:ec2::254/128"), Metadata},
	{netip.MustParsePrefix("fc00::/7"), Private},
	{netip.MustParsePrefix("fe80::/10"), LinkLocal},
	{netip.MustParsePrefix("fec0::/10"), Private},
	{netip.MustParsePrefix("ff00::/8"), Multicast},
}

// Prefixes of IPv6 addresses that carry an IPv4 address a translator or
// tunnel delivers to.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052 well-known prefix: the last 32 bits
	sixTo4 = netip.MustParsePrefix("2002::/16")    // RFC 3056: bits 16 to 48
	teredo = netip.MustParsePrefix("2001::/32")    // RFC 4380: server in bits 32 to 64, client inverted in the last 32
)

// Classify says what kind of address a is. An IPv6 address that embeds an
// IPv4 one (IPv4-mapped, NAT64, 6to4, Teredo) has the class of the IPv4
// address it leads to when that one is not public; a zone is ignored.
func Classify(a netip.Addr) Class {
	a = a.WithZone("")
	if a.Is4In6() {
		a = a.Unmap()
	}
	if a.Is6() {
		if c := embedded(a); c != Public {
			return c
		}
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.class
		}
	}
	return Public
}

// embedded classifies the IPv4 addresses an IPv6 address leads to (Public
// when it embeds none, or only public ones).
func embedded(a netip.Addr) Class {
	b := a.As16()
	v4 := func(p []byte) netip.Addr { return netip.AddrFrom4([4]byte(p)) }
	switch {
	case nat64.Contains(a):
		return Classify(v4(b[12:16]))
	case sixTo4.Contains(a):
		return Classify(v4(b[2:6]))
	case teredo.Contains(a):
		if c := Classify(v4(b[4:8])); c != Public {
			return c
		}
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return Classify(netip.AddrFrom4(client))
	}
	return Public
}
