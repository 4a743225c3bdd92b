// Package buildinfo says which build of signsandbox is running. A release
// build stamps its version and commit at link time; any other build falls
// back on what the Go toolchain recorded in the binary: the module version
// of `go install github.com/signsandbox/signsandbox/cmd/signsandbox@v1.2.3`
// (or of a program that requires this module), and the VCS revision of a
// build made in a git checkout.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Release builds set these with the linker (see .goreleaser.yaml):
//
//	-X github.com/signsandbox/signsandbox/sandbox/internal/buildinfo.version=1.2.3
//	-X github.com/signsandbox/signsandbox/sandbox/internal/buildinfo.commit=<full hash>
//
// They stay string variables without a computed initialiser: -X can set
// only those.
var (
	version string
	commit  string
)

// ModulePath is the module whose version a build reports.
const ModulePath = "github.com/signsandbox/signsandbox"

// Dev is the version of a build that knows none: `go run`, or `go build`
// outside a git checkout (or with -buildvcs=false).
const Dev = "dev"

// Info describes a build.
type Info struct {
	// Version has no leading "v": "1.2.3", "1.2.4-SNAPSHOT-0123abc", a Go
	// pseudo-version such as "0.0.0-20260101120000-0123456789ab+dirty", or
	// Dev.
	Version string
	// Commit is the full revision the build was made from, "" when unknown
	// (`go install ...@version` records none).
	Commit string
	// Modified is true when the checkout had changes not committed.
	Modified bool
	// GoVersion is the toolchain that built the binary ("go1.26.0").
	GoVersion string
	// Platform is GOOS/GOARCH ("linux/amd64").
	Platform string
}

var current = resolve(version, commit, readBuildInfo())

// Current describes the running build.
func Current() Info { return current }

// String is the line `signsandbox version` prints after the name:
// "1.2.3 (commit 0123456789ab, go1.26.0, linux/amd64)".
func (i Info) String() string {
	var details []string
	if i.Commit != "" {
		c := i.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if i.Modified {
			c += ", modified"
		}
		details = append(details, "commit "+c)
	}
	details = append(details, i.GoVersion, i.Platform)
	return fmt.Sprintf("%s (%s)", i.Version, strings.Join(details, ", "))
}

func readBuildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// resolve prefers the stamped version and commit, then the build info: the
// main module's version and VCS settings when this module is the main one
// (the signsandbox binary), or the version this module has among the
// dependencies of another program (a test that uses the sandbox package);
// that program's VCS settings are its own, not this module's.
func resolve(stampedVersion, stampedCommit string, bi *debug.BuildInfo) Info {
	info := Info{Version: stampedVersion, Commit: stampedCommit, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.GoVersion != "" {
			info.GoVersion = bi.GoVersion
		}
		if info.Version == "" {
			info.Version = moduleVersion(bi)
		}
		if info.Commit == "" && bi.Main.Path == ModulePath {
			info.Commit, info.Modified = vcsRevision(bi.Settings)
		}
	}
	info.Version = strings.TrimPrefix(info.Version, "v")
	if info.Version == "" || info.Version == "(devel)" {
		info.Version = Dev
	}
	return info
}

// moduleVersion is this module's version in the build info, "" when the
// build recorded none.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi.Main.Path == ModulePath {
		return bi.Main.Version
	}
	for _, dep := range bi.Deps {
		if dep.Path != ModulePath {
			continue
		}
		if dep.Replace != nil {
			// A replacement by a directory has no version: a development build.
			return dep.Replace.Version
		}
		return dep.Version
	}
	return ""
}

// vcsRevision reads the revision and the modified flag `go build` records
// in a checkout.
func vcsRevision(settings []debug.BuildSetting) (revision string, modified bool) {
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return revision, modified
}
