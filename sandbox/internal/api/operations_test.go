package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

// TestTableIsOneRoutePerOperation: no operationId and no method and path
// appear twice, every path is relative to /v3, and the table is grouped by
// tag in alphabetical order, by operationId within a tag.
func TestTableIsOneRoutePerOperation(t *testing.T) {
	ids := map[string]bool{}
	routes := map[string]string{}
	for i, r := range api.OperationTable {
		assert.False(t, ids[r.OperationID], "%s twice", r.OperationID)
		ids[r.OperationID] = true
		key := r.Method + " " + r.Path
		assert.Empty(t, routes[key], "%s is both %s and %s", key, routes[key], r.OperationID)
		routes[key] = r.OperationID
		assert.Contains(t, []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}, r.Method, r.OperationID)
		assert.Regexp(t, `^/[a-z_{}/]+(\?refresh)?$`, r.Path, r.OperationID)
		assert.NotContains(t, r.Path, "/v3", r.OperationID)
		if i > 0 {
			p := api.OperationTable[i-1]
			assert.True(t, p.Tag < r.Tag || p.Tag == r.Tag && p.OperationID < r.OperationID,
				"%s/%s before %s/%s", p.Tag, p.OperationID, r.Tag, r.OperationID)
		}
		if r.Auth == api.AuthKeyOrToken {
			assert.NotEmpty(t, r.Scopes, "%s accepts a token, so it names the scopes one needs", r.OperationID)
		} else {
			assert.Empty(t, r.Scopes, "%s accepts no token", r.OperationID)
		}
	}
}

// TestAuthMatchesOfficialSecurity: the credentials each operation accepts
// are the official description's security requirements: API key only, no
// credentials (security: []), or an API key or a bearer token with one of
// the listed OAuth scopes.
func TestAuthMatchesOfficialSecurity(t *testing.T) {
	spec := conformance.Load(t)
	checked := 0
	for path, item := range spec.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			i := slices.IndexFunc(api.OperationTable, func(r api.Route) bool { return r.OperationID == op.OperationID })
			require.GreaterOrEqual(t, i, 0, "%s %s (%s) is not in the table", method, path, op.OperationID)
			r := api.OperationTable[i]
			assert.Equal(t, method, r.Method, op.OperationID)
			assert.False(t, r.SDKOnly, "%s is in the public reference", op.OperationID)
			reqs := spec.Doc.Security
			if op.Security != nil {
				reqs = *op.Security
			}
			want, scopes := api.AuthNone, []string(nil)
			for _, req := range reqs {
				if _, ok := req["api_key"]; ok && want == api.AuthNone {
					want = api.AuthKeyOnly
				}
				if s, ok := req["oauth2"]; ok {
					want, scopes = api.AuthKeyOrToken, s
				}
			}
			assert.Equal(t, want, r.Auth, op.OperationID)
			assert.ElementsMatch(t, scopes, r.Scopes, op.OperationID)
			checked++
		}
	}
	assert.Equal(t, len(api.OperationTable)-1, checked, "every operation but the SDK-only templateUpdate")
}
