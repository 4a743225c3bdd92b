package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCallsExposition(t *testing.T) {
	c := NewCalls()
	c.Observe("accountGet", 200, 300*time.Microsecond)
	c.Observe("accountGet", 200, 2*time.Millisecond)
	c.Observe("accountGet", 401, time.Millisecond)
	c.Observe(`POST /_sandbox/worlds`, 201, 20*time.Second)
	var b strings.Builder
	require.NoError(t, Write(&b, append(c.Families(), Family{Name: "a_gauge", Help: "first by name\nsecond line", Type: "gauge",
		Samples: []Sample{{Labels: []Label{{"table", `q"uote`}}, Value: 3}}})))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "# HELP a_gauge first by name\\nsecond line\n# TYPE a_gauge gauge\na_gauge{table=\"q\\\"uote\"} 3\n"), out)
	assert.Contains(t, out, `signsandbox_requests_total{operation="accountGet",status="200"} 2`+"\n"+`signsandbox_requests_total{operation="accountGet",status="401"} 1`)
	assert.Contains(t, out, `signsandbox_request_duration_seconds_bucket{operation="accountGet",le="0.0005"} 1`)
	assert.Contains(t, out, `signsandbox_request_duration_seconds_bucket{operation="accountGet",le="0.001"} 2`, "a bound counts the values equal to it")
	assert.Contains(t, out, `signsandbox_request_duration_seconds_bucket{operation="accountGet",le="0.0025"} 3`)
	assert.Contains(t, out, `signsandbox_request_duration_seconds_bucket{operation="POST /_sandbox/worlds",le="10"} 0`)
	assert.Contains(t, out, `signsandbox_request_duration_seconds_bucket{operation="POST /_sandbox/worlds",le="+Inf"} 1`)
	assert.Contains(t, out, `signsandbox_request_duration_seconds_count{operation="accountGet"} 3`)

	var again strings.Builder
	require.NoError(t, Write(&again, append(c.Families(), Family{Name: "a_gauge", Help: "first by name\nsecond line", Type: "gauge",
		Samples: []Sample{{Labels: []Label{{"table", `q"uote`}}, Value: 3}}})))
	assert.Equal(t, out, again.String(), "the same counts give the same bytes")
}
