package outbound

// What a caller may read about a failed connection. The errors of package
// net name the addresses involved: the resolver's ("lookup x on
// 10.0.0.2:53"), the server's own ("read tcp 172.17.0.2:40312->..."), and
// the one a name resolved to. A caller learns from them how the server's
// network looks, so the description keeps what went wrong and drops the
// addresses; the operator's log keeps the whole error.

import (
	"errors"
	"net"
	"net/url"
)

// Describe says why a connection or request failed without naming any
// address the caller did not give: a refusal as RefusedError.Error, a DNS
// failure without the resolver, a network error without its addresses.
func Describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused.Error()
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		d := *dns
		d.Server = ""
		return d.Error()
	}
	var op *net.OpError
	if errors.As(err, &op) {
		o := *op
		o.Source, o.Addr = nil, nil
		return o.Error()
	}
	return err.Error()
}
