package sandbox_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// An advance too large for a time.Duration answers a 400 that says so,
// naming its field (it said "cannot move the clock backwards"), and leaves
// the clock where it was.
func TestAdvanceThatOverflowsSaysTooLarge(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct {
		body, path, msg string
	}{
		{`{"seconds": 1e300}`, "seconds", "too large"},
		{`{"seconds": 9300000000}`, "seconds", "too large"},
		{`{"seconds": 3155760001}`, "seconds", "too large"},
		{`{"duration": "9999999999h"}`, "duration", "too large"},
		{`{"duration": "2562048h"}`, "duration", "too large"},
		{`{"duration": "1000000h"}`, "seconds", "more than 100 years"},
		{`{"duration": "banana"}`, "duration", "must be a Go duration"},
	} {
		r := srv.Do(http.MethodPost, "/_sandbox/clock/advance", tc.body)
		assert.Equal(t, http.StatusBadRequest, r.Status, tc.body)
		e, _ := r.Map()["error"].(map[string]any)
		assert.Equal(t, tc.path, e["error_path"], tc.body)
		assert.Contains(t, e["error_msg"], tc.msg, tc.body)
		assert.NotContains(t, e["error_msg"], "backwards", tc.body)
	}
	assert.Equal(t, sandboxtest.Start, srv.Now())
}
