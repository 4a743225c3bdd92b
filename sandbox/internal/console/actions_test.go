package console_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

type consoleAction struct {
	Name    string `json:"name"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
}

type signerActions struct {
	ID      string          `json:"signature_id"`
	Status  string          `json:"status_code"`
	Actions []consoleAction `json:"actions"`
}

// actionBodies are what the console posts for each signer action.
var actionBodies = map[string]any{
	"view": nil, "sign": map[string]any{}, "decline": map[string]any{"reason": "no"},
	"reassign": map[string]any{"name": "Dee", "email_address": "dee@example.com"}, "bounce": nil,
}

// TestConsoleOffersWhatTheControlPlaneTakes: for signers in every state
// a request goes through (processing, awaiting, not their turn, signed,
// declined, canceled; decline and reassign allowed or not), each action
// the console offers is taken by the control plane, and each it disables
// is refused with the very message the console shows. Each action is tried
// on the world as it was, put back from its exported state afterwards.
func TestConsoleOffersWhatTheControlPlaneTakes(t *testing.T) {
	srv := newServer(t)
	plain, _ := sendRequest(t, srv, srv.APIKey, simpleFields("Plain", "ann"), "a.pdf")
	ordered := func(title string) string {
		f := simpleFields(title, "bob")
		f["signers[0][order]"] = "0"
		f["signers[1][name]"], f["signers[1][email_address]"], f["signers[1][order]"] = "Cyd", "cyd@example.com", "1"
		f["allow_decline"], f["allow_reassign"] = "1", "1"
		id, _ := sendRequest(t, srv, srv.APIKey, f, "b.pdf")
		return id
	}
	turns, oneSigned, declined, canceled := ordered("Turns"), ordered("One signed"), ordered("Declined"), ordered("Canceled")
	srv.Advance(time.Minute)
	processing := ordered("Processing")

	signers := func(id string) []signerActions {
		var d struct {
			Signers []signerActions `json:"signers"`
		}
		getJSON(t, srv, "", base+"/api/signature_requests/"+id, http.StatusOK, &d)
		return d.Signers
	}
	srv.Control(http.MethodPost, "/signatures/"+signers(oneSigned)[0].ID+"/sign", map[string]any{}, nil)
	srv.Control(http.MethodPost, "/signatures/"+signers(declined)[0].ID+"/decline", map[string]any{"reason": "no"}, nil)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+canceled, nil).Status)
	srv.Advance(time.Minute)

	offered := map[string]bool{}
	for _, id := range []string{plain, turns, oneSigned, declined, canceled, processing} {
		for _, s := range signers(id) {
			require.Len(t, s.Actions, 5, "every signer action has a verdict")
			for _, a := range s.Actions {
				offered[a.Name+"/"+boolWord(a.Allowed)] = true
				checkAction(t, srv, s.ID, a)
			}
		}
	}
	for _, name := range []string{"view", "sign", "decline", "reassign", "bounce"} {
		assert.True(t, offered[name+"/allowed"], "some signer may %s", name)
		assert.True(t, offered[name+"/refused"], "some signer may not %s", name)
	}

	// The case: a signer who signed has nothing left to do.
	for _, a := range signers(oneSigned)[0].Actions {
		assert.False(t, a.Allowed, "%s after signing", a.Name)
		assert.NotEmpty(t, a.Reason)
	}
}

func boolWord(b bool) string {
	if b {
		return "allowed"
	}
	return "refused"
}

// checkAction posts the action as the console would and compares the
// answer with the console's verdict, then puts the world back.
func checkAction(t *testing.T, srv *sandboxtest.Server, sigID string, a consoleAction) {
	t.Helper()
	saved := srv.DoAs("", http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, saved.Status)
	r := srv.DoAs("", http.MethodPost, "/_sandbox/signatures/"+sigID+"/"+a.Name, actionBodies[a.Name])
	if a.Allowed {
		assert.Equal(t, http.StatusOK, r.Status, "%s %s is offered, so the control plane takes it: %s", a.Name, sigID, r.Body)
	} else {
		var e struct {
			Error struct {
				Msg string `json:"error_msg"`
			} `json:"error"`
		}
		assert.NotEqual(t, http.StatusOK, r.Status, "%s %s is disabled (%s), so the control plane refuses it", a.Name, sigID, a.Reason)
		if assert.NoError(t, json.Unmarshal(r.Body, &e), "%s", r.Body) {
			assert.Equal(t, a.Reason, e.Error.Msg, "the console shows the control plane's reason for %s", a.Name)
		}
	}
	back := srv.DoAs("", http.MethodPut, "/_sandbox/state", saved.Body)
	require.Equal(t, http.StatusOK, back.Status, "%s", back.Body)
}

// TestConsoleClockActions: a fake clock can be advanced; a real one
// cannot, and the console has the control plane's reason.
func TestConsoleClockActions(t *testing.T) {
	srv := newServer(t)
	var out struct {
		Actions []consoleAction `json:"actions"`
	}
	getJSON(t, srv, "", base+"/api/world_actions", http.StatusOK, &out)
	require.Len(t, out.Actions, 1)
	assert.Equal(t, consoleAction{Name: "advance", Allowed: true}, out.Actions[0])

	var real struct {
		APIKey string `json:"api_key"`
	}
	made := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"clock": "real"})
	require.Equal(t, http.StatusCreated, made.Status)
	require.NoError(t, json.Unmarshal(made.Body, &real))
	getJSON(t, srv, real.APIKey, base+"/api/world_actions", http.StatusOK, &out)
	require.False(t, out.Actions[0].Allowed)
	r := srv.DoAs(real.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "1h"})
	assert.Equal(t, http.StatusConflict, r.Status)
	var e struct {
		Error struct {
			Msg string `json:"error_msg"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &e))
	assert.Equal(t, e.Error.Msg, out.Actions[0].Reason)
}

// TestConsoleSearchSpeaksTheListAPI: the request search takes the list
// API's query (fields, AND/OR, flags) and status: and id:, and refuses
// what the list API refuses with a 400 naming q.
func TestConsoleSearchSpeaksTheListAPI(t *testing.T) {
	srv := newServer(t)
	a, sigsA := sendRequest(t, srv, srv.APIKey, simpleFields("Alpha lease", "ann"), "lease.pdf")
	b, _ := sendRequest(t, srv, srv.APIKey, simpleFields("Beta NDA", "bob"), "nda.pdf")
	srv.Advance(time.Minute)
	srv.Control(http.MethodPost, "/signatures/"+sigsA[0]+"/sign", map[string]any{}, nil)
	find := func(q string) []string {
		var p requestPage
		getJSON(t, srv, "", base+"/api/signature_requests?q="+url.QueryEscape(q), http.StatusOK, &p)
		return p.ids()
	}
	assert.Equal(t, []string{a}, find("status:signed"))
	assert.Equal(t, []string{a}, find("status:complete"))
	assert.Equal(t, []string{b}, find("status:awaiting_signature"))
	assert.Empty(t, find("status:sign"), "a status is a whole word")
	assert.Equal(t, []string{a}, find("complete:true"))
	assert.Equal(t, []string{b}, find("complete:false"))
	assert.Equal(t, []string{b}, find("to:bob@example.com"))
	assert.Equal(t, []string{b, a}, find("title:Alpha OR title:Beta"))
	assert.Equal(t, []string{a}, find("filename:lease AND from:me"))
	assert.Equal(t, []string{a}, find("id:"+sigsA[0]))
	assert.Equal(t, []string{a}, find("signed"), "a free term finds status words too")

	r := srv.DoAs("", http.MethodGet, base+"/api/signature_requests?q="+url.QueryEscape("colour:blue"), nil)
	require.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, string(r.Body), `"error_path":"q"`)
	assert.Contains(t, string(r.Body), "unknown field")
}
