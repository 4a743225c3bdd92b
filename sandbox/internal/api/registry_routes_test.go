package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestControlRoutesNeverCompete: a control route that could match a path
// another route of its method matches is refused when it is registered, so
// the order of registration cannot decide which route serves a call.
func TestControlRoutesNeverCompete(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		overlap bool
	}{
		{"/worlds", "/worlds", true},
		{"/worlds/{id}", "/worlds/current", true},
		{"/w/{world}/files/{token}", "/w/{world_id}/files/{t}", true},
		{"/reports/{id}/{type}.csv", "/reports/{id}/x.pdf", true}, // a segment with a variable may match anything
		{"/console", "/console/", false},
		{"/console/", "/console/{asset}", false}, // a variable never matches an empty segment
		{"/console/{asset}", "/console/api/counts", false},
		{"/console/vendor/pdfjs/{asset}", "/console/api/objects/{kind}", false},
		{"/emails/{id}", "/emails/{id}/html", false},
	} {
		assert.Equal(t, tc.overlap, pathsOverlap(tc.a, tc.b), "%s | %s", tc.a, tc.b)
		assert.Equal(t, tc.overlap, pathsOverlap(tc.b, tc.a), "%s | %s", tc.b, tc.a)
	}

	r := NewRegistry()
	r.Control("GET", "/worlds/{id}", nil)
	r.Control("POST", "/worlds/current", nil) // another method: no competition
	assert.PanicsWithValue(t, "sandbox: control routes GET /worlds/{id} and /worlds/current can match the same path",
		func() { r.ControlPublic("GET", "/worlds/current", nil) })
	assert.Len(t, r.ControlRoutes, 2)
}
