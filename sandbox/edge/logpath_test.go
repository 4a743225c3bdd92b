package edge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLogPath(t *testing.T) {
	cases := []struct{ path, query, want string }{
		{"/v3/signature_request/abc", "", "/v3/signature_request/abc"},
		{"/v3/signature_request/list", "page=2&page_size=5", "/v3/signature_request/list?page&page_size"},
		{"/oauth/token", "refresh", "/oauth/token?refresh"},
		{"/_sandbox/w/default/sign/s3cret", "", "/_sandbox/w/default/sign/REDACTED"},
		{"/_sandbox/w/default/sign/s3cret/documents/0", "", "/_sandbox/w/default/sign/REDACTED/documents/0"},
		{"/_sandbox/w/w1/claim/s3cret", "", "/_sandbox/w/w1/claim/REDACTED"},
		{"/_sandbox/w/w1/files/s3cret", "", "/_sandbox/w/w1/files/REDACTED"},
		{"/_sandbox/w/w1/editor/template/s3cret/documents/1", "", "/_sandbox/w/w1/editor/template/REDACTED/documents/1"},
		{"/_sandbox/w/w1/team_invites/s3cret/accept", "", "/_sandbox/w/w1/team_invites/REDACTED/accept"},
		{"/_sandbox/w/w1/requests/abc", "", "/_sandbox/w/w1/requests/abc"},
		{"/_sandbox/w/w1/newpage/s3cret/more", "", "/_sandbox/w/w1/newpage/REDACTED"},
		{"/_sandbox/w/w1/sign", "", "/_sandbox/w/w1/sign"},
		{"/_sandbox/w/default/sign/s3cret", "code=s3cret&state=s3cret", "/_sandbox/w/default/sign/REDACTED?code&state"},
	}
	for _, tc := range cases {
		got := LogPath(tc.path, tc.query)
		assert.Equal(t, tc.want, got, tc.path)
		assert.NotContains(t, got, "s3cret")
	}
	long := LogPath("/v3/"+strings.Repeat("a", 5000), "")
	assert.Len(t, long, maxLogPath+len("...(cut)"))
}

// A path without a page or a query is answered as it is, without
// allocating: the access log calls LogPath on every request.
func TestLogPathCostsNothingOnAPIPaths(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() { _ = LogPath("/v3/signature_request/abc", "") })
	assert.Zero(t, allocs)
}
