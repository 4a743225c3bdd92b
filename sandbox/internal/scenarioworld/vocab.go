package scenarioworld

// What the scenario loader checks names against: the route table (official
// operationIds), the official event types, the error vocabulary and the
// world configuration. The scenario package does not import the sandbox;
// it gets this vocabulary instead.

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

var (
	vocabOnce sync.Once
	vocab     *scenario.Vocabulary
)

// Vocabulary is built once from the route table and enums.
func Vocabulary() *scenario.Vocabulary {
	vocabOnce.Do(func() {
		v := &scenario.Vocabulary{EventTypes: append([]string(nil), notify.Types...), ErrorStatus: map[string]int{}}
		// The names only: which operations are implemented does not matter
		// to a scenario, so the route table of an empty registry will do.
		for _, op := range api.NewRegistry().Operations() {
			v.Operations = append(v.Operations, scenario.Operation{ID: op.ID, Method: op.Method, Path: op.Path})
		}
		for _, n := range apierr.Names() {
			v.ErrorStatus[string(n)] = n.Status()
		}
		v.CheckConfig = checkScenarioConfig
		vocab = v
	})
	return vocab
}

// checkScenarioConfig validates a scenario's partial configuration: every
// key must be a configuration key, and the merged configuration valid.
func checkScenarioConfig(cfg map[string]any) (string, string) {
	var known map[string]any
	b, _ := json.Marshal(state.DefaultConfig())
	_ = json.Unmarshal(b, &known)
	// Settings a world stores only when they differ from their default
	// (test_values) are missing from that: every field's key is known.
	ct := reflect.TypeFor[model.Config]()
	for i := 0; i < ct.NumField(); i++ {
		if name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			if _, ok := known[name]; !ok {
				known[name] = nil
			}
		}
	}
	delete(known, "id")
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		v := cfg[k]
		def, ok := known[k]
		if !ok {
			return k, "unknown configuration key " + k + " (see GET /_sandbox/config)"
		}
		if sub, isMap := def.(map[string]any); isMap {
			m, ok := v.(map[string]any)
			if !ok {
				return k, k + " is an object"
			}
			for _, sk := range slices.Sorted(maps.Keys(m)) {
				if _, ok := sub[sk]; !ok {
					return k + "." + sk, "unknown configuration key " + k + "." + sk
				}
			}
		}
	}
	c := state.DefaultConfig()
	if err := MergeConfig(cfg, &c); err != nil {
		return "", configMessage(err)
	}
	if err := ValidateConfig(c); err != nil {
		key := ""
		if e, ok := apierr.As(err); ok {
			key = strings.NewReplacer("[", ".", "]", "").Replace(e.Path)
		}
		return key, configMessage(err)
	}
	return "", ""
}

func configMessage(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Msg
	}
	return err.Error()
}
