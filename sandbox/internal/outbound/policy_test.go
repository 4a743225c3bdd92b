package outbound

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustPolicy(t *testing.T, publicOnly bool, allow ...string) *Policy {
	t.Helper()
	p, err := NewPolicy(publicOnly, allow)
	require.NoError(t, err)
	return p
}

func TestLocalPolicyRefusesOnlyTheNeverClasses(t *testing.T) {
	p := mustPolicy(t, false)
	for _, a := range []string{"127.0.0.1", "::1", "10.0.0.1", "192.168.0.10", "100.64.1.1", "fd00::1", "8.8.8.8"} {
		assert.NoError(t, p.Check("h", netip.MustParseAddr(a)), a)
	}
	for _, a := range []string{"169.254.169.254", "::ffff:169.254.169.254", "fe80::1", "fd00:ec2::254", "0.0.0.0", "::", "224.0.0.1", "255.255.255.255", "64:ff9b::a9fe:a9fe"} {
		err := p.Check("h", netip.MustParseAddr(a))
		var r *RefusedError
		require.True(t, errors.As(err, &r), a)
		assert.False(t, r.PublicOnly)
		assert.Contains(t, err.Error(), "destination not allowed: ")
		assert.NotContains(t, err.Error(), a, "the caller's text names no address")
		assert.Contains(t, r.Detail(), netip.MustParseAddr(a).WithZone("").String(), "the operator's does")
	}
}

func TestTeamPolicyRefusesEveryNonPublicAddress(t *testing.T) {
	p := mustPolicy(t, true)
	assert.True(t, p.PublicOnly())
	assert.NoError(t, p.Check("example.com", netip.MustParseAddr("93.184.215.14")))
	var texts []string
	for _, a := range []string{"127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "172.20.0.2", "192.168.0.10", "100.64.1.1", "fd00::1", "169.254.169.254", "0.0.0.0"} {
		err := p.Check("h", netip.MustParseAddr(a))
		var r *RefusedError
		require.True(t, errors.As(err, &r), a)
		texts = append(texts, err.Error())
	}
	for _, s := range texts {
		assert.Equal(t, texts[0], s, "one text for every refused class: it tells nothing about the address")
	}
}

func TestAllowOutbound(t *testing.T) {
	for _, tc := range []struct {
		allow   []string
		host    string
		addr    string
		allowed bool
	}{
		{[]string{"private"}, "x", "127.0.0.1", true},
		{[]string{"PRIVATE"}, "x", "10.9.9.9", true},
		{[]string{"private"}, "x", "169.254.169.254", false},
		{[]string{"10.1.0.0/16"}, "x", "10.1.2.3", true},
		{[]string{"10.1.0.0/16"}, "x", "10.2.0.1", false},
		{[]string{"10.1.2.3"}, "x", "10.1.2.3", true},
		{[]string{"10.1.2.3"}, "x", "::ffff:10.1.2.3", true},
		{[]string{"::ffff:10.1.2.3"}, "x", "10.1.2.3", true},
		{[]string{"::ffff:10.1.0.0/112"}, "x", "10.1.2.3", true},
		{[]string{"[::1]"}, "x", "::1", true},
		{[]string{"fd00::/8"}, "x", "fd12::1", true},
		{[]string{"0.0.0.0/0"}, "x", "192.168.1.1", true},
		{[]string{"0.0.0.0/0"}, "x", "169.254.169.254", false},
		{[]string{"files.internal"}, "files.internal", "10.0.0.5", true},
		{[]string{"files.internal"}, "FILES.internal.", "10.0.0.5", true},
		{[]string{"files.internal"}, "other.internal", "10.0.0.5", false},
		{[]string{"*.corp.example"}, "a.b.corp.example", "10.0.0.5", true},
		{[]string{"*.corp.example"}, "corp.example", "10.0.0.5", false},
		{[]string{"localhost"}, "localhost", "127.0.0.1", true},
		{[]string{"localhost"}, "127.0.0.1", "127.0.0.1", false},
		{[]string{"metadata.google.internal"}, "metadata.google.internal", "169.254.169.254", false},
	} {
		p := mustPolicy(t, true, tc.allow...)
		err := p.Check(tc.host, netip.MustParseAddr(tc.addr))
		assert.Equal(t, tc.allowed, err == nil, "allow %v, %s at %s: %v", tc.allow, tc.host, tc.addr, err)
	}
}

func TestRefusalDetail(t *testing.T) {
	p := mustPolicy(t, true)
	var r *RefusedError
	require.True(t, errors.As(p.Check("169.254.169.254", netip.MustParseAddr("169.254.169.254")), &r))
	assert.Equal(t, "169.254.169.254 is a link-local address", r.Detail())
	require.True(t, errors.As(p.Check("db.corp", netip.MustParseAddr("10.0.0.7")), &r))
	assert.Equal(t, "db.corp resolved to 10.0.0.7, a private address", r.Detail())
}

func TestCheckAllow(t *testing.T) {
	for _, ok := range []string{"private", "files.internal", "*.corp.example", "10.0.0.0/8", "10.1.2.3", "::1", "[fd00::1]", "fd00::/8", "0.0.0.0/0", "host_name.local"} {
		assert.NoError(t, CheckAllow(ok), ok)
	}
	for _, bad := range []string{"", "http://files.internal", "files.internal:8080", "files.internal/path", "169.254.169.254", "169.254.0.0/16", "fe80::/64", "224.0.0.1", "*", "*.", "a..b", "10.0.0.0/33", "user@host", "*foo.com"} {
		assert.Error(t, CheckAllow(bad), bad)
	}
	_, err := NewPolicy(true, []string{"ok.example", "bad host"})
	assert.ErrorContains(t, err, `"bad host"`)
}
