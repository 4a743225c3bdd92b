package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// builtBinary is the signsandbox binary the tests that run it share: built
// once per test process, as the Dockerfile builds it (no cgo, -trimpath,
// stripped), rather than once per test.
var builtBinary struct {
	once sync.Once
	path string
	out  []byte
	err  error
}

// TestMain removes the shared binary's directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBinary.path != "" {
		os.RemoveAll(filepath.Dir(builtBinary.path))
	}
	os.Exit(code)
}

// testBinary returns the path of the binary built from this package,
// building it on first use; under -short the test is skipped instead.
func testBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	builtBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "signsandbox-test-bin-")
		if err != nil {
			builtBinary.err = err
			return
		}
		builtBinary.path = filepath.Join(dir, "signsandbox")
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", builtBinary.path, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		builtBinary.out, builtBinary.err = build.CombinedOutput()
	})
	if builtBinary.err != nil {
		t.Fatalf("build: %v\n%s", builtBinary.err, builtBinary.out)
	}
	return builtBinary.path
}

// runningBinary is a signsandbox process a test started: the base URL and
// the default world's key its banner printed, what it wrote on stderr, and
// its exit.
type runningBinary struct {
	cmd     *exec.Cmd
	base    string
	key     string
	stderr  *syncBuffer
	exited  chan error
	startup time.Duration // from exec to the listening line
}

// startBinary starts cmd (a server command of the binary) and reads its
// banner; a process the test leaves running is killed when it ends.
func startBinary(t *testing.T, cmd *exec.Cmd) *runningBinary {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	s := &runningBinary{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	start := time.Now()
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-s.exited //nolint:errcheck // a server the test left running was just killed: its status is that signal
		}
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		if strings.Contains(line, "listening on ") {
			s.base = line[strings.Index(line, "http://"):]
			s.startup = time.Since(start)
		}
		if m := keyLine.FindStringSubmatch(line); m != nil {
			s.key = m[1]
		}
		if strings.HasPrefix(line, "try:") {
			break
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, stdout)
		s.exited <- cmd.Wait()
	}()
	require.NotEmpty(t, s.base, "no banner; stderr: %s", s.stderr.String())
	require.NotEmpty(t, s.key)
	return s
}

// stop ends the binary with SIGTERM, requires a clean exit within limit,
// and returns what it logged.
func (s *runningBinary) stop(t *testing.T, limit time.Duration) string {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-s.exited:
		require.NoError(t, err, "exit after SIGTERM; stderr: %s", s.stderr.String())
	case <-time.After(limit):
		t.Fatal("the binary did not stop on SIGTERM")
	}
	return s.stderr.String()
}
