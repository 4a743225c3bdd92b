package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResolve(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name            string
		version, commit string
		bi              *debug.BuildInfo
		want            Info
	}{{
		name:    "stamped by a release build, over what the toolchain recorded",
		version: "1.2.3", commit: "fedcba9876543210fedcba9876543210fedcba98",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: ModulePath, Version: "v1.2.3"}, Settings: vcs},
		want: Info{Version: "1.2.3", Commit: "fedcba9876543210fedcba9876543210fedcba98", GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "go install ...@v1.2.3: the module version, no commit",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: ModulePath, Version: "v1.2.3"}},
		want: Info{Version: "1.2.3", GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "go build in a checkout: the pseudo-version and the revision",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20260101120000-0123456789ab+dirty"}, Settings: vcs},
		want: Info{Version: "0.0.0-20260101120000-0123456789ab+dirty", Commit: "0123456789abcdef0123456789abcdef01234567", Modified: true, GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "go build without VCS information",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: ModulePath, Version: "(devel)"}},
		want: Info{Version: Dev, GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "a program requiring the module: its version there, not the program's revision",
		bi: &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/app", Version: "v9.0.0"}, Settings: vcs,
			Deps: []*debug.Module{{Path: "github.com/google/uuid", Version: "v1.6.0"}, {Path: ModulePath, Version: "v1.4.0"}}},
		want: Info{Version: "1.4.0", GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "a program replacing the module by a directory",
		bi: &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{{Path: ModulePath, Version: "v1.4.0", Replace: &debug.Module{Path: "../signsandbox"}}}},
		want: Info{Version: Dev, GoVersion: "go1.26.0", Platform: platform},
	}, {
		name: "no build information at all",
		want: Info{Version: Dev, GoVersion: runtime.Version(), Platform: platform},
	}} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, resolve(c.version, c.commit, c.bi))
		})
	}
}

func TestInfoString(t *testing.T) {
	i := Info{Version: "1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.26.0", Platform: "linux/amd64"}
	assert.Equal(t, "1.2.3 (commit 0123456789ab, go1.26.0, linux/amd64)", i.String())
	i.Modified = true
	assert.Equal(t, "1.2.3 (commit 0123456789ab, modified, go1.26.0, linux/amd64)", i.String())
	assert.Equal(t, "dev (go1.26.0, linux/amd64)", Info{Version: Dev, GoVersion: "go1.26.0", Platform: "linux/amd64"}.String())
}

// A test binary records this module as its main module without a version.
func TestCurrentInATest(t *testing.T) {
	assert.NotEmpty(t, Current().Version)
	assert.NotEqual(t, "(devel)", Current().Version)
}
