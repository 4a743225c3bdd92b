package outbound

// Connections under the rules. The sandbox's own transport checks every
// address in the dialer's Control hook, after DNS and before the
// connection is made, for every address it tries: a redirect, a second
// DNS answer or a name that resolves differently the next time (DNS
// rebinding) is checked again when it is dialled, because nothing else
// connects. No proxy is used: through a proxy the address the sandbox
// dials would be the proxy's, and the target's would go unchecked.

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// hostKey carries the host of the URL being dialled to the Control hook,
// which sees only the address.
type hostKey struct{}

// Guard returns a copy of c whose connections follow p, and whether they
// do. A client without a transport gets the default transport's settings
// with the checking dialer; an *http.Transport gets a clone without proxy
// and, when it dials itself (DialContext, DialTLSContext), the address its
// connection reached is checked before anything is sent on it. Another
// RoundTripper cannot be guarded and is used as given (false).
func (p *Policy) Guard(c *http.Client) (*http.Client, bool) {
	out := *c
	switch t := c.Transport.(type) {
	case nil:
		base := http.DefaultTransport.(*http.Transport).Clone()
		base.DialContext = nil
		out.Transport = p.transport(base)
	case *http.Transport:
		out.Transport = p.transport(t.Clone())
	default:
		return &out, false
	}
	return &out, true
}

// transport puts t (a clone) under the rules.
func (p *Policy) transport(t *http.Transport) *http.Transport {
	t.Proxy = nil
	adoptLegacyDials(t)
	if t.DialTLSContext != nil {
		t.DialTLSContext = p.checkAfterDial(t.DialTLSContext)
	}
	if t.DialContext != nil {
		t.DialContext = p.checkAfterDial(t.DialContext)
	} else {
		t.DialContext = p.dialContext()
	}
	return t
}

// adoptLegacyDials moves the deprecated Dial and DialTLS of t into
// DialContext and DialTLSContext where those are unset, so that the
// checks cover them: an older client's transport may still set them, and
// left in place they would dial unchecked. Where the context form is set
// the transport ignores the old one, and so does this.
//
//nolint:staticcheck // SA1019: reading the deprecated fields is the point; nothing here sets them.
func adoptLegacyDials(t *http.Transport) {
	if t.DialTLSContext == nil && t.DialTLS != nil {
		dial := t.DialTLS
		t.DialTLS = nil
		t.DialTLSContext = func(_ context.Context, network, addr string) (net.Conn, error) { return dial(network, addr) }
	}
	if t.DialContext == nil && t.Dial != nil {
		dial := t.Dial
		t.Dial = nil
		t.DialContext = func(_ context.Context, network, addr string) (net.Conn, error) { return dial(network, addr) }
	}
}

type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// dialContext is the sandbox's own dialer (the default transport's
// timeouts) with the Control hook.
func (p *Policy) dialContext() dialFunc {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, ControlContext: p.control}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(context.WithValue(ctx, hostKey{}, hostOf(addr)), network, addr)
	}
}

// control checks the address a socket is about to connect to.
func (p *Policy) control(ctx context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Host: address, Class: Reserved, PublicOnly: p.publicOnly}
	}
	host, _ := ctx.Value(hostKey{}).(string)
	if host == "" {
		host = ap.Addr().String()
	}
	return p.Check(host, ap.Addr())
}

// checkAfterDial wraps a dialer the sandbox did not make: the connection
// it made is closed unless it reached an allowed address. A connection
// that is not TCP (an in-memory one in a test) reached no address and is
// kept.
func (p *Policy) checkAfterDial(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if ta, ok := conn.RemoteAddr().(*net.TCPAddr); ok {
			if err := p.Check(hostOf(addr), ta.AddrPort().Addr()); err != nil {
				conn.Close()
				return nil, &net.OpError{Op: "dial", Net: network, Err: err}
			}
		}
		return conn, nil
	}
}

// hostOf is the host of host:port.
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}
