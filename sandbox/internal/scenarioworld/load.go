package scenarioworld

// Loading scenarios into a world: parse strictly, prepare the seeded
// objects outside any transaction (decoding, validation, document
// conversion), then seed, apply the configuration and store the rules in
// one write transaction, so that a broken scenario leaves nothing behind.

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
	"github.com/signsandbox/signsandbox/scenarios"
)

// LoadNamedOrInline loads a ready scenario of the library by name, or an
// inline document (anything with a line break or starting with "{").
func LoadNamedOrInline(s *api.Host, w *world.World, name string, r *http.Request) (*scenarioView, error) {
	trimmed := strings.TrimSpace(name)
	if strings.ContainsAny(trimmed, "\n") || strings.HasPrefix(trimmed, "{") {
		return LoadSource(s, w, "inline scenario", []byte(name), r)
	}
	data, err := scenarios.Read(trimmed)
	if err != nil {
		return nil, apierr.Badf("", "No ready scenario is named %q (the library has: %s).", trimmed, strings.Join(scenarios.Names(), ", "))
	}
	return LoadSource(s, w, "scenarios/"+trimmed+".yaml", data, r)
}

// scenarioView is a loaded scenario as the control plane shows it.
type scenarioView struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Source      string         `json:"source"`
	LoadedAt    int64          `json:"loaded_at"`
	Rules       []ruleView     `json:"rules"`
	Seeded      map[string]any `json:"seeded"`
}

// ruleView is one rule with its counters.
type ruleView struct {
	ID      string `json:"id"`
	Name    string `json:"name,omitempty"`
	Effect  string `json:"effect"`
	Matched int    `json:"matched"`
	Fired   int    `json:"fired"`
	// From and Until are the rule's window in Unix seconds (absent when
	// open).
	From  int64 `json:"from,omitempty"`
	Until int64 `json:"until,omitempty"`
}

func viewScenario(tx *state.Txn, sc *model.Scenario) scenarioView {
	v := scenarioView{Name: sc.ID, Description: sc.Description, Source: sc.Source, LoadedAt: sc.LoadedAt,
		Rules: []ruleView{}, Seeded: map[string]any{}}
	if len(sc.Seeded) > 0 {
		_ = json.Unmarshal(sc.Seeded, &v.Seeded)
	}
	rows, _ := state.All[model.ScenarioRule](tx, state.TableScenarioRules, state.IndexScenario, sc.ID)
	// In the order they were written (the index orders them by id, where
	// name#10 comes before name#2).
	slices.SortFunc(rows, func(a, b *model.ScenarioRule) int { return cmp.Compare(a.Index, b.Index) })
	for _, r := range rows {
		rv := ruleView{ID: r.ID, Name: r.Name, Effect: r.Effect, Matched: r.Matched, Fired: r.Fired}
		if r.From != 0 {
			rv.From = time.Unix(0, r.From).Unix()
		}
		if r.Until != 0 {
			rv.Until = time.Unix(0, r.Until).Unix()
		}
		v.Rules = append(v.Rules, rv)
	}
	return v
}

// scenarioErr turns a scenario problem into the control plane's 400.
func scenarioErr(err error) error {
	var se *scenario.Error
	if errors.As(err, &se) {
		path := ""
		if len(se.Issues) > 0 {
			path = bracketPath(se.Issues[0].Key)
		}
		return apierr.Badf(path, "%s", se.Error())
	}
	return err
}

// bracketPath writes a scenario key path (rules[1].match.operation) in the
// error_path notation of the API (rules[1][match][operation]).
func bracketPath(key string) string {
	parts := strings.Split(key, ".")
	for i := 1; i < len(parts); i++ {
		name, rest, _ := strings.Cut(parts[i], "[")
		parts[i] = "[" + name + "]"
		if rest != "" {
			parts[i] += "[" + rest
		}
	}
	return strings.Join(parts, "")
}

// LoadSource parses a scenario document and loads it into w. r,
// when given, is the control call that loads it: the URLs of seeded
// requests use its host, as the API's own would.
func LoadSource(s *api.Host, w *world.World, source string, data []byte, r *http.Request) (*scenarioView, error) {
	p, err := scenario.ParseDocument(source, data, Vocabulary())
	if err != nil {
		return nil, scenarioErr(err)
	}
	doc := p.Doc
	if doc.Recording != nil {
		return nil, scenarioErr(p.Issue([]any{"recording"},
			"this is a recorded session: replay it with `signsandbox run` (it starts from the world state it was recorded from)"))
	}
	plan, err := planSeed(s, w, p, r)
	if err != nil {
		return nil, scenarioErr(err)
	}
	var view scenarioView
	err = w.Store.Update(func(tx *state.Txn) error {
		if _, err := state.Get[model.Scenario](tx, state.TableScenarios, doc.Name); err == nil {
			return apierr.Conflictf("A scenario named %q is already loaded in this world; DELETE /_sandbox/scenarios/%s first.", doc.Name, doc.Name)
		}
		if doc.Config != nil {
			if err := applyScenarioConfig(tx, doc.Config); err != nil {
				return p.Issue([]any{"config"}, err.Error())
			}
		}
		seeded, err := plan.apply(tx)
		if err != nil {
			return err
		}
		if err := storeRules(s, tx, p, seeded); err != nil {
			return err
		}
		raw, err := json.Marshal(seeded)
		if err != nil {
			return err
		}
		row := &model.Scenario{ID: doc.Name, Seq: tx.Seq(), Description: doc.Description, Source: source,
			LoadedAt: tx.Unix(), Rules: len(doc.Rules), Seeded: raw}
		if err := state.Put(tx, state.TableScenarios, row); err != nil {
			return err
		}
		view = viewScenario(tx, row)
		return nil
	})
	if err != nil {
		return nil, scenarioErr(err)
	}
	return &view, nil
}

// applyScenarioConfig merges a partial configuration.
func applyScenarioConfig(tx *state.Txn, partial map[string]any) error {
	cfg := state.GetConfig(tx)
	if err := MergeConfig(partial, &cfg); err != nil {
		return errors.New(configMessage(err))
	}
	if err := ValidateConfig(cfg); err != nil {
		return errors.New(configMessage(err))
	}
	return state.PutConfig(tx, cfg)
}

// storeRules writes the rules of a scenario (windows resolved against the
// load time) and applies the effects that happen once at load.
func storeRules(s *api.Host, tx *state.Txn, p *scenario.Parsed, seeded map[string]any) error {
	doc := p.Doc
	for i := range doc.Rules {
		r := &doc.Rules[i]
		at := []any{"rules", i}
		spec, err := json.Marshal(r)
		if err != nil {
			return err
		}
		row := &model.ScenarioRule{ID: fmt.Sprintf("%s#%d", doc.Name, i), Scenario: doc.Name, Index: i, Seq: tx.Seq(),
			Name: r.Name, Effect: r.Effect(), Spec: spec}
		if w := r.Window; w != nil {
			if w.From != "" {
				t, err := scenario.WindowBound(w.From, tx.Now())
				if err != nil {
					return p.Issue(append(at, "window", "from"), err.Error())
				}
				row.From = t.UnixNano()
			}
			if w.Until != "" {
				t, err := scenario.WindowBound(w.Until, tx.Now())
				if err != nil {
					return p.Issue(append(at, "window", "until"), err.Error())
				}
				row.Until = t.UnixNano()
			}
			if row.Until != 0 && row.Until <= tx.Now().UnixNano() {
				return p.Issue(append(at, "window", "until"), "the window has already ended at the world's current time "+tx.Now().Format(time.RFC3339))
			}
		}
		switch row.Effect {
		case scenario.EffectExhaustQuota:
			if err := exhaustQuota(s, tx, r.ExhaustQuota); err != nil {
				return p.Issue(append(at, "exhaust_quota"), err.Error())
			}
			row.Matched, row.Fired = 1, 1
		case scenario.EffectRateLimit:
			if err := applyRateLimit(tx, r.RateLimit); err != nil {
				return p.Issue(append(at, "rate_limit"), err.Error())
			}
			row.Matched, row.Fired = 1, 1
		}
		if err := state.Put(tx, state.TableScenarioRules, row); err != nil {
			return err
		}
	}
	return nil
}

// exhaustQuota sets an account's quota to 0.
func exhaustQuota(s *api.Host, tx *state.Txn, q *scenario.ExhaustQuota) error {
	a, err := scenarioAccount(s, tx, q.Account)
	if err != nil {
		return fmt.Errorf("no account %s in this world", q.Account)
	}
	quota := q.Quota
	if quota == "" {
		quota = "api_signature_requests"
	}
	c := state.Clone(a)
	f := quotaField(&c.Quotas, scenario.QuotaFields[quota])
	if f == nil {
		return fmt.Errorf("unknown quota %q", quota)
	}
	*f = new(int)
	return state.Put(tx, state.TableAccounts, c)
}

// applyRateLimit turns on enforcement with the given limit and window.
func applyRateLimit(tx *state.Txn, rl *scenario.RateLimitEffect) error {
	cfg := state.GetConfig(tx)
	cfg.RateLimit.Enforce, cfg.RateLimit.Limit = true, rl.Limit
	if rl.Window != "" {
		d, err := scenario.ParseDuration(rl.Window)
		if err != nil {
			return err
		}
		cfg.RateLimit.Window = model.Duration(d)
	}
	if err := ValidateConfig(cfg); err != nil {
		return errors.New(configMessage(err))
	}
	return state.PutConfig(tx, cfg)
}

// unloadScenario removes a scenario, its rules and marks, and the effects
// its rules scheduled that have not happened yet (seeded objects and
// configuration changes stay: they are part of the world now).
func unloadScenario(tx *state.Txn, name string) error {
	sc, err := state.Get[model.Scenario](tx, state.TableScenarios, name)
	if err != nil {
		return api.ErrControlNotFound("scenario", name)
	}
	rows, err := state.All[model.ScenarioRule](tx, state.TableScenarioRules, state.IndexScenario, name)
	if err != nil {
		return err
	}
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.ID] = true
		if err := tx.Delete(state.TableScenarioRules, r); err != nil {
			return err
		}
	}
	marks, err := state.All[model.ScenarioMark](tx, state.TableScenarioMarks, state.IndexID)
	if err != nil {
		return err
	}
	for _, m := range marks {
		if ids[m.Rule] {
			if err := tx.Delete(state.TableScenarioMarks, m); err != nil {
				return err
			}
		}
	}
	// Effects the rules scheduled and that have not happened yet go too.
	jobs, err := state.All[model.Job](tx, state.TableJobs, state.IndexID)
	if err != nil {
		return err
	}
	// In scheduling order, as when the queue was keyed by job id, so that
	// a journal records the deletes in the order it always did.
	slices.SortFunc(jobs, func(a, b *model.Job) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, j := range jobs {
		if j.Kind != jobScenarioBounce && j.Kind != jobScenarioSigner {
			continue
		}
		var a signerEffectArgs
		if json.Unmarshal(j.Args, &a) == nil && ids[a.Rule] {
			if err := tx.Delete(state.TableJobs, j); err != nil {
				return err
			}
		}
	}
	return tx.Delete(state.TableScenarios, sc)
}
