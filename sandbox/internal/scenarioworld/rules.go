package scenarioworld

// Scenario rules at work. Rules are rows of the world's scenario_rules
// table; each subsystem consults them where it acts:
//
//   - every API call, before its handler (a call hook): respond, latency,
//     gone;
//   - after a template-creating call succeeded (an after-call hook): mark
//     the new template to fail when its preparation job runs
//     (Registry.TemplateFailure turns template_created into template_error);
//   - while a signature request is processed (sigreqProcessFault): fail
//     it (fail_file: error_file / file_error; fail_processing: any
//     signature error status and its event, internal/sigreq/failures.go), or
//     schedule an e-mail bounce or a signer action after a delay
//     (jobs.go);
//   - before every callback delivery attempt (Registry.CallbackFault).
//
// A rule's counters (matched, fired) change in a write transaction of the
// world they belong to, so times/after are exact and exported with the
// world. Rules never leave their world, and a broken rule never panics a
// request: evaluation errors are logged and the rule is skipped.

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterRules installs the rules' fault points: on calls, on
// processing and on callback deliveries.
func RegisterRules(r *api.Registry) {
	r.CallHooks = append(r.CallHooks, scenarioCallHook)
	r.AfterCallHooks = append(r.AfterCallHooks, scenarioTemplateMarks)
	r.TemplateFailure = scenarioTemplateFailure
	r.ProcessFault = scenarioProcessFault
	r.CallbackFault = scenarioCallbackFault
}

// specCache holds parsed rule specs by their JSON (rows are immutable), so
// that matching a call does not decode every rule again. It is shared by all
// worlds and starts over when it reaches maxCachedSpecs, so a long-running
// sandbox that loads ever new rules keeps a bounded amount of them.
var specCache = struct {
	sync.Mutex
	specs map[string]*scenario.Rule
}{specs: map[string]*scenario.Rule{}}

// maxCachedSpecs bounds specCache.
const maxCachedSpecs = 4096

func ruleSpec(row *model.ScenarioRule) *scenario.Rule {
	key := string(row.Spec)
	specCache.Lock()
	r, ok := specCache.specs[key]
	specCache.Unlock()
	if ok {
		return r
	}
	// Free-form values (field matchers, signer values) decode in the
	// shapes the loader gave them, numbers exact (json.Number).
	r = &scenario.Rule{}
	dec := json.NewDecoder(bytes.NewReader(row.Spec))
	dec.UseNumber()
	if err := dec.Decode(r); err != nil {
		return nil
	}
	specCache.Lock()
	if len(specCache.specs) >= maxCachedSpecs {
		specCache.specs = map[string]*scenario.Rule{}
	}
	specCache.specs[key] = r
	specCache.Unlock()
	return r
}

// subject is what a rule is matched against.
type subject struct {
	operation, method, path string
	fields                  any
	signers                 []string
	objectIDs               []string
	account                 string
	event                   string
}

// matches reports whether every condition of m holds for sub. signer
// conditions match when any signer matches.
func (sub *subject) matches(m *scenario.Match) bool {
	if m == nil {
		return true
	}
	if m.Operation != nil && !slices.Contains(scenario.Names(m.Operation), sub.operation) {
		return false
	}
	if m.Method != "" && !strings.EqualFold(m.Method, sub.method) {
		return false
	}
	if m.Path != "" && !scenario.PathMatch(m.Path, sub.path) {
		return false
	}
	if len(m.Fields) > 0 && len(scenario.MatchValue("", m.Fields, sub.fields, sub.fields != nil)) > 0 {
		return false
	}
	if m.Signer != "" && !slices.ContainsFunc(sub.signers, func(e string) bool { return scenario.Glob(m.Signer, e) }) {
		return false
	}
	if m.ObjectID != "" && !slices.Contains(sub.objectIDs, m.ObjectID) {
		return false
	}
	if m.Account != "" && !scenario.Glob(m.Account, sub.account) {
		return false
	}
	if m.Event != nil && !slices.Contains(scenario.Names(m.Event), sub.event) {
		return false
	}
	return true
}

// step counts a match of row at world time now and says whether the
// effect applies: inside the window, past the first `after` matches, and
// fewer than `times` times so far. It answers the updated row (nil when
// the match falls outside the window and nothing changes).
func step(row *model.ScenarioRule, spec *scenario.Rule, now time.Time) (*model.ScenarioRule, bool) {
	n := now.UnixNano()
	if (row.From != 0 && n < row.From) || (row.Until != 0 && n >= row.Until) {
		return nil, false
	}
	c := state.Clone(row)
	c.Matched++
	fire := c.Matched > spec.After && (spec.Times == nil || c.Fired < *spec.Times)
	if fire {
		c.Fired++
	}
	return c, fire
}

// fireRules runs the rules of rows that match sub at world time now, in
// order (log names the world): each match is counted (step, stored) and fire runs for the rules
// whose turn it is; fire answers done to stop after its rule. A counter
// that cannot be stored stops the run with its error. Every rule effect
// (calls, templates, processing, callbacks) goes through here.
func fireRules(tx *state.Txn, log *slog.Logger, rows []*model.ScenarioRule, sub *subject, now time.Time,
	fire func(row *model.ScenarioRule, spec *scenario.Rule) (done bool, err error)) error {
	for _, row := range rows {
		spec := ruleSpec(row)
		if spec == nil || !sub.matches(spec.Match) {
			continue
		}
		upd, due := step(row, spec, now)
		if upd == nil {
			continue
		}
		if err := state.Put(tx, state.TableScenarioRules, upd); err != nil {
			return err
		}
		if !due {
			continue
		}
		// Logged once the effect is committed (a rolled-back one did not
		// happen); debug, since a latency rule may fire on every call.
		tx.AfterCommit(func() {
			log.Debug("scenario rule fired", "rule", upd.ID, "name", upd.Name, "effect", upd.Effect, "fired", upd.Fired)
		})
		if done, err := fire(row, spec); done || err != nil {
			return err
		}
	}
	return nil
}

// rulesFor lists the world's rules with one of the effects.
func rulesFor(tx *state.Txn, effects ...string) []*model.ScenarioRule {
	rows, err := state.ScenarioRules(tx)
	if err != nil {
		return nil
	}
	return rulesIn(rows, effects...)
}

// rulesIn keeps the rules of rows with one of effects, in a new slice (nil
// when none has).
func rulesIn(rows []*model.ScenarioRule, effects ...string) []*model.ScenarioRule {
	var out []*model.ScenarioRule
	for _, r := range rows {
		if slices.Contains(effects, r.Effect) {
			out = append(out, r)
		}
	}
	return out
}

// guard keeps a rule evaluation from ever panicking a request or a job.
func guard(w *world.World, where string) {
	if v := recover(); v != nil && w != nil {
		w.Logger().Error("scenario rule failed", "where", where, "panic", v)
	}
}

// callSubject describes an API call for matching.
func callSubject(c *api.Call) *subject {
	sub := &subject{operation: c.OperationID(), method: c.Request.Method, path: c.Request.URL.Path}
	if c.Account != nil {
		sub.account = c.Account.Email
	}
	fields := map[string]any{}
	if tree, err := wire.QueryTree(c.Request.URL.Query(), wire.DefaultLimits); err == nil {
		for k, v := range tree {
			fields[k] = v
		}
	}
	if b, err := c.ReadBody(); err == nil && b != nil {
		for k, v := range b.Tree {
			fields[k] = v
		}
	}
	sub.fields = scenario.Normalize(fields)
	collectEmails(sub.fields, "", &sub.signers)
	vars := mux.Vars(c.Request)
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		sub.objectIDs = append(sub.objectIDs, vars[k])
	}
	return sub
}

// collectEmails gathers the values of email_address keys anywhere in a
// body (signers, remind, update), parsing JSON-text parts as the API does.
func collectEmails(v any, key string, out *[]string) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			collectEmails(t[k], k, out)
		}
	case []any:
		for _, x := range t {
			collectEmails(x, key, out)
		}
	case string:
		if key == "email_address" || key == "signer_email_address" {
			*out = append(*out, t)
			return
		}
		if s := strings.TrimSpace(t); strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{") {
			if parsed, err := scenario.DecodeJSON([]byte(s)); err == nil {
				collectEmails(parsed, key, out)
			}
		}
	}
}
