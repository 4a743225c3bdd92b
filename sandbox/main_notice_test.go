package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// A test binary that cannot find the official description says so in one
// line naming the path it looked at and the override; with it, it says
// nothing. (The binary is this package's own, re-run with a missing
// SIGNSANDBOX_OPENAPI and a filter that runs no test.)
func TestConformanceOffIsAnnounced(t *testing.T) {
	if os.Getenv("SIGNSANDBOX_NOTICE_CHILD") != "" {
		return
	}
	missing := filepath.Join(t.TempDir(), "openapi.yaml")
	run := func(env ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConformanceOffIsAnnounced$", "-test.v")
		cmd.Env = append(os.Environ(), append([]string{"SIGNSANDBOX_NOTICE_CHILD=1"}, env...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	out := run(conformance.EnvSpec + "=" + missing)
	assert.Contains(t, out, conformanceOffNotice(missing)+"\n")
	assert.Equal(t, 1, strings.Count(out, "conformance checks are OFF"))
	assert.Contains(t, out, "SIGNSANDBOX_OPENAPI")

	if conformance.LoadIfPresent() != nil {
		assert.NotContains(t, run(), "conformance checks are OFF", "quiet when the description is found")
	}
}
