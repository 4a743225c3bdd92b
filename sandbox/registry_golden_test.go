package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// TestGoldenRegistry pins what a sandbox registers: every route in the
// order gorilla/mux tries it (the first match wins, so the order is
// behaviour), every job kind and the hooks. Moving handlers between files or packages
// must leave testdata/golden/registry.txt as it is. Refresh with
// go test ./sandbox -run TestGoldenRegistry -update and review the diff.
func TestGoldenRegistry(t *testing.T) {
	sb, err := sandbox.New()
	require.NoError(t, err)
	t.Cleanup(sb.Close)

	var b strings.Builder
	b.WriteString("# routes, in the order the router tries them\n")
	for i, rt := range sandbox.RegisteredRoutesForTest(sb) {
		fmt.Fprintf(&b, "%3d %-7s %s", i+1, strings.Join(rt.Methods, ","), rt.Path)
		switch {
		case rt.Operation != "":
			fmt.Fprintf(&b, " op=%s", rt.Operation)
			if rt.Unhandled {
				b.WriteString(" unhandled")
			}
		default:
			b.WriteString(" control")
			if rt.Public {
				b.WriteString(" public")
			}
			if rt.NoBody {
				b.WriteString(" nobody")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("# job kinds\n")
	for _, kind := range sandbox.JobKindsForTest(sb) {
		b.WriteString(kind + "\n")
	}

	b.WriteString("# hooks\n")
	for _, h := range sandbox.HooksForTest(sb) {
		b.WriteString(h + "\n")
	}

	path := filepath.Join("testdata", "golden", "registry.txt")
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./sandbox -run TestGoldenRegistry -update to create %s", path)
	assert.Equal(t, string(want), b.String(), "the registered routes or job kinds changed; review and run with -update")
}
