package scenarioworld

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// TestForcedTemplateFailureStaysInItsWorld: two sandboxes in one process
// have worlds with the same id and seed, hence the same template ids; a
// failure one seed forces on its template is seen by its own world's
// failure hook only, and is gone once the seed withdraws it.
func TestForcedTemplateFailureStaysInItsWorld(t *testing.T) {
	mk := func() *world.World {
		w, err := world.New(world.Options{ID: "default", Seed: "forced", Mode: world.ClockFake})
		require.NoError(t, err)
		t.Cleanup(w.Close)
		return w
	}
	mine, other := mk(), mk()
	tpl := &model.Template{ID: "same-id-in-both-worlds"}

	forceTemplateFailure(mine, tpl.ID, "seeded failure")
	fail, msg := scenarioTemplateFailure(mine, tpl)
	assert.True(t, fail)
	assert.Equal(t, "seeded failure", msg)
	fail, _ = scenarioTemplateFailure(other, tpl)
	assert.False(t, fail, "another sandbox's world sees no forced failure")

	forceTemplateFailure(mine, tpl.ID, "")
	fail, _ = scenarioTemplateFailure(mine, tpl)
	assert.False(t, fail, "a withdrawn failure is gone")
}
