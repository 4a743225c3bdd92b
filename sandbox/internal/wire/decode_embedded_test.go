package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// common is unexported on purpose: request types share fields by embedding
// such structs, and their parameters must not be dropped.
type common struct {
	ClientID string `json:"client_id"`
	TestMode bool   `json:"test_mode"`
}

type withEmbedded struct {
	common
	Title string `json:"title"`
}

func TestDecodeWalksIntoUnexportedEmbeddedStructs(t *testing.T) {
	var got withEmbedded
	err := DecodeTree(map[string]any{"client_id": "abc", "test_mode": "1", "title": "T"}, &got)
	require.NoError(t, err)
	assert.Equal(t, "abc", got.ClientID)
	assert.True(t, got.TestMode)
	assert.Equal(t, "T", got.Title)

	err = DecodeTree(map[string]any{"test_mode": "maybe"}, &got)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test_mode")
}
