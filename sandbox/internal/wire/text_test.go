package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	for want, v := range map[string]any{
		"plain":             "plain",
		"12345678901234567": json.Number("12345678901234567"), // exact, not a float
		"":                  nil,
		"true":              true,
		`{"a":[1,"b"]}`:     map[string]any{"a": []any{1, "b"}},
	} {
		assert.Equal(t, want, Text(v))
	}
}
