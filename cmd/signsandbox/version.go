package main

import (
	"fmt"
	"io"

	"github.com/signsandbox/signsandbox/sandbox"
)

// --version and -version are the habit of most command-line tools; they
// answer as the version command does instead of being refused as unknown
// server flags.
func init() {
	commands["--version"] = cmdVersion
	commands["-version"] = cmdVersion
}

// cmdVersion prints one line: the version, and what else the build knows:
// "signsandbox 1.2.3 (commit 0123456789ab, go1.26.0, linux/amd64)". See
// sandbox.Version for where the version comes from.
func cmdVersion(_ []string, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "signsandbox", sandbox.Build())
	return 0
}
