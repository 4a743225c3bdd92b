package sandbox_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxCoreLines bounds the non-test code of the two packages everything else
// hangs from: the facade (New, options, the wiring of every package) and
// internal/api (the request pipeline). Each grew to tens of thousands of
// lines when capabilities were added beside them rather than in packages of
// their own; a capability that does not fit under this bound belongs in a
// package of its own, placed in the layering.
const maxCoreLines = 1800

// TestFacadeAndPipelineStaySmall counts the lines of the non-test Go files
// of the facade and of internal/api.
func TestFacadeAndPipelineStaySmall(t *testing.T) {
	for _, dir := range []string{".", filepath.Join("internal", "api")} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		lines := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			lines += bytes.Count(b, []byte("\n"))
		}
		require.NotZero(t, lines, "%s has Go files", dir)
		t.Logf("%s: %d lines of non-test code", dir, lines)
		assert.LessOrEqual(t, lines, maxCoreLines, "%s has grown past %d lines: move a capability into a package of its own", dir, maxCoreLines)
	}
}
