package sandbox_test

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestMain says once, before the tests, when the per-response conformance
// checks are off because the official OpenAPI description is not where the
// tests look: otherwise a checkout without ../shared passes with a weaker
// guarantee and nobody is told.
func TestMain(m *testing.M) {
	flag.Parse()
	if conformance.LoadIfPresent() == nil {
		w, done := noticeWriter()
		fmt.Fprintln(w, conformanceOffNotice(conformance.Path()))
		done()
	}
	os.Exit(m.Run())
}

// conformanceOffNotice is the one line printed when the description is
// missing: where it was looked for and how to point the tests at it.
func conformanceOffNotice(path string) string {
	return fmt.Sprintf("signsandbox tests: per-response conformance checks are OFF: the official OpenAPI description was not found at %s (put ../shared/reference beside the repository, or set %s to the file)", path, conformance.EnvSpec)
}

// noticeWriter is where the notice goes. go test in package list mode
// (go test ./...) discards what a passing package printed unless -v is
// given, so without -v the notice goes to the terminal (/dev/tty) when
// there is one; otherwise, and with -v, to stderr.
func noticeWriter() (io.Writer, func()) {
	if !testing.Verbose() {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			return tty, func() { tty.Close() }
		}
	}
	return os.Stderr, func() {}
}
