package outbound

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretServer serves a secret on 127.0.0.1 and counts the connections
// it accepted: a refused destination must not even be connected to.
type secretServer struct {
	*httptest.Server
	conns atomic.Int64
}

const secret = "INTERNAL-SECRET-TOKEN-42"

func newSecretServer(t *testing.T) *secretServer {
	t.Helper()
	s := &secretServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, secret)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// port is the server's port.
func (s *secretServer) port() string {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	return p
}

// get fetches u with a client guarded by p and answers the body or the error.
func get(t *testing.T, p *Policy, base *http.Client, u string) (string, error) {
	t.Helper()
	c, ok := p.Guard(base)
	require.True(t, ok)
	c.Timeout = 5 * time.Second
	resp, err := c.Get(u)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// refused returns the class of the destination err refused, failing the
// test when err is not a refusal.
func refused(t *testing.T, err error) Class {
	t.Helper()
	var r *RefusedError
	require.True(t, errors.As(err, &r), "want a refusal, got %v", err)
	return r.Class
}

func TestGuardedClientChecksWhatIsDialled(t *testing.T) {
	s := newSecretServer(t)
	local := mustPolicy(t, false)
	team := mustPolicy(t, true)
	urls := []string{
		"http://127.0.0.1:" + s.port() + "/secret",
		"http://localhost:" + s.port() + "/secret",
		"http://[::ffff:127.0.0.1]:" + s.port() + "/secret",
	}
	for _, u := range urls {
		body, err := get(t, team, &http.Client{}, u)
		if err == nil || body != "" {
			t.Fatalf("%s: a team server fetched %q", u, body)
		}
		assert.Equal(t, Loopback, refused(t, err), u)
		assert.NotContains(t, Describe(err), "127.0.0.1", "the caller's description names no address")
	}
	assert.Zero(t, s.conns.Load(), "a refused destination is never connected to")

	for _, u := range urls {
		body, err := get(t, local, &http.Client{}, u)
		require.NoError(t, err, u)
		assert.Equal(t, secret, body, "a local sandbox fetches loopback fixtures")
	}
}

func TestGuardedClientIPv6Loopback(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, secret) })}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	u := "http://" + ln.Addr().String() + "/secret"

	_, err = get(t, mustPolicy(t, true), &http.Client{}, u)
	assert.Equal(t, Loopback, refused(t, err))
	body, err := get(t, mustPolicy(t, true, "::1"), &http.Client{}, u)
	require.NoError(t, err)
	assert.Equal(t, secret, body, "allowed by address")
	body, err = get(t, mustPolicy(t, false), &http.Client{}, u)
	require.NoError(t, err)
	assert.Equal(t, secret, body)
}

func TestRedirectsAreCheckedAtEachHop(t *testing.T) {
	s := newSecretServer(t)
	team := mustPolicy(t, true, "localhost") // the redirecting host is allowed by name
	toIP := "http://localhost:" + s.port() + "/redirect?to=" + url.QueryEscape("http://127.0.0.1:"+s.port()+"/secret")
	_, err := get(t, team, &http.Client{}, toIP)
	assert.Equal(t, Loopback, refused(t, err), "the hop to an address not allowed is refused")
	body, err := get(t, team, &http.Client{}, "http://localhost:"+s.port()+"/redirect?to="+url.QueryEscape("http://localhost:"+s.port()+"/secret"))
	require.NoError(t, err)
	assert.Equal(t, secret, body, "a hop to an allowed host is followed")
}

func TestGuardIgnoresProxies(t *testing.T) {
	s := newSecretServer(t)
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		proxied.Add(1)
		_, _ = io.WriteString(w, secret)
	}))
	t.Cleanup(proxy.Close)
	pu, _ := url.Parse(proxy.URL)
	base := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	_, err := get(t, mustPolicy(t, true), base, "http://127.0.0.1:"+s.port()+"/secret")
	refused(t, err)
	body, err := get(t, mustPolicy(t, false), base, "http://127.0.0.1:"+s.port()+"/secret")
	require.NoError(t, err)
	assert.Equal(t, secret, body)
	assert.Zero(t, proxied.Load(), "no request goes through a proxy")

	t.Setenv("HTTP_PROXY", proxy.URL)
	_, err = get(t, mustPolicy(t, true), &http.Client{}, "http://127.0.0.1:"+s.port()+"/secret")
	refused(t, err)
	assert.Zero(t, proxied.Load())
}

func TestGuardChecksConnectionsOfCustomDialers(t *testing.T) {
	s := newSecretServer(t)
	var d net.Dialer
	custom := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	_, err := get(t, mustPolicy(t, true), custom, "http://127.0.0.1:"+s.port()+"/secret")
	refused(t, err)
	legacy := &http.Client{Transport: &http.Transport{Dial: net.Dial}} //nolint:staticcheck // SA1019: the deprecated Dial is what this checks is guarded
	_, err = get(t, mustPolicy(t, true), legacy, "http://localhost:"+s.port()+"/secret")
	refused(t, err)
	body, err := get(t, mustPolicy(t, true, "private"), custom, "http://127.0.0.1:"+s.port()+"/secret")
	require.NoError(t, err)
	assert.Equal(t, secret, body)

	_, ok := mustPolicy(t, true).Guard(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("x") })})
	assert.False(t, ok, "another RoundTripper cannot be guarded")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestControlSeesEveryAddress drives the hook as the dialer does for each
// address a name resolved to: the answer depends on the address dialled,
// whatever the name, so a name that resolves to a public address when
// looked at and to an internal one when dialled (DNS rebinding) is refused.
func TestControlSeesEveryAddress(t *testing.T) {
	p := mustPolicy(t, true, "files.internal")
	ctx := context.WithValue(context.Background(), hostKey{}, "rebind.example")
	assert.NoError(t, p.control(ctx, "tcp4", "93.184.215.14:80", nil))
	assert.Error(t, p.control(ctx, "tcp4", "10.0.0.1:80", nil))
	assert.Error(t, p.control(ctx, "tcp6", "[::ffff:169.254.169.254]:80", nil))
	assert.Error(t, p.control(ctx, "tcp6", "[fe80::1%eth0]:80", nil))
	assert.Error(t, p.control(ctx, "unix", "/run/docker.sock", nil))
	allowed := context.WithValue(context.Background(), hostKey{}, "files.internal")
	assert.NoError(t, p.control(allowed, "tcp4", "10.0.0.1:80", nil))
	assert.Error(t, p.control(allowed, "tcp4", "169.254.169.254:80", nil))
}

func TestDescribeDropsAddresses(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "db.corp", Server: "10.0.0.2:53", IsNotFound: true}
	assert.Equal(t, "lookup db.corp: no such host", Describe(&url.Error{Op: "Get", URL: "http://db.corp/", Err: dns}))
	op := &net.OpError{Op: "read", Net: "tcp",
		Source: &net.TCPAddr{IP: net.ParseIP("172.17.0.2"), Port: 40312},
		Addr:   &net.TCPAddr{IP: net.ParseIP("93.184.215.14"), Port: 80},
		Err:    errors.New("connection reset by peer")}
	d := Describe(op)
	assert.Equal(t, "read tcp: connection reset by peer", d)
	r := &RefusedError{Host: "h", Addr: netip.MustParseAddr("10.0.0.1"), Class: Private, PublicOnly: true}
	assert.Equal(t, r.Error(), Describe(&url.Error{Op: "Get", URL: "http://h/", Err: &net.OpError{Op: "dial", Err: r}}))
	assert.Equal(t, "other", Describe(errors.New("other")))
}
