package credentials

import (
	"strconv"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/stretchr/testify/assert"
)

// The graves answer the deleted world of a credential, keep only the most
// recent maxGraves, and tell keys from tokens.
func TestGravesRememberTheLatestDeletedCredentials(t *testing.T) {
	var g graves
	g.remember("w1", []graveKey{graveKeyOf(state.TableAPIKeys, "k1"), graveKeyOf(state.TableOAuthToken, "t1")})
	assert.Equal(t, "w1", g.worldOf(state.TableAPIKeys, "k1"))
	assert.Equal(t, "w1", g.worldOf(state.TableOAuthToken, "t1"))
	assert.Empty(t, g.worldOf(state.TableOAuthToken, "k1"), "a key is not a token")
	assert.Empty(t, g.worldOf(state.TableAPIKeys, "nope"))

	for i := range maxGraves {
		g.remember("w2", []graveKey{graveKeyOf(state.TableAPIKeys, "x"+strconv.Itoa(i))})
	}
	assert.Empty(t, g.worldOf(state.TableAPIKeys, "k1"), "the oldest are forgotten")
	assert.Equal(t, "w2", g.worldOf(state.TableAPIKeys, "x0"))
	assert.Equal(t, "w2", g.worldOf(state.TableAPIKeys, "x"+strconv.Itoa(maxGraves-1)))
	assert.Len(t, g.world, maxGraves)
}
