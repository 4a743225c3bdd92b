package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSharedFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	c, err := parseServeConfig(nil, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 2, "the binary counts calls and serves random credentials by default")

	c, err = parseServeConfig([]string{"--shard", "0a"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "0a", c.Shared.Shard)
	c, err = parseServeConfig(nil, func(k string) string {
		if k == "SIGNSANDBOX_CREDENTIALS" {
			return "seeded"
		}
		return ""
	}, io.Discard)
	require.NoError(t, err)
	assert.Len(t, c.Shared.options(), 1)

	for _, bad := range [][]string{{"--credentials", "weak"}, {"--shard", "XY"}, {"--shard", "0a", "--credentials", "seeded"}} {
		_, err := parseServeConfig(bad, noEnv, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}
