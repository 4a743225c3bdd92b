package recording_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// recordSession makes a few dozen calls of every kind: API calls that
// succeed and fail, JSON and multipart bodies, binary downloads, signer
// actions, clock moves, and the event and e-mail logs.
func recordSession(t *testing.T, srv *sandboxtest.Server) int {
	t.Helper()
	calls := 0
	do := func(method, path string, body any) *sandboxtest.Response {
		t.Helper()
		calls++
		return srv.Do(method, path, body)
	}
	do(http.MethodGet, "/v3/account", nil)
	do(http.MethodPut, "/v3/account", map[string]any{"callback_url": "http://127.0.0.1:1/never"})
	do(http.MethodGet, "/v3/team", nil)
	do(http.MethodGet, "/v3/api_app/list", nil)
	var ids, sigs []string
	for i := 0; i < 3; i++ {
		calls++
		r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", map[string]any{
			"title": fmt.Sprintf("Recorded %d", i), "test_mode": true, "metadata": map[string]any{"n": i},
			"signers": []map[string]any{{"name": "Ann", "email_address": "ann@example.com", "order": 0}, {"name": "Ben", "email_address": "ben@example.com", "order": 1}},
		}, apitest.PDFFile{Name: "doc.pdf", Data: apitest.PagesPDF(apitest.Portrait, apitest.Landscape)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		sr := r.Map()["signature_request"].(map[string]any)
		ids = append(ids, sr["signature_request_id"].(string))
		for _, s := range sr["signatures"].([]any) {
			sigs = append(sigs, s.(map[string]any)["signature_id"].(string))
		}
	}
	do(http.MethodPost, "/v3/signature_request/send", map[string]any{"title": "Bad"}) // 400
	do(http.MethodGet, "/v3/signature_request/0000000000000000000000000000000000000000", nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"seconds": 10})
	do(http.MethodGet, "/v3/signature_request/list?page_size=2", nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[1]+"/sign", nil) // not Ben's turn: 409
	do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[0]+"/view", nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[0]+"/sign", nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/signatures/"+sigs[1]+"/sign", nil)
	do(http.MethodPost, "/v3/signature_request/remind/"+ids[1], map[string]any{"email_address": "ann@example.com"})
	do(http.MethodPost, "/v3/signature_request/remind/"+ids[1], map[string]any{"email_address": "ann@example.com"}) // too soon
	do(http.MethodPost, "/v3/signature_request/cancel/"+ids[2], nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"duration": "1m"})
	do(http.MethodGet, "/v3/signature_request/"+ids[2], nil) // 410
	do(http.MethodGet, "/v3/signature_request/files/"+ids[0], nil)
	do(http.MethodGet, "/v3/signature_request/files_as_data_uri/"+ids[0], nil)
	do(http.MethodGet, "/v3/signature_request/files/"+ids[0]+"?file_type=zip", nil)
	do(http.MethodPost, "/v3/signature_request/update/"+ids[1], map[string]any{"signature_id": sigs[2], "email_address": "ann2@example.com"})
	do(http.MethodGet, sandbox.ControlPrefix+"/emails", nil)
	do(http.MethodPost, sandbox.ControlPrefix+"/callbacks/wait", nil) // deliveries are asynchronous
	do(http.MethodGet, sandbox.ControlPrefix+"/callbacks?object_id="+ids[0], nil)
	do(http.MethodGet, sandbox.ControlPrefix+"/clock", nil)
	calls++
	tid := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	do(http.MethodGet, "/v3/template/files/"+tid, nil) // 409 while preparing
	do(http.MethodPost, sandbox.ControlPrefix+"/clock/advance", map[string]any{"duration": "1h"})
	do(http.MethodGet, "/v3/template/"+tid, nil)
	do(http.MethodGet, "/v3/template/list", nil)
	do(http.MethodPost, "/v3/signature_request/send_with_template", map[string]any{"template_ids": []string{tid}, "test_mode": true,
		"signers": []map[string]any{{"role": "Client", "name": "C", "email_address": "c@example.com"}, {"role": "Witness", "name": "W", "email_address": "w@example.com"}},
		"ccs":     []map[string]any{{"role": "Manager", "email_address": "m@example.com"}}})
	do(http.MethodGet, "/v3/account?unknown=1", nil)
	do(http.MethodGet, "/v3/signature_request/list", nil)
	return calls
}

func runDoc(t *testing.T, name string, doc []byte) sandbox.RunResult {
	t.Helper()
	var out strings.Builder
	res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{{Name: name, Data: doc}}, sandbox.RunOptions{Out: &out})
	require.Len(t, res, 1)
	if !res[0].OK() {
		t.Logf("run output:\n%s", out.String())
	}
	return res[0]
}

// A recorded session of a few dozen calls replays identically: every
// answer of the replay has the recorded status and the same bytes (the
// recording starts from the world's exported state, so IDs and times come
// out the same).
func TestRecordReplaysIdentically(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/start", map[string]any{"name": "session"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusConflict, srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/start", nil).Status)
	calls := recordSession(t, srv)
	var st struct {
		Recording bool `json:"recording"`
		Calls     int  `json:"calls"`
	}
	srv.Control(http.MethodGet, "/record", nil, &st)
	assert.True(t, st.Recording)
	assert.Equal(t, calls, st.Calls)
	assert.GreaterOrEqual(t, calls, 30)

	r = srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/stop?format=yaml", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "application/yaml", r.Header.Get("Content-Type"))
	doc := r.Body
	assert.Equal(t, http.StatusConflict, srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/stop", nil).Status)

	assertNoCredentials(t, doc, worldCredentials(t, srv, srv.APIKey)...)
	res := runDoc(t, "session.yaml", doc)
	require.True(t, res.OK(), "%+v", res)
	assert.Equal(t, calls, res.Steps)

	// A deliberately changed expectation fails, naming the field.
	changed := strings.Replace(string(doc), "original_title: Recorded 1", "original_title: Recorded one", 1)
	require.NotEqual(t, string(doc), changed)
	res = runDoc(t, "changed.yaml", []byte(changed))
	require.False(t, res.OK())
	require.Len(t, res.Failures, 1)
	assert.Contains(t, res.Failures[0], "step 6: POST /v3/signature_request/send\n  body.signature_request.original_title: want \"Recorded one\", got \"Recorded 1\"")
}

// The recording proxy in front of a second sandbox writes a file that
// replays green (against a fresh in-process sandbox).
func TestRecordingProxyReplaysGreen(t *testing.T) {
	upstream := apitest.ScenarioServer(t)
	out := filepath.Join(t.TempDir(), "proxied.yaml")
	proxy, err := sandbox.NewRecordingProxy(upstream.URL, out, nil)
	require.NoError(t, err)
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)
	// A client of the proxy: a test server's helpers, pointed at the proxy.
	client := apitest.NewControlCheckedServer(t)
	client.URL, client.APIKey = ps.URL, upstream.APIKey
	client.Client = &http.Client{Timeout: time.Minute}
	calls := recordSession(t, client)
	// The proxy records calls that reach no world too.
	require.Equal(t, http.StatusUnauthorized, client.DoAs("", http.MethodGet, "/v3/account", nil).Status)
	calls++
	require.NoError(t, proxy.Err())
	assert.Equal(t, calls, proxy.Calls())
	doc, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "source: upstream "+upstream.URL)
	assert.Contains(t, string(doc), "format: signsandbox-state/1", "a sandbox upstream gives the start state")
	assertNoCredentials(t, doc, worldCredentials(t, upstream, upstream.APIKey)...)
	res := runDoc(t, "proxied.yaml", doc)
	assert.True(t, res.OK(), "%+v", res)
}

// signsandbox --record FILE: the default world's session is written to the
// file as it goes, and replays.
func TestWithRecordingWritesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boot.json")
	srv := apitest.ScenarioServer(t, sandbox.WithOfflineFiles(), sandbox.WithRecording(path))
	srv.Do(http.MethodGet, "/v3/account", nil)
	id, sigs := apitest.QuickSend(t, srv, srv.APIKey, "At boot", "a@example.com")
	srv.Advance(time.Minute)
	srv.Control(http.MethodPost, "/signatures/"+sigs[0]+"/sign", nil, nil)
	srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil)
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(strings.TrimSpace(string(doc)), "{"), "a .json file is written as JSON")
	assertNoCredentials(t, doc, worldCredentials(t, srv, srv.APIKey)...)
	res := runDoc(t, "boot.json", doc)
	assert.True(t, res.OK(), "%+v", res)
	assert.Equal(t, 5, res.Steps)
}

// A session recorded against an upstream that is not a sandbox (the real
// service) has no start state: its replay runs as the new world's first
// account and reports every difference by field, as a fidelity check.
func TestForeignRecordingIsAFidelityCheck(t *testing.T) {
	upstream := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	// The "real service": the upstream sandbox's API without its control
	// plane, and its own API key that the replay world does not know.
	realKey := upstream.APIKey
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, sandbox.ControlPrefix) {
			http.NotFound(w, r)
			return
		}
		upstream.Sandbox.ServeHTTP(w, r)
	}))
	t.Cleanup(foreign.Close)
	out := filepath.Join(t.TempDir(), "real.yaml")
	proxy, err := sandbox.NewRecordingProxy(foreign.URL, out, nil)
	require.NoError(t, err)
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)
	client := apitest.NewControlCheckedServer(t)
	client.URL, client.APIKey, client.Client = ps.URL, realKey, &http.Client{Timeout: time.Minute}
	require.Equal(t, http.StatusOK, client.Do(http.MethodGet, "/v3/account", nil).Status)
	apitest.QuickSend(t, client, realKey, "Fidelity", "f@example.com")

	doc, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.NotContains(t, string(doc), "format: signsandbox-state/1")
	assertNoCredentials(t, doc, realKey)
	res := runDoc(t, "real.yaml", doc)
	require.False(t, res.OK())
	require.Len(t, res.Failures, 1, "the account answers the same; the new request differs in its ids")
	assert.Contains(t, res.Failures[0], "step 2: POST /v3/signature_request/send")
	assert.Contains(t, res.Failures[0], "body.signature_request.signature_request_id: want ")
}

// Against a target that holds the recorded world's keys, the replay of a
// recording that kept its credentials is refused with a clear way out;
// one that left them out (the default) gives the target's new world keys
// of its own, and replays there.
func TestReplayAgainstATargetHoldingTheKeys(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	record := func(body map[string]any) []byte {
		srv.Control(http.MethodPost, "/record/start", body, nil)
		srv.Do(http.MethodGet, "/v3/account", nil)
		r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/stop", nil)
		require.Equal(t, http.StatusOK, r.Status)
		return r.Body
	}
	kept := record(map[string]any{"keep_credentials": true})
	res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{{Name: "r.json", Data: kept}}, sandbox.RunOptions{Target: srv.URL})
	require.False(t, res[0].OK())
	assert.Contains(t, res[0].Error, "replay the recording in-process, without --target")
	assert.True(t, runDoc(t, "r.json", kept).OK())

	left := record(map[string]any{})
	assertNoCredentials(t, left, worldCredentials(t, srv, srv.APIKey)...)
	res = sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{{Name: "r.json", Data: left}}, sandbox.RunOptions{Target: srv.URL})
	assert.True(t, res[0].OK(), "%+v", res[0])
	assert.True(t, runDoc(t, "r.json", left).OK())
}
