package secret

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSourceIsRandomAndCarriesTheShard(t *testing.T) {
	plain := Source("")
	a, b := plain(), plain()
	assert.Len(t, a, Length)
	assert.NotEqual(t, a, b, "two secrets of one source differ")
	assert.Regexp(t, `^[0-9a-f]{64}$`, a, "secrets keep the format of official API keys")

	tagged := Source("a1b2")
	k := tagged()
	assert.Len(t, k, Length)
	assert.Equal(t, "a1b2", Shard(k, 4))
	assert.Equal(t, "a1b2", Shard(k[:32], 4), "a 32-character credential keeps the tag")
	assert.NotEqual(t, k, tagged())
}

func TestCheckShard(t *testing.T) {
	require.NoError(t, CheckShard("0f"))
	require.NoError(t, CheckShard("deadbeef"))
	for _, bad := range []string{"", "DEAD", "xyz", "123456789", "a-b"} {
		assert.Error(t, CheckShard(bad), bad)
	}
}
