package scenarioworld_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func TestRuleRespondWithTimesAndAfter(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: flaky
rules:
  - name: second-and-third
    match: {operation: accountGet}
    respond: {status: 503}
    after: 1
    times: 2
`)
	assert.Equal(t, []int{200, 503, 503, 200, 200}, apitest.RepeatStatuses(t, srv, 5, http.MethodGet, "/v3/account"))
	r := apitest.Scenarios(t, srv, srv.APIKey).Scenarios[0].Rules[0]
	assert.Equal(t, 5, r.Matched)
	assert.Equal(t, 2, r.Fired)
	// Other operations are not matched.
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/team", nil).Status)
}

func TestRuleRespondShapes(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: shapes
rules:
  - match: {method: GET, path: /v3/team}
    respond: {status: 500, error_name: unavailable, error_msg: Try later, error_path: team_id}
  - match: {operation: apiAppList}
    respond: {status: 429}
  - match: {operation: templateList}
    respond: {error_name: payment_required}
`)
	r := srv.Do(http.MethodGet, "/v3/team", nil)
	assert.Equal(t, http.StatusInternalServerError, r.Status)
	assert.Equal(t, apiErr{"unavailable", "Try later", "team_id"}, scErr(t, r.Body))
	r = srv.Do(http.MethodGet, "/v3/api_app/list", nil)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, apiErr{"exceeded_rate", "Too many requests.", ""}, scErr(t, r.Body))
	r = srv.Do(http.MethodGet, "/v3/template/list", nil)
	assert.Equal(t, http.StatusPaymentRequired, r.Status)
	assert.Equal(t, "payment_required", scErr(t, r.Body).Name)
}

func TestRuleMatchesFieldsSignersAccountsAndIDs(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: matches
rules:
  - match: {operation: signatureRequestSend, fields: {title: {regex: "^Urgent"}}}
    respond: {status: 400, error_msg: no urgent ones}
  - match: {operation: signatureRequestSend, signer: "*@blocked.example"}
    respond: {status: 403}
  - match: {operation: accountGet, account: "teammate@*"}
    respond: {status: 503}
`)
	send := func(title, signer string) *sandboxtest.Response {
		return srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{"title": title, "test_mode": true,
			"signers": []map[string]any{{"name": "S", "email_address": signer}}, "file_urls": []string{"https://example.com/a.pdf"}})
	}
	assert.Equal(t, http.StatusBadRequest, send("Urgent: sign", "a@example.com").Status)
	assert.Equal(t, http.StatusOK, send("Routine", "a@example.com").Status)
	assert.Equal(t, http.StatusForbidden, send("Routine", "x@BLOCKED.example").Status)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	assert.Equal(t, http.StatusServiceUnavailable, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/account", nil).Status)

	// Multipart bodies with JSON-text parts (the SDKs' form) match too.
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", map[string]any{
		"title": "Routine", "test_mode": true, "signers": []map[string]any{{"name": "S", "email_address": "y@blocked.example"}},
	}, apitest.PDFFile{Name: "a.pdf", Data: apitest.PagesPDF(apitest.Portrait)})
	assert.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
}

func TestRuleGoneAndWindow(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	id, _ := apitest.QuickSend(t, srv, srv.APIKey, "Doomed", "a@example.com")
	other, _ := apitest.QuickSend(t, srv, srv.APIKey, "Fine", "a@example.com")
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: gone
rules:
  - match: {object_id: "`+id+`"}
    gone: true
  - match: {operation: teamGet}
    respond: {status: 503}
    window: {from: 1h, until: 2h}
`)
	for _, p := range []string{"/v3/signature_request/", "/v3/signature_request/files/"} {
		r := srv.Do(http.MethodGet, p+id, nil)
		assert.Equal(t, http.StatusGone, r.Status)
		assert.Equal(t, "deleted", scErr(t, r.Body).Name)
	}
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/signature_request/"+other, nil).Status)

	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/team", nil).Status)
	srv.Advance(time.Hour)
	assert.Equal(t, http.StatusServiceUnavailable, srv.Do(http.MethodGet, "/v3/team", nil).Status)
	srv.Advance(time.Hour)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/team", nil).Status)
}

// Latency waits on the world's clock: on a real clock the call is slower;
// on a fake clock it is not (waiting for a clock nobody moves would hang
// the call), and the rule's counter shows it applied.
func TestRuleLatency(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	doc := "name: slow\nrules:\n  - {match: {operation: accountGet}, latency: 1s}\n"
	apitest.LoadScenarioOK(t, srv, srv.APIKey, doc)
	start := time.Now()
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	// Blocking on a fake clock nobody moves would never end; a generous
	// bound tells that from a slow machine.
	assert.Less(t, time.Since(start), 30*time.Second, "a fake clock does not block")
	assert.Equal(t, 1, apitest.Scenarios(t, srv, srv.APIKey).Scenarios[0].Rules[0].Fired)

	r := srv.DoAs("", http.MethodPost, sandbox.ControlPrefix+"/worlds", map[string]any{"clock": "real"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	key := r.Map()["api_key"].(string)
	apitest.LoadScenarioOK(t, srv, key, doc)
	start = time.Now()
	assert.Equal(t, http.StatusOK, srv.DoAs(key, http.MethodGet, "/v3/account", nil).Status)
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "a real clock waits")
}

func TestRulesStayInTheirWorld(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	w := srv.NewWorld()
	apitest.LoadScenarioOK(t, srv, w.APIKey, "name: mine\nrules:\n  - {match: {operation: accountGet}, respond: {status: 503}}\n")
	assert.Equal(t, http.StatusServiceUnavailable, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Status)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
	assert.Empty(t, apitest.Scenarios(t, srv, srv.APIKey).Scenarios)
	// The same name loads in another world.
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: mine\n")
}

// A rule that cannot be evaluated (here: an imported row whose effect has
// no parameters) is skipped, never a panic or a 5xx.
func TestRuleThatCannotBeEvaluatedIsSkipped(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: odd\nrules:\n  - {match: {operation: accountGet}, respond: {status: 503}}\n")
	st := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	body := strings.Replace(string(st.Body), `"respond":{"status":503}`, `"respond":null`, 1)
	require.NotEqual(t, string(st.Body), body)
	r := srv.Do(http.MethodPut, sandbox.ControlPrefix+"/state", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status)
}

func TestRuleFailTemplateOnce(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: one-failure
rules:
  - match: {operation: templateCreate, fields: {title: {regex: "NDA"}}}
    fail_template: {}
    times: 1
`)
	first := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	second := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	srv.Advance(apitest.TemplatePrepDelay)
	var cb struct {
		Callbacks []struct {
			EventType    string `json:"event_type"`
			ObjectID     string `json:"object_id"`
			EventMessage string `json:"event_message"`
		} `json:"callbacks"`
	}
	srv.Control(http.MethodGet, "/callbacks?event_type=template_error", nil, &cb)
	require.Len(t, cb.Callbacks, 1)
	assert.Equal(t, first, cb.Callbacks[0].ObjectID)
	assert.Equal(t, "The template could not be created.", cb.Callbacks[0].EventMessage)
	srv.Control(http.MethodGet, "/callbacks?event_type=template_created", nil, &cb)
	require.Len(t, cb.Callbacks, 1)
	assert.Equal(t, second, cb.Callbacks[0].ObjectID)
}

// Ordered signers acting by rule: each acts the rule's delay after their
// turn came (checked every minute while it has not).
func TestRuleSignerActionsFollowTheOrder(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: auto\nrules:\n  - {signer_action: {do: sign, after: 1h}}\n")
	r := srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{"title": "Auto", "test_mode": true,
		"signers":   []map[string]any{{"name": "A", "email_address": "a@example.com", "order": 1}, {"name": "B", "email_address": "b@example.com", "order": 0}},
		"file_urls": []string{"https://example.com/a.pdf"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	status := func() []string {
		sr := srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil).Map()["signature_request"].(map[string]any)
		var out []string
		for _, s := range sr["signatures"].([]any) {
			out = append(out, s.(map[string]any)["status_code"].(string))
		}
		return out
	}
	srv.Advance(59 * time.Minute)
	assert.Equal(t, []string{"awaiting_signature", "awaiting_signature"}, status())
	srv.Advance(2 * time.Minute) // B (order 0) signs an hour after sending
	assert.Equal(t, []string{"awaiting_signature", "signed"}, status())
	srv.Advance(59 * time.Minute) // A's turn came at 1h; it signs an hour later (to the minute)
	assert.Equal(t, []string{"awaiting_signature", "signed"}, status())
	srv.Advance(3 * time.Minute)
	assert.Equal(t, []string{"signed", "signed"}, status())
}

func TestRuleCallbackRejectsAnswers(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	recv := sandboxtest.NewReceiver(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: reject
rules:
  - match: {event: callback_test}
    callback: {fault: reject}
    times: 1
`)
	r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": recv.URL})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.WaitCallbacks()
	cbs := srv.Callbacks(sandboxtest.EventType("callback_test"))
	require.Len(t, cbs, 1)
	require.NotEmpty(t, cbs[0].Deliveries)
	d := cbs[0].Deliveries[0]
	require.NotEmpty(t, d.Attempts)
	assert.Contains(t, d.Attempts[0].Error, "scenario rule reject#0")
	assert.Equal(t, 1, len(recv.Deliveries()), "the receiver was contacted")
	srv.AdvanceAndWait(time.Hour)
	assert.Equal(t, "delivered", srv.Callbacks(sandboxtest.EventType("callback_test"))[0].State)
}

// Deleting a scenario stops the effects its rules scheduled.
func TestDeletingAScenarioCancelsItsPendingEffects(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, "name: bounces\nrules:\n  - {bounce: {after: 1h}}\n")
	id, _ := apitest.QuickSend(t, srv, srv.APIKey, "Bounce me", "a@example.com")
	srv.Advance(time.Minute)
	r := srv.Do(http.MethodDelete, sandbox.ControlPrefix+"/scenarios/bounces", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(2 * time.Hour)
	assert.Empty(t, srv.Callbacks(sandboxtest.ObjectID(id), sandboxtest.EventType("signature_request_email_bounce")))
}

// Field matchers keep numbers exact once stored: a rule matching an
// integer beyond float64's 53 bits matches that integer, not its nearest
// float.
func TestRuleFieldNumbersStayExact(t *testing.T) {
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: exact
rules:
  - match: {operation: signatureRequestSend, fields: {metadata.n: 12345678901234567}}
    respond: {status: 400, error_msg: that one}
`)
	send := func(n string) int {
		r := srv.Do(http.MethodPost, "/v3/signature_request/send", `{"title": "N", "test_mode": true, "metadata": {"n": `+n+`},
			"signers": [{"name": "S", "email_address": "s@example.com"}], "file_urls": ["https://example.com/a.pdf"]}`)
		return r.Status
	}
	assert.Equal(t, http.StatusBadRequest, send("12345678901234567"))
	assert.Equal(t, http.StatusOK, send("12345678901234568"))
}
