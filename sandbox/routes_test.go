package sandbox_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestRoutesMatchOfficialDescription pins the route table to the official
// operations: the 73 of openapi.yaml and the ones only openapi-sdk.yaml
// describes (marked SDKOnly), same operationIds, methods and paths, nothing
// missing, nothing invented. It prints how many operations have a handler.
func TestRoutesMatchOfficialDescription(t *testing.T) {
	spec := conformance.Load(t)
	official := map[string][2]string{}
	for _, op := range spec.Operations() {
		official[op[0]] = [2]string{strings.ToUpper(op[1]), op[2]}
	}
	sdkOps, err := spec.SDKOperations()
	require.NoError(t, err)
	sdkOnly := map[string]bool{}
	for _, op := range sdkOps {
		official[op[0]] = [2]string{strings.ToUpper(op[1]), op[2]}
		sdkOnly[op[0]] = true
	}
	require.Equal(t, map[string]bool{"templateUpdate": true}, sdkOnly, "the operations only openapi-sdk.yaml describes")
	ours := map[string][2]string{}
	implemented := 0
	for _, op := range sandbox.Operations() {
		_, dup := ours[op.ID]
		require.False(t, dup, "operation %s routed twice", op.ID)
		ours[op.ID] = [2]string{op.Method, op.Path}
		assert.Equal(t, sdkOnly[op.ID], op.SDKOnly, "%s: sdk_only", op.ID)
		if op.Implemented {
			implemented++
		} else {
			t.Logf("not implemented: %s %s %s", op.ID, op.Method, op.Path)
		}
	}
	assert.Equal(t, official, ours)
	t.Logf("routed %d/%d, implemented %d/%d", len(ours), len(official), implemented, len(official))
}

// The route table is grouped by the official tags in their alphabetical
// order and sorted by operationId within a tag (the order the e2e coverage
// report uses), and each operation's tag is its first official tag.
func TestRoutesTagsAndOrder(t *testing.T) {
	ops := sandbox.Operations()
	for i := 1; i < len(ops); i++ {
		a, b := ops[i-1], ops[i]
		assert.True(t, a.Tag < b.Tag || a.Tag == b.Tag && a.ID < b.ID, "%s/%s before %s/%s", a.Tag, a.ID, b.Tag, b.ID)
	}
	spec := conformance.Load(t)
	official := map[string]string{}
	for path, item := range spec.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			require.NotEmpty(t, op.Tags, path)
			official[op.OperationID] = op.Tags[0]
		}
	}
	for _, op := range ops {
		want := official[op.ID]
		if op.SDKOnly {
			want = spec.SDKTag(op.ID)
		}
		assert.Equal(t, want, op.Tag, op.ID)
	}
}

// GET /_sandbox/operations answers the route table, without credentials.
func TestControlOperationsListsTheRouteTable(t *testing.T) {
	srv := apitest.NewServer(t)
	var out struct {
		Operations []sandbox.Operation `json:"operations"`
	}
	r := srv.DoAs("", "GET", sandbox.ControlPrefix+"/operations", nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.NoError(t, r.JSON(&out))
	assert.Equal(t, sandbox.Operations(), out.Operations)
	assert.Len(t, out.Operations, 74)
	assert.Equal(t, sandbox.Operation{ID: "accountCreate", Tag: "Account", Method: "POST", Path: "/account/create", Implemented: true}, out.Operations[0])
	public := 0
	for _, op := range out.Operations {
		if !op.SDKOnly {
			public++
		}
	}
	assert.Equal(t, 73, public, "the operations of the public reference")
	assert.Contains(t, out.Operations, sandbox.Operation{ID: "templateUpdate", Tag: "Template", Method: "POST", Path: "/template/update/{template_id}", Implemented: true, SDKOnly: true})
	assert.Contains(t, string(r.Body), `"sdk_only":false`, "sdk_only is always written")
}
