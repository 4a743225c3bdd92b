package sandbox_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestRoutesMatchOfficialDescription pins the route table to the official
// operations: same operationIds, methods and paths, nothing missing, nothing
// invented. It prints how many operations have a handler.
func TestRoutesMatchOfficialDescription(t *testing.T) {
	spec := conformance.Load(t)
	official := map[string][2]string{}
	for _, op := range spec.Operations() {
		official[op[0]] = [2]string{strings.ToUpper(op[1]), op[2]}
	}
	ours := map[string][2]string{}
	implemented := 0
	for _, op := range sandbox.Operations() {
		_, dup := ours[op.ID]
		require.False(t, dup, "operation %s routed twice", op.ID)
		ours[op.ID] = [2]string{op.Method, op.Path}
		if op.Implemented {
			implemented++
		} else {
			t.Logf("not implemented: %s %s %s", op.ID, op.Method, op.Path)
		}
	}
	assert.Equal(t, official, ours)
	t.Logf("routed %d/%d, implemented %d/%d", len(ours), len(official), implemented, len(official))
}
