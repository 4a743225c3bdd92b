package control

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// TestCheckKeyName trims, and refuses blank or over-long names naming the
// parameter; length is counted in characters, not bytes.
func TestCheckKeyName(t *testing.T) {
	got, err := checkKeyName("  CI key ")
	assert.NoError(t, err)
	assert.Equal(t, "CI key", got)
	_, err = checkKeyName(strings.Repeat("é", maxKeyNameRunes))
	assert.NoError(t, err)
	for _, bad := range []string{"", "   ", strings.Repeat("é", maxKeyNameRunes+1)} {
		_, err := checkKeyName(bad)
		var e *apierr.Error
		if assert.ErrorAs(t, err, &e, "%q", bad) {
			assert.Equal(t, "name", e.Path)
		}
	}
}

// TestMaskKey shows only the ends of a key, and nothing of a short one.
func TestMaskKey(t *testing.T) {
	assert.Equal(t, "0b1a…381c", maskKey("0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c"))
	assert.Equal(t, "…", maskKey("short-key"))
}
