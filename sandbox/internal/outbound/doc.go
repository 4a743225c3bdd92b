// Package outbound holds the destination rules of every connection the
// sandbox makes on a caller's behalf (file_urls downloads, callback
// deliveries): server-side request forgery guards. A caller of a shared
// server must not be able to make it fetch or post to its own network: a
// cloud's metadata service, an admin page, a database's HTTP port.
//
// The rules are checked on the address actually dialled, in the dialer's
// Control hook, after DNS and for every redirect, so a name that resolves
// to an internal address, or resolves differently between a check and the
// connection, cannot slip past. Link-local, metadata, unspecified,
// multicast, broadcast and reserved addresses are never connected to; a
// team server (one with an admin token) refuses loopback, private and
// CGNAT addresses too, unless the operator allows them (--allow-outbound).
// IPv6 spellings of an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo)
// count as that address.
package outbound
