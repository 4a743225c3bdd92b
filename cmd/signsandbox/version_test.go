package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// repoRoot is the module's root, from this package's directory.
const repoRoot = "../.."

// `signsandbox version`, `--version` and `-version` print the same one
// line, and no usage.
func TestVersionCommandAndFlags(t *testing.T) {
	want := "signsandbox " + sandbox.Build().String() + "\n"
	assert.Regexp(t, `^signsandbox \S+ \(`, want)
	for _, arg := range []string{"version", "--version", "-version"} {
		cmd, ok := commands[arg]
		require.True(t, ok, arg)
		var out, errb bytes.Buffer
		assert.Equal(t, 0, cmd(nil, &out, &errb), arg)
		assert.Equal(t, want, out.String(), arg)
		assert.Empty(t, errb.String(), arg)
	}
	assert.Equal(t, sandbox.Version, sandbox.Build().Version)
}

// buildBinary builds ./cmd/signsandbox into a temporary directory with the
// given go build arguments and environment.
func buildBinary(t *testing.T, env []string, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "signsandbox")
	cmd := exec.Command("go", append(append([]string{"build", "-o", bin}, args...), "./cmd/signsandbox")...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// versionLine runs the version command and both flags, checks they agree
// and print nothing else, and answers the line.
func versionLine(t *testing.T, bin string) string {
	t.Helper()
	var line string
	for _, arg := range []string{"version", "--version", "-version"} {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, arg)
		cmd.Stdout, cmd.Stderr = &out, &errb
		require.NoError(t, cmd.Run(), "%s %s: %s", bin, arg, errb.String())
		assert.Empty(t, errb.String(), arg)
		if line == "" {
			line = out.String()
		}
		assert.Equal(t, line, out.String(), arg)
	}
	return line
}

// serveVersions starts the binary on a free port and answers the version
// its banner names, the one /_sandbox/health answers, and its base URL.
func serveVersions(t *testing.T, bin string) (banner, health, base string) {
	t.Helper()
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "SIGNSANDBOX_CLOCK=fake")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan(), "no banner")
	m := regexp.MustCompile(`^signsandbox (\S+) listening on (http://\S+)$`).FindStringSubmatch(lines.Text())
	require.NotNil(t, m, "banner: %q", lines.Text())
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	resp, err := http.Get(m[2] + "/_sandbox/health")
	require.NoError(t, err)
	defer resp.Body.Close()
	var h struct {
		Version string `json:"version"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
	return m[1], h.Version, m[2]
}

// A build in a git checkout, without ldflags, names the commit it was
// built from and whether the tree had changes, as Go recorded them.
func TestCheckoutBuildNamesItsCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	// Go reads VCS information only where .git is a directory: not in a git
	// worktree (where .git is a file) nor in a copy without it.
	if fi, err := os.Stat(filepath.Join(repoRoot, ".git")); err != nil || !fi.IsDir() {
		t.Skip("not a git checkout with a .git directory: go build records no commit here")
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = repoRoot
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	head := git("rev-parse", "HEAD")
	modified := git("status", "--porcelain") != ""
	bin := buildBinary(t, []string{"CGO_ENABLED=0"}, "-trimpath", "-buildvcs=true")

	commit := "commit " + head[:12]
	if modified {
		commit += ", modified"
	}
	line := versionLine(t, bin)
	assert.Regexp(t, `^signsandbox \S+ \(`+regexp.QuoteMeta(commit+", "+runtime.Version()+", ")+`\S+\)\n$`, line)
	assert.NotContains(t, line, "signsandbox dev ", "a checkout's build has a version")
}
