package scenarioworld_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// loadYAML posts a scenario document as the body of POST /_sandbox/scenarios.
func loadYAML(t *testing.T, srv *sandboxtest.Server, doc string) *sandboxtest.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/_sandbox/scenarios", bytes.NewBufferString(doc))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/yaml")
	return srv.Send(req)
}

// TestRuleAnswersInsteadOfTheCall: a loaded rule answers the operation it
// names with the error it gives, the number of times it allows; the
// scenario is listed, and once deleted its rule no longer applies.
func TestRuleAnswersInsteadOfTheCall(t *testing.T) {
	srv := apitest.NewServer(t)
	r := loadYAML(t, srv, `
name: flaky-account
rules:
  - name: down
    match: {operation: accountGet}
    respond: {status: 409, error_name: conflict, error_msg: "Try again."}
    times: 2
`)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	for range 2 {
		e := apitest.ErrorOf(t, srv.Do(http.MethodGet, "/v3/account", nil))
		assert.Equal(t, "conflict", e.Name)
		assert.Equal(t, "Try again.", e.Msg)
	}
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status, "times: 2")

	var list struct {
		Scenarios []struct {
			Name string `json:"name"`
		} `json:"scenarios"`
		Library []string `json:"library"`
	}
	srv.Control(http.MethodGet, "/scenarios", nil, &list)
	require.Len(t, list.Scenarios, 1)
	assert.Equal(t, "flaky-account", list.Scenarios[0].Name)
	assert.Contains(t, list.Library, "happy-path")

	r = srv.Do(http.MethodDelete, "/_sandbox/scenarios/flaky-account", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Control(http.MethodGet, "/scenarios", nil, &list)
	assert.Empty(t, list.Scenarios)
}

// TestReadyScenarioLoadsByName, and a rule it sets takes effect.
func TestReadyScenarioLoadsByName(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/_sandbox/scenarios?name=rate-limited", nil)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	for range 3 {
		require.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	}
	e := apitest.ErrorOf(t, srv.Do(http.MethodGet, "/v3/account", nil))
	assert.Equal(t, "exceeded_rate", e.Name)
}

// TestLoadErrors: a document that does not load is refused with the
// error_path of its key, and loads nothing.
func TestLoadErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct{ doc, path string }{
		{"name: x\nrules:\n  - name: r\n    match: {operation: noSuchOperation}\n    respond: {status: 409, error_name: conflict}\n", "rules[0][match][operation]"},
		{"name: x\nrules:\n  - name: r\n    respond: {status: 409, error_name: no_such_error}\n", "rules[0][respond][error_name]"},
	} {
		e := apitest.ErrorOf(t, loadYAML(t, srv, tc.doc))
		assert.Equal(t, "bad_request", e.Name)
		assert.Equal(t, tc.path, e.Path, e.Msg)
	}
	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/scenarios?name=no-such", nil))
	assert.Equal(t, "name", e.Path, e.Msg)
	e = apitest.ErrorOf(t, srv.Do(http.MethodPost, "/_sandbox/scenarios", nil))
	assert.Contains(t, e.Msg, "happy-path", "an empty body lists the ready scenarios")
	var list struct {
		Scenarios []any `json:"scenarios"`
	}
	srv.Control(http.MethodGet, "/scenarios", nil, &list)
	assert.Empty(t, list.Scenarios)
}

// TestSeedStateRefusals: a seeded state the request cannot reach is
// refused at the request's state key, in words for the scenario's author:
// the signer's own refusal, or the phase the request is in.
func TestSeedStateRefusals(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct{ name, doc, want string }{
		{"a decline the request does not allow",
			"name: x\nseed:\n  signature_requests:\n    - ref: r\n      state: declined\n      body: {test_mode: true, signers: [{name: A, email_address: a@example.com}]}\n",
			"decline as signer "},
		{"no signer left to decline",
			"name: x\nseed:\n  signature_requests:\n    - ref: r\n      state: declined\n      actions: [{signer: 0, do: sign}]\n      body: {test_mode: true, allow_decline: true, signers: [{name: A, email_address: a@example.com}]}\n",
			"no signer can decline (the request is "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := apitest.ErrorOf(t, loadYAML(t, srv, tc.doc))
			assert.Equal(t, "bad_request", e.Name)
			assert.Contains(t, e.Msg, "seed.signature_requests[0].state: "+tc.want)
		})
	}
}
