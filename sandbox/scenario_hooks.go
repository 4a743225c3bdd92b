package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// scenarioLoader loads a scenario document into a world; the scenario engine
// installs it. Until then loading answers a clear error.
var scenarioLoader func(s *Sandbox, w *world.World, name string, data []byte) error

// namedScenarioLoader resolves a ready scenario by name (scenarios/).
var namedScenarioLoader func(s *Sandbox, w *world.World, name string) error

func (s *Sandbox) loadScenario(w *world.World, name string, data []byte) error {
	if scenarioLoader == nil {
		return apierr.Badf("", "scenarios are not supported by this build")
	}
	return scenarioLoader(s, w, name, data)
}

func (s *Sandbox) loadNamedScenario(w *world.World, name string) error {
	if namedScenarioLoader == nil {
		return apierr.Badf("", "scenarios are not supported by this build")
	}
	return namedScenarioLoader(s, w, name)
}

// worldReplacedHooks run after a world's database was replaced (reset,
// import): subsystems drop caches and wake their workers.
var worldReplacedHooks []func(s *Sandbox, w *world.World)

func (s *Sandbox) afterWorldReplaced(w *world.World) {
	for _, fn := range worldReplacedHooks {
		fn(s, w)
	}
	w.Wake()
}
