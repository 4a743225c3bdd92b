package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// New's errors that an option's value caused name the option, so that the
// binary can name the flag or environment variable behind it; a scenario
// that does not parse is reported once, by file, line and column.
func TestOptionErrorsNameTheirOption(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	bad := []byte("name: bad\nsteps:\n  - call: accountGet\n   expect: {}\n")
	cases := []struct {
		option string
		opt    sandbox.Option
		want   string
	}{
		{"WithFixturesDir", sandbox.WithFixturesDir(filepath.Join(dir, "none")), "no such file or directory"},
		{"WithFixturesDir", sandbox.WithFixturesDir(dir), dir + ": "},
		{"WithDataDir", sandbox.WithDataDir(filepath.Join(file, "sub"), ""), "data directory"},
		{"WithScenario", sandbox.WithScenarioFile(filepath.Join(dir, "none.yaml")), "no such file or directory"},
		{"WithScenario", sandbox.WithScenario("bad.yaml", bad), `sandbox: bad.yaml:4:4: "expect" starts in column 4, but the keys above it start in column 5`},
		{"WithRecording", sandbox.WithRecording(filepath.Join(dir, "none", "x.yaml")), "record "},
	}
	for _, tc := range cases {
		_, err := sandbox.New(tc.opt)
		require.Error(t, err, tc.option)
		var oe *sandbox.OptionError
		require.True(t, errors.As(err, &oe), "%s: %v", tc.option, err)
		assert.Equal(t, tc.option, oe.Option)
		assert.Contains(t, err.Error(), tc.want)
		assert.NotContains(t, err.Error(), "bad_request", "the API's error name is not part of a start error")
		if strings.Contains(err.Error(), "bad.yaml") {
			assert.Equal(t, 1, strings.Count(err.Error(), "bad.yaml"), "the file is named once: %v", err)
		}
	}
}
