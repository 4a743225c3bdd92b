package sandbox

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// newInternalSandbox is a sandbox for the tests inside the package.
func newInternalSandbox(t *testing.T) *Sandbox {
	t.Helper()
	s, err := New()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// testUpdate runs fn in a write transaction of the default world.
func (s *Sandbox) testUpdate(t *testing.T, fn func(tx *state.Txn) error) {
	t.Helper()
	require.NoError(t, s.host.DefaultWorld().Store.Update(fn))
}

func itoa(i int) string { return strconv.Itoa(i) }

// intPtr returns a pointer to a copy of v.
func intPtr(v int) *int { return &v }
