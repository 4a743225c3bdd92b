package scenarioworld

// Control plane of scenarios: load one into the caller's world (the body is
// the scenario file, YAML or JSON; or ?name= for a ready scenario of the
// library), list the loaded scenarios with their rules' counters and the
// world's accounts (runners act as them), and unload one.

import (
	"bytes"
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/scenarios"
)

// RegisterControl adds /_sandbox/scenarios: load a scenario into a world,
// list the loaded ones, delete one.
func RegisterControl(r *api.Registry) {
	r.Control(http.MethodPost, "/scenarios", controlLoadScenario)
	r.Control(http.MethodGet, "/scenarios", controlListScenarios)
	r.ControlNoBody(http.MethodDelete, "/scenarios/{name}", controlDeleteScenario)
}

func controlLoadScenario(c *api.Call) (any, error) {
	raw, err := wire.ReadRaw(c.Request, scenario.MaxDocumentBytes+1)
	if err != nil {
		return nil, apierr.Badf("", "could not read the scenario: %v", err)
	}
	name := c.Request.URL.Query().Get("name")
	empty := len(bytes.TrimSpace(raw)) == 0
	var view *scenarioView
	switch {
	case name != "" && !empty:
		return nil, apierr.Badf("name", "give either a scenario file as the body or the name of a ready scenario, not both")
	case name != "":
		view, err = LoadNamedOrInline(c.Host, c.World, name, c.Request)
		// What does not load came from ?name= (an unknown name, or an
		// inline document that does not parse as a whole): say so.
		if e, ok := err.(*apierr.Error); ok && e.Path == "" {
			named := *e
			named.Path = "name"
			err = &named
		}
	case empty:
		return nil, apierr.Badf("", "the body is the scenario file (YAML or JSON); or give ?name= of a ready scenario (%s)",
			strings.Join(scenarios.Names(), ", "))
	default:
		source := c.Request.URL.Query().Get("source")
		if source == "" {
			source = "request body"
		}
		view, err = LoadSource(c.Host, c.World, source, raw, c.Request)
	}
	if err != nil {
		return nil, err
	}
	return api.WithStatus{Status: http.StatusCreated, Value: view}, nil
}

// accountEntry is one account of the world with its primary key.
type accountEntry struct {
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
	APIKey       string `json:"api_key,omitempty"`
}

type scenarioList struct {
	Scenarios []scenarioView `json:"scenarios"`
	Accounts  []accountEntry `json:"accounts"`
	// Library names the ready scenarios that load by name.
	Library []string `json:"library"`
}

func listScenarios(tx *state.Txn) (scenarioList, error) {
	out := scenarioList{Scenarios: []scenarioView{}, Accounts: []accountEntry{}, Library: scenarios.Names()}
	rows, err := state.All[model.Scenario](tx, state.TableScenarios, state.IndexSeq)
	if err != nil {
		return out, err
	}
	for _, r := range rows {
		out.Scenarios = append(out.Scenarios, viewScenario(tx, r))
	}
	accts, err := state.All[model.Account](tx, state.TableAccounts, state.IndexID)
	if err != nil {
		return out, err
	}
	slices.SortFunc(accts, func(a, b *model.Account) int { return cmp.Compare(a.Seq, b.Seq) }) // by creation
	for _, a := range accts {
		out.Accounts = append(out.Accounts, accountEntry{AccountID: a.ID, EmailAddress: a.Email, APIKey: state.PrimaryKeyOf(tx, a.ID)})
	}
	return out, nil
}

func controlListScenarios(c *api.Call) (any, error) { return listScenarios(c.Read()) }

func controlDeleteScenario(c *api.Call) (any, error) {
	var out scenarioList
	err := c.Update(func(tx *state.Txn) error {
		if err := unloadScenario(tx, c.Param("name")); err != nil {
			return err
		}
		var err error
		out, err = listScenarios(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
