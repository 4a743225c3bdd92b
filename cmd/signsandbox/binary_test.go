package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
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
