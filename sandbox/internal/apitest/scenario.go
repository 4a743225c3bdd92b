package apitest

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Scenarios: load them into a world, list them, and send what they act on.

// ScenarioList is GET /_sandbox/scenarios.
type ScenarioList struct {
	Scenarios []struct {
		Name   string         `json:"name"`
		Source string         `json:"source"`
		Seeded map[string]any `json:"seeded"`
		Rules  []struct {
			ID      string `json:"id"`
			Effect  string `json:"effect"`
			Matched int    `json:"matched"`
			Fired   int    `json:"fired"`
		} `json:"rules"`
	} `json:"scenarios"`
	Accounts []struct {
		AccountID    string `json:"account_id"`
		EmailAddress string `json:"email_address"`
		APIKey       string `json:"api_key"`
	} `json:"accounts"`
	Library []string `json:"library"`
}

// LoadScenario posts a scenario file to the world of key.
func LoadScenario(t *testing.T, srv *sandboxtest.Server, key, doc string) *sandboxtest.Response {
	t.Helper()
	return srv.DoAs(key, http.MethodPost, sandbox.ControlPrefix+"/scenarios?source=test.yaml", doc)
}

// ScenarioServer is a test server whose answers are checked against the official
// description except injected 5xx ones (an injected 503 is outside the
// statuses the description lists).
func ScenarioServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	t.Helper()
	return NewCheckedServer(t, true, opts...)
}

// LoadScenarioOK loads a scenario file into the world of key, failing t
// unless it is accepted.
func LoadScenarioOK(t *testing.T, srv *sandboxtest.Server, key, doc string) {
	t.Helper()
	r := LoadScenario(t, srv, key, doc)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
}

// Scenarios lists the scenarios, accounts and library of the world of key.
func Scenarios(t *testing.T, srv *sandboxtest.Server, key string) ScenarioList {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/scenarios", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out ScenarioList
	require.NoError(t, r.JSON(&out))
	return out
}

// QuickSend sends a small test-mode request as key and returns its id and
// signature ids.
func QuickSend(t *testing.T, srv *sandboxtest.Server, key, title string, signers ...string) (string, []string) {
	t.Helper()
	var list []map[string]any
	for i, s := range signers {
		list = append(list, map[string]any{"name": "Signer " + strconv.Itoa(i), "email_address": s})
	}
	r := srv.DoAs(key, http.MethodPost, "/v3/signature_request/send", map[string]any{
		"title": title, "test_mode": true, "signers": list, "file_urls": []string{"https://example.com/doc.pdf"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr := r.Map()["signature_request"].(map[string]any)
	var sigs []string
	for _, s := range sr["signatures"].([]any) {
		sigs = append(sigs, s.(map[string]any)["signature_id"].(string))
	}
	return sr["signature_request_id"].(string), sigs
}

// RepeatStatuses sends the same call n times and returns the statuses.
func RepeatStatuses(t *testing.T, srv *sandboxtest.Server, n int, method, path string) []int {
	t.Helper()
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, srv.Do(method, path, nil).Status)
	}
	return out
}
