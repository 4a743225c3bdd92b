package sandbox_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// TestControlPlaneDescribesEveryControlRoute: the control plane's OpenAPI
// description (served at /_sandbox/openapi.yaml) names every route under
// /_sandbox/ that a sandbox registers, pages included, and nothing that is
// not registered. The answers themselves are checked against it by the
// conformance check of every control answer in the test suites; this test
// makes sure no route escapes that check by being left out.
func TestControlPlaneDescribesEveryControlRoute(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("internal", "console", "assets", "control-plane.yaml"))
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &doc))
	param := regexp.MustCompile(`\{[^}]+\}`)
	key := func(method, path string) string {
		return strings.ToUpper(method) + " " + param.ReplaceAllString(path, "{}")
	}
	described := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			switch method {
			case "get", "put", "post", "patch", "delete", "head":
				described[key(method, path)] = true
			}
		}
	}

	sb, err := sandbox.New()
	require.NoError(t, err)
	t.Cleanup(sb.Close)
	registered := map[string]bool{}
	var missing []string
	for _, rt := range sandbox.RegisteredRoutesForTest(sb) {
		if rt.Operation != "" || !strings.HasPrefix(rt.Path, sandbox.ControlPrefix) {
			continue
		}
		for _, m := range rt.Methods {
			k := key(m, rt.Path)
			registered[k] = true
			if !described[k] {
				missing = append(missing, k)
			}
		}
	}
	require.Greater(t, len(registered), 50, "the sandbox's control routes were listed")
	var stale []string
	for k := range described {
		if !registered[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	assert.Empty(t, missing, "control routes the description leaves out")
	assert.Empty(t, stale, "described routes no sandbox registers")
}
