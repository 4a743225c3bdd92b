package scenarioworld

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
)

// TestStepCountsAndFires: a rule counts its matches inside its window and
// fires past its first `after` matches, at most `times` times.
func TestStepCountsAndFires(t *testing.T) {
	at := time.Unix(1000, 0)
	two := 2
	row := &model.ScenarioRule{}
	spec := &scenario.Rule{After: 1, Times: &two}
	var fired []bool
	for range 5 {
		next, fire := step(row, spec, at)
		require.NotNil(t, next)
		fired = append(fired, fire)
		row = next
	}
	assert.Equal(t, []bool{false, true, true, false, false}, fired)
	assert.Equal(t, 5, row.Matched)
	assert.Equal(t, 2, row.Fired)

	unbounded := &scenario.Rule{}
	_, fire := step(&model.ScenarioRule{Fired: 1000, Matched: 1000}, unbounded, at)
	assert.True(t, fire, "without times a rule always fires")

	window := &model.ScenarioRule{From: at.UnixNano(), Until: at.Add(time.Minute).UnixNano()}
	for _, tc := range []struct {
		now  time.Time
		fire bool
	}{
		{at.Add(-time.Nanosecond), false},
		{at, true},
		{at.Add(time.Minute - time.Nanosecond), true},
		{at.Add(time.Minute), false},
	} {
		next, fire := step(window, unbounded, tc.now)
		assert.Equal(t, tc.fire, fire, "%v", tc.now)
		assert.Equal(t, tc.fire, next != nil, "a match outside the window is not counted")
	}
	assert.Zero(t, window.Matched, "the stored row is not changed in place")
}

// TestSubjectMatches: every condition given must hold; signer conditions
// hold when any signer matches.
func TestSubjectMatches(t *testing.T) {
	sub := &subject{operation: "signatureRequestSend", method: "POST", path: "/v3/signature_request/send",
		signers: []string{"a@example.com", "b@bounce.example"}, objectIDs: []string{"r1"}, account: "owner@sandbox.example",
		event: "signature_request_sent"}
	for _, tc := range []struct {
		m    *scenario.Match
		want bool
	}{
		{nil, true},
		{&scenario.Match{}, true},
		{&scenario.Match{Operation: "signatureRequestSend"}, true},
		{&scenario.Match{Operation: []any{"templateCreate", "signatureRequestSend"}}, true},
		{&scenario.Match{Operation: "templateCreate"}, false},
		{&scenario.Match{Method: "post"}, true},
		{&scenario.Match{Method: "GET"}, false},
		{&scenario.Match{Path: "/v3/signature_request/*"}, true},
		{&scenario.Match{Path: "/v3/template/**"}, false},
		{&scenario.Match{Signer: "*@bounce.example"}, true},
		{&scenario.Match{Signer: "*@nowhere.example"}, false},
		{&scenario.Match{ObjectID: "r1"}, true},
		{&scenario.Match{ObjectID: "r2"}, false},
		{&scenario.Match{Account: "*@sandbox.example"}, true},
		{&scenario.Match{Account: "other@*"}, false},
		{&scenario.Match{Event: "signature_request_sent"}, true},
		{&scenario.Match{Event: "signature_request_signed"}, false},
		{&scenario.Match{Operation: "signatureRequestSend", Signer: "*@nowhere.example"}, false},
	} {
		assert.Equal(t, tc.want, sub.matches(tc.m), "%+v", tc.m)
	}
}

// TestBracketPath writes scenario key paths as the API's error_path.
func TestBracketPath(t *testing.T) {
	for in, want := range map[string]string{
		"rules":                         "rules",
		"rules[1].match.operation":      "rules[1][match][operation]",
		"seed.signature_requests[0].to": "seed[signature_requests][0][to]",
	} {
		assert.Equal(t, want, bracketPath(in), in)
	}
}

// TestConfigMergeAndValidate: a partial tree changes only what it names,
// an unknown key is refused, and each bad value names its field.
func TestConfigMergeAndValidate(t *testing.T) {
	c := model.Config{RateLimit: model.RateLimitConfig{Limit: 100}, MaxFileBytes: 1, MaxWorldBytes: 1}
	require.NoError(t, MergeConfig(map[string]any{"cancel_delay": "45s"}, &c))
	assert.Equal(t, model.Duration(45*time.Second), c.CancelDelay)
	assert.Equal(t, 100, c.RateLimit.Limit, "what the tree does not name keeps its value")
	assert.NoError(t, ValidateConfig(c))

	err := MergeConfig(map[string]any{"cancel_dely": "45s"}, &c)
	var e *apierr.Error
	require.ErrorAs(t, err, &e)
	assert.Contains(t, e.Msg, "cancel_dely")

	for _, tc := range []struct {
		change func(*model.Config)
		path   string
	}{
		{func(c *model.Config) { c.SendProcessingDelay = -1 }, "send_processing_delay"},
		{func(c *model.Config) { c.RateLimit.Window = -1 }, "rate_limit[window]"},
		{func(c *model.Config) { c.RateLimit.Limit = 0 }, "rate_limit[limit]"},
		{func(c *model.Config) { c.LogEntries = -1 }, "log_limit"},
		{func(c *model.Config) { c.MaxWorldBytes = 0 }, "max_file_bytes"},
		{func(c *model.Config) { c.CancelDelay, c.SignURLTTL = -1, -1 }, "cancel_delay"},
	} {
		bad := c
		tc.change(&bad)
		require.ErrorAs(t, ValidateConfig(bad), &e, tc.path)
		assert.Equal(t, tc.path, e.Path)
	}
}
