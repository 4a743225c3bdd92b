package sandbox_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
)

// Every page the sandbox serves under /_sandbox/w/ shows no credential in
// the access log: a route parameter that is a credential (a token, an
// invitation id) is redacted by edge.LogPath, while the ids that are not
// (a signature request's, a report's, the world's) stay readable.
func TestLogPathRedactsEveryPageToken(t *testing.T) {
	param := regexp.MustCompile(`\{([a-z_]+)\}`)
	secretParams := map[string]bool{"token": true, "invite_id": true}
	seen := 0
	for _, rt := range sandbox.ControlRoutesForTest() {
		if !strings.HasPrefix(rt.Path, "/w/") {
			continue
		}
		seen++
		path := param.ReplaceAllStringFunc(rt.Path, func(m string) string {
			name := m[1 : len(m)-1]
			if secretParams[name] {
				return "SECRET" + name
			}
			return "visible" + name
		})
		got := edge.LogPath(sandbox.ControlPrefix+path, "")
		assert.NotContains(t, got, "SECRET", "%s %s", rt.Method, rt.Path)
		for _, m := range param.FindAllStringSubmatch(rt.Path, -1) {
			if !secretParams[m[1]] {
				assert.Contains(t, got, "visible"+m[1], "%s %s keeps its %s", rt.Method, rt.Path, m[1])
			}
		}
	}
	assert.Greater(t, seen, 5, "the pages were found")
}
