package events

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkTestKey is the API key the official SDKs' EventCallbackHelper tests
// hash their fixture events with.
const sdkTestKey = "324e3b0840f065eb51f3fd63231d0d33daa35d4ed10d27718839e81737065782"

// fixtureDir finds ../shared/reference/dropbox-sign/test_fixtures beside the
// repository, or skips.
func fixtureDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "reference", "dropbox-sign", "test_fixtures")
			if _, err := os.Stat(p); err != nil {
				t.Skipf("official SDK test fixtures not found at %s: put ../shared/reference beside the repository", p)
			}
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("official SDK test fixtures not found: no go.mod above the working directory")
		}
		dir = parent
	}
}

type fixtureEvent struct {
	Event struct {
		EventTime string `json:"event_time"`
		EventType string `json:"event_type"`
		EventHash string `json:"event_hash"`
	} `json:"event"`
}

// TestHashReproducesSDKVectors recomputes every event_hash of the official
// EventCallbackHelper fixtures (account and app callbacks).
func TestHashReproducesSDKVectors(t *testing.T) {
	dir := fixtureDir(t)
	for _, name := range []string{"EventCallbackHelper_AccountCallbacks.json", "EventCallbackHelper_AppCallbacks.json"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("fixture %s not available: %v", name, err)
		}
		var cases map[string]fixtureEvent
		require.NoError(t, json.Unmarshal(raw, &cases), name)
		require.NotEmpty(t, cases)
		keys := make([]string, 0, len(cases))
		for k := range cases {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ev := cases[k].Event
			t.Run(name+"/"+k, func(t *testing.T) {
				assert.Equal(t, ev.EventHash, Hash(sdkTestKey, ev.EventTime, ev.EventType))
				assert.True(t, Verify(sdkTestKey, ev.EventTime, ev.EventType, ev.EventHash))
				assert.False(t, Verify(reverse(sdkTestKey), ev.EventTime, ev.EventType, ev.EventHash),
					"the reversed key must not verify")
			})
		}
	}
}

// TestHashKnownVector pins one vector without the reference files, so that
// a fresh clone still checks the construction.
func TestHashKnownVector(t *testing.T) {
	assert.Equal(t, "ff8b03439122f9160500c3fb855bdee5a9ccba5fff27d3b258745d8f3074832f",
		Hash(sdkTestKey, "1669926463", "account_confirmed"))
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
