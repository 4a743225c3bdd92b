package recording

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRecordingName makes a scenario name of a file name: its base without
// extension, runs of other characters as one dash, at most 64 long.
func TestRecordingName(t *testing.T) {
	for in, want := range map[string]string{
		"session.yaml":               "session",
		"/tmp/out/my session.json":   "my-session",
		"a//b/../checkout flow!.yml": "checkout-flow",
		"--.yaml":                    "recording",
		"":                           "recording",
		strings.Repeat("x", 80):      strings.Repeat("x", 64),
	} {
		assert.Equal(t, want, recordingName(in), "%q", in)
	}
}

// TestNewProxyNeedsAnHTTPUpstream refuses anything but an http(s) URL with
// a host.
func TestNewProxyNeedsAnHTTPUpstream(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://example.com", "http://", "file:///etc"} {
		_, err := NewProxy(u, "out.yaml", nil)
		assert.Error(t, err, u)
	}
	p, err := NewProxy("https://api.example.com/", "out.yaml", nil)
	if assert.NoError(t, err) {
		assert.Equal(t, "https://api.example.com", p.upstream.String(), "the trailing slash is dropped")
		assert.Zero(t, p.Calls())
		assert.NoError(t, p.Err())
	}
}
