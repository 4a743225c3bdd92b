package main

// The release configuration: .goreleaser.yaml's build stamps the version
// the binary reports, and the two Dockerfiles make the same image.

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// releaseBuild is the build of .goreleaser.yaml, read as GoReleaser does.
type releaseBuild struct {
	Main    string   `yaml:"main"`
	Binary  string   `yaml:"binary"`
	Env     []string `yaml:"env"`
	Flags   []string `yaml:"flags"`
	Ldflags []string `yaml:"ldflags"`
}

func readReleaseBuild(t *testing.T) releaseBuild {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
	require.NoError(t, err)
	var cfg struct {
		Builds []releaseBuild `yaml:"builds"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	require.Len(t, cfg.Builds, 1)
	return cfg.Builds[0]
}

// A release build (the flags and ldflags of .goreleaser.yaml, with the
// values GoReleaser fills in) prints the stamped version and commit, and
// the banner and the health check report the same version.
func TestReleaseBuildIsStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const version, commit = "9.8.7-test", "0123456789abcdef0123456789abcdef01234567"
	b := readReleaseBuild(t)
	require.Equal(t, "./cmd/signsandbox", b.Main)
	fill := strings.NewReplacer("{{ .Version }}", version, "{{ .FullCommit }}", commit)
	ldflags := fill.Replace(strings.Join(b.Ldflags, " "))
	require.NotContains(t, ldflags, "{{", "a template this test does not fill")
	bin := buildBinary(t, b.Env, append(b.Flags, "-ldflags="+ldflags)...)

	want := "signsandbox " + version + " (commit 0123456789ab, " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	assert.Equal(t, want, versionLine(t, bin))
	banner, health, _ := serveVersions(t, bin)
	assert.Equal(t, version, banner)
	assert.Equal(t, version, health)
}

// Dockerfile (built from source) and release.Dockerfile (from GoReleaser's
// binaries) make the same image: their final stages differ only in where
// the binary comes from, and both carry the licences.
func TestDockerfilesMakeTheSameImage(t *testing.T) {
	finalStage := func(name string) []string {
		raw, err := os.ReadFile(filepath.Join(repoRoot, name))
		require.NoError(t, err)
		text := strings.ReplaceAll(string(raw), "\\\n", "")
		var stage []string
		binaries := 0
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "FROM "):
				stage = []string{line}
				binaries = 0
			case line == "", strings.HasPrefix(line, "#"), strings.HasPrefix(line, "ARG "):
			case strings.HasPrefix(line, "COPY ") && strings.HasSuffix(line, " /usr/local/bin/signsandbox"):
				binaries++
			default:
				stage = append(stage, line)
			}
		}
		require.Equal(t, 1, binaries, "%s: one COPY of the binary in the final stage", name)
		return stage
	}
	source, release := finalStage("Dockerfile"), finalStage("release.Dockerfile")
	assert.Equal(t, source, release)
	assert.Contains(t, source, "COPY LICENSE THIRD_PARTY_NOTICES /usr/share/doc/signsandbox/")

	// Dockerfile stamps VERSION and COMMIT where a release build does.
	dockerfile, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	require.NoError(t, err)
	stamps := regexp.MustCompile(`-X (\S+)=`).FindAllStringSubmatch(strings.Join(readReleaseBuild(t).Ldflags, " "), -1)
	require.Len(t, stamps, 2)
	for _, s := range stamps {
		assert.Contains(t, string(dockerfile), s[0], "Dockerfile ldflags")
	}
}
