package scenarioworld_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func keyOf(t *testing.T, l apitest.ScenarioList, email string) string {
	t.Helper()
	for _, a := range l.Accounts {
		if a.EmailAddress == email {
			return a.APIKey
		}
	}
	t.Fatalf("no account %s", email)
	return ""
}

func TestScenarioLoadListDelete(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: outage\nrules:\n  - {match: {operation: accountGet}, respond: {status: 503}}\n")

	l := apitest.Scenarios(t, srv, srv.APIKey)
	require.Len(t, l.Scenarios, 1)
	assert.Equal(t, "outage", l.Scenarios[0].Name)
	assert.Equal(t, "test.yaml", l.Scenarios[0].Source)
	assert.Equal(t, "respond", l.Scenarios[0].Rules[0].Effect)
	assert.Contains(t, l.Library, "happy-path")
	assert.Equal(t, srv.APIKey, keyOf(t, l, "owner@sandbox.example"))

	assert.Equal(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/account", nil).Status)

	// The same name twice is a conflict; the first stays.
	r := apitest.LoadScenario(t, srv, srv.APIKey, "name: outage\n")
	assert.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)

	r = srv.Do(http.MethodDelete, sandbox.ControlPrefix+"/scenarios/outage", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	assert.Empty(t, apitest.Scenarios(t, srv, srv.APIKey).Scenarios)
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodDelete, sandbox.ControlPrefix+"/scenarios/outage", nil).Status)

	// A ready scenario loads by name.
	r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/scenarios?name=quota-exhausted", nil)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Equal(t, 0.0, srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)["quotas"].(map[string]any)["api_signature_requests_left"])
}

func TestScenarioRefusalsNameFileLineAndKey(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct{ name, doc, want string }{
		{"unknown key", "name: x\nrulez: []\n", `test.yaml:2:1: rulez: unknown field "rulez"`},
		{"unknown operation", "name: x\nrules:\n  - match: {operation: signatureRequestSnd}\n    gone: true\n",
			`test.yaml:3:13: rules[0].match.operation: unknown operation "signatureRequestSnd"`},
		{"unknown event", "name: x\nrules:\n  - match: {event: template_made}\n    callback: {fault: reject}\n",
			`test.yaml:3:13: rules[0].match.event: unknown event type "template_made"`},
		{"unknown error name", "name: x\nrules:\n  - respond: {error_name: teapot}\n", `test.yaml:3:15: rules[0].respond.error_name: unknown error_name "teapot"`},
		{"bad configuration", "name: x\nconfig:\n  rate_limit: {limit: 0}\n", `test.yaml:3:16: config.rate_limit.limit: rate_limit.limit must be at least 1`},
		{"unknown configuration key", "name: x\nconfig:\n  send_delay: 1s\n", `test.yaml:3:3: config.send_delay: unknown configuration key send_delay`},
		{"a seeded body the API refuses", "name: x\nseed:\n  signature_requests:\n    - ref: r\n      body:\n        signers:\n          - {name: A, email_address: not-an-address}\n",
			`test.yaml:7:23: seed.signature_requests[0].body.signers[0].email_address: invalid_recipient:`},
		{"an account that does not exist", "name: x\nseed:\n  signature_requests:\n    - ref: r\n      as: nobody@example.com\n      body: {signers: [{name: A, email_address: a@example.com}]}\n",
			`test.yaml:5:7: seed.signature_requests[0].as: no account nobody@example.com in this world`},
		{"a state the request cannot reach", "name: x\nseed:\n  signature_requests:\n    - ref: r\n      state: declined\n      body: {signers: [{name: A, email_address: a@example.com}]}\n",
			`test.yaml:5:7: seed.signature_requests[0].state: decline as signer`},
		{"a window that has already ended", "name: x\nrules:\n  - gone: true\n    window: {until: '2020-01-01T00:00:00Z'}\n",
			`test.yaml:4:14: rules[0].window.until: the window has already ended`},
		{"a recording", "name: x\nrecording: {host: h}\n", `test.yaml:2:1: recording: this is a recorded session`},
		{"aliases", "name: &n x\nsteps:\n  - call: *n\n", `aliases (*name) are not supported`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := apitest.LoadScenario(t, srv, srv.APIKey, tc.doc)
			require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
			e := scErr(t, r.Body)
			assert.Equal(t, "bad_request", e.Name)
			assert.Contains(t, e.Msg, tc.want)
		})
	}
	assert.Empty(t, apitest.Scenarios(t, srv, srv.APIKey).Scenarios)
}

// A scenario that fails late (its last seeded request) leaves the world
// exactly as it was: no account, template, request, event, e-mail, job
// or rule of it remains.
func TestScenarioBrokenSeedLeavesNothing(t *testing.T) {
	srv := apitest.NewServer(t)
	before := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, before.Status)
	doc := `name: broken
config: {send_processing_delay: 1s}
seed:
  accounts:
    - {email_address: new@example.com, team: true, callback_url: "http://127.0.0.1:1/cb"}
  templates:
    - ref: nda
      body: {title: NDA, signer_roles: [{name: Client}], form_fields_per_document: []}
  signature_requests:
    - ref: ok
      body: {title: Fine, test_mode: true, signers: [{name: A, email_address: a@example.com}]}
      state: completed
    - ref: bad
      body: {title: Broken, signers: [{name: B, email_address: b@example.com}]}
      actions: [{signer: 0, do: decline}]
rules:
  - {match: {operation: accountGet}, respond: {status: 503}}
`
	r := apitest.LoadScenario(t, srv, srv.APIKey, doc)
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	assert.Contains(t, scErr(t, r.Body).Msg, "test.yaml:15:17: seed.signature_requests[1].actions[0]: decline as signer")
	after := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	assert.JSONEq(t, string(before.Body), string(after.Body), "the world changed")
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
}

func TestScenarioSeedsObjectsInTheirStates(t *testing.T) {
	srv := apitest.NewServer(t)
	doc := `name: seeded
seed:
  accounts:
    - {ref: member, email_address: member@example.com, name: New Member, team: true, quotas: {templates_left: 3}}
    - {email_address: outsider@elsewhere.example, quotas: {api_signature_requests_left: 7}}
  api_keys:
    - {ref: second, account: owner@sandbox.example, name: CI key}
  api_apps:
    - {ref: app, name: Seeded app, domains: [example.com], oauth: {callback_url: "https://example.com/oauth"}}
  templates:
    - ref: nda
      body:
        title: Seeded NDA
        signer_roles: [{name: Client}]
        form_fields_per_document:
          - {document_index: 0, api_id: sig, name: Signature, type: signature, x: 100, y: 600, width: 200, height: 30, required: true, signer: 0, page: 1}
      documents: [{name: nda.txt, text: "Keep it secret."}]
    - ref: broken
      state: error
      body: {title: Broken, signer_roles: [{name: Client}], form_fields_per_document: []}
  signature_requests:
    - {ref: sent, body: {title: Sent, test_mode: true, signers: [{name: A, email_address: a@example.com}]}}
    - ref: viewed
      body: {title: Viewed, test_mode: true, signers: [{name: A, email_address: a@example.com}, {name: B, email_address: b@example.com}]}
      actions: [{signer: 0, do: view}, {signer: b@example.com, do: sign}]
    - {ref: completed, state: completed, body: {title: Completed, test_mode: true, signers: [{name: A, email_address: a@example.com, order: 0}, {name: B, email_address: b@example.com, order: 1}]}}
    - {ref: declined, state: declined, message: No thanks, body: {title: Declined, test_mode: true, allow_decline: true, signers: [{name: A, email_address: a@example.com}]}}
    - {ref: canceled, state: canceled, body: {title: Canceled, test_mode: true, signers: [{name: A, email_address: a@example.com}]}}
    - {ref: expired, state: expired, body: {title: Expired, test_mode: true, signers: [{name: A, email_address: a@example.com}]}}
    - {ref: failed, state: error_file, message: Unreadable scan, body: {title: Failed, test_mode: true, signers: [{name: A, email_address: a@example.com}]}}
    - {ref: processing, state: processing, body: {title: Processing, test_mode: true, signers: [{name: A, email_address: a@example.com}]}}
    - ref: fromtpl
      operation: signatureRequestSendWithTemplate
      templates: [nda]
      body: {test_mode: true, signers: [{role: Client, name: C, email_address: c@example.com}]}
      as: owner@sandbox.example
`
	apitest.LoadScenarioOK(t, srv, srv.APIKey, doc)
	l := apitest.Scenarios(t, srv, srv.APIKey)
	seeded := l.Scenarios[0].Seeded
	id := func(ref string) string {
		return seeded[ref].(map[string]any)["signature_request_id"].(string)
	}
	get := func(ref string) map[string]any {
		r := srv.Do(http.MethodGet, "/v3/signature_request/"+id(ref), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", ref, r.Body)
		return r.Map()["signature_request"].(map[string]any)
	}
	sigStatus := func(sr map[string]any, i int) string {
		return sr["signatures"].([]any)[i].(map[string]any)["status_code"].(string)
	}
	assert.Equal(t, "awaiting_signature", sigStatus(get("sent"), 0))
	v := get("viewed")
	assert.NotNil(t, v["signatures"].([]any)[0].(map[string]any)["last_viewed_at"])
	assert.Equal(t, "signed", sigStatus(v, 1))
	assert.Equal(t, true, get("completed")["is_complete"])
	d := get("declined")
	assert.Equal(t, true, d["is_declined"])
	assert.Equal(t, "No thanks", d["signatures"].([]any)[0].(map[string]any)["decline_reason"])
	assert.Equal(t, http.StatusGone, srv.Do(http.MethodGet, "/v3/signature_request/"+id("canceled"), nil).Status)
	assert.Equal(t, "expired", sigStatus(get("expired"), 0))
	f := get("failed")
	assert.Equal(t, true, f["has_error"])
	assert.Equal(t, "error_file", sigStatus(f, 0))
	assert.Equal(t, "awaiting_signature", sigStatus(get("processing"), 0))
	fromTpl := get("fromtpl")
	assert.Equal(t, "Seeded NDA", fromTpl["title"])
	assert.Equal(t, []any{seeded["nda"].(map[string]any)["template_id"]}, fromTpl["template_ids"])

	// Completed requests are ready to download at once.
	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id("completed"), nil)
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	// Templates: ready, and failed.
	tpl := srv.Do(http.MethodGet, "/v3/template/"+seeded["nda"].(map[string]any)["template_id"].(string), nil)
	assert.Equal(t, http.StatusOK, tpl.Status, "%s", tpl.Body)
	r = srv.Do(http.MethodGet, "/v3/template/files/"+seeded["broken"].(map[string]any)["template_id"].(string), nil)
	assert.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)

	// The history is the same as the API's: events in order.
	var cb struct {
		Callbacks []struct {
			EventType string `json:"event_type"`
		} `json:"callbacks"`
	}
	srv.Control(http.MethodGet, "/callbacks?object_id="+id("completed"), nil, &cb)
	var types []string
	for _, c := range cb.Callbacks {
		types = append(types, c.EventType)
	}
	assert.Equal(t, []string{"signature_request_sent", "signature_request_signed", "signature_request_signed",
		"signature_request_all_signed", "signature_request_downloadable"}, types)

	// Accounts: the new team member works with its own key and is in the
	// team; quotas were set; the extra key works; the app exists.
	member := keyOf(t, l, "member@example.com")
	acct := srv.DoAs(member, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, acct.Status, "%s", acct.Body)
	a := acct.Map()["account"].(map[string]any)
	assert.Equal(t, "d25187dc137f35c88bc80ec8c3ffbdb17b5eb873", a["team_id"])
	assert.Equal(t, 3.0, a["quotas"].(map[string]any)["templates_left"])
	out := srv.DoAs(keyOf(t, l, "outsider@elsewhere.example"), http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)
	assert.Equal(t, 7.0, out["quotas"].(map[string]any)["api_signature_requests_left"])
	second := seeded["second"].(map[string]any)["api_key"].(string)
	assert.Equal(t, http.StatusOK, srv.DoAs(second, http.MethodGet, "/v3/account", nil).Status)
	app := srv.Do(http.MethodGet, "/v3/api_app/"+seeded["app"].(map[string]any)["client_id"].(string), nil)
	assert.Equal(t, http.StatusOK, app.Status, "%s", app.Body)
}

func TestScenarioWorldsByNameInlineAndRefused(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	create := func(body any) *sandboxtest.Response {
		return srv.DoAs("", http.MethodPost, sandbox.ControlPrefix+"/worlds", body)
	}
	r := create(map[string]any{"scenarios": []string{"quota-exhausted", "name: inline\nrules:\n  - {match: {operation: teamGet}, respond: {status: 503}}\n"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	key := r.Map()["api_key"].(string)
	l := apitest.Scenarios(t, srv, key)
	require.Len(t, l.Scenarios, 2)
	assert.Equal(t, "scenarios/quota-exhausted.yaml", l.Scenarios[0].Source)
	assert.Equal(t, "inline", l.Scenarios[1].Name)
	assert.Equal(t, http.StatusServiceUnavailable, srv.DoAs(key, http.MethodGet, "/v3/team", nil).Status)
	// The default world has none of it.
	assert.Empty(t, apitest.Scenarios(t, srv, srv.APIKey).Scenarios)
	assert.NotEqual(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/team", nil).Status)

	var health struct {
		Worlds int `json:"worlds"`
	}
	srv.Control(http.MethodGet, "/health", nil, &health)
	for _, bad := range []string{"no-such-scenario", "name: x\nbogus: 1\n"} {
		r = create(map[string]any{"scenarios": []string{"happy-path", bad}})
		require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
		e := scErr(t, r.Body)
		assert.Equal(t, "scenarios[1]", e.Path)
	}
	var after struct {
		Worlds int `json:"worlds"`
	}
	srv.Control(http.MethodGet, "/health", nil, &after)
	assert.Equal(t, health.Worlds, after.Worlds, "a refused world is not kept")
}

func TestScenarioOptions(t *testing.T) {
	doc := []byte("name: opt\nrules:\n  - {match: {operation: accountGet}, respond: {error_name: maintenance}}\n")
	srv := apitest.ScenarioServer(t, sandbox.WithScenario("opt.yaml", doc))
	r := srv.Do(http.MethodGet, "/v3/account", nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.Status)
	assert.Equal(t, "maintenance", scErr(t, r.Body).Name)

	path := filepath.Join(t.TempDir(), "file.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: file\nrules:\n  - {exhaust_quota: {quota: templates}}\n"), 0o644))
	srv = apitest.ScenarioServer(t, sandbox.WithScenarioFile(path))
	a := srv.Do(http.MethodGet, "/v3/account", nil).Map()["account"].(map[string]any)
	assert.Equal(t, 0.0, a["quotas"].(map[string]any)["templates_left"])

	_, err := sandbox.New(sandbox.WithScenario("bad.yaml", []byte("name: bad\nrules:\n  - {gone: true, times: 0}\n")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.yaml:3:18: rules[0].times: times must be at least 1")
}

// Rules are world data: exported and imported with the world (counters
// included) and gone after a reset.
func TestScenarioRulesTravelWithTheWorld(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: twice\nrules:\n  - {match: {operation: accountGet}, respond: {status: 503}, times: 2}\n")
	assert.Equal(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	st := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, st.Status)
	assert.True(t, strings.Contains(string(st.Body), `"scenario_rules"`))

	srv.Control(http.MethodPost, "/reset", nil, nil)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	assert.Empty(t, apitest.Scenarios(t, srv, srv.APIKey).Scenarios)

	r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", st.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	l := apitest.Scenarios(t, srv, srv.APIKey)
	require.Len(t, l.Scenarios, 1)
	assert.Equal(t, 1, l.Scenarios[0].Rules[0].Fired)
	assert.Equal(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/account", nil).Status, "one firing left")
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
}

// apiErr is the official error envelope's content.
type apiErr struct{ Name, Msg, Path string }

func scErr(t *testing.T, body []byte) apiErr {
	t.Helper()
	n, m, p := apitest.ErrorParts(t, body)
	return apiErr{n, m, p}
}

// GET /_sandbox/scenarios lists a scenario's rules in the order they were
// written, also past ten (ids name#10 and name#2 sort the other way).
func TestScenarioRulesListInWrittenOrder(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	doc := "name: many\nrules:\n"
	for i := 0; i < 12; i++ {
		doc += "  - {match: {operation: accountGet}, latency: 1s}\n"
	}
	apitest.LoadScenarioOK(t, srv, srv.APIKey, doc)
	var ids []string
	for _, r := range apitest.Scenarios(t, srv, srv.APIKey).Scenarios[0].Rules {
		ids = append(ids, r.ID)
	}
	want := make([]string, 12)
	for i := range want {
		want[i] = "many#" + strconv.Itoa(i)
	}
	assert.Equal(t, want, ids)
}
