package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigTestValuesDefaults: the test value settings are on, with a
// 3-second delay, in a default world and in a configuration row written
// before they existed; the row stores them only when they differ from
// the default, so such rows export as they were.
func TestConfigTestValuesDefaults(t *testing.T) {
	def := DefaultConfig()
	assert.True(t, def.TestValues.On())
	assert.Equal(t, 3*time.Second, def.TestValueDelay())
	b, err := json.Marshal(def)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"test_values`)

	var old model.Config
	require.NoError(t, json.Unmarshal([]byte(`{"id":"config","send_processing_delay":"2s"}`), &old))
	assert.True(t, old.TestValues.On(), "an older row has test values on")
	assert.Equal(t, 3*time.Second, old.TestValueDelay())

	off := def
	require.NoError(t, json.Unmarshal([]byte(`{"test_values":false,"test_values_delay":"1m"}`), &off))
	assert.False(t, off.TestValues.On())
	assert.Equal(t, time.Minute, off.TestValueDelay())
	b, err = json.Marshal(off)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"test_values":false,"test_values_delay":"1m0s"`)
	var back model.Config
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, off, back)

	require.NoError(t, json.Unmarshal([]byte(`{"test_values":null}`), &off))
	assert.False(t, off.TestValues.On(), "null leaves the switch as it is")
	require.Error(t, json.Unmarshal([]byte(`{"test_values":"no"}`), &off))
}
