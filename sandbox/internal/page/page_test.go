package page

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// messagesOf returns the messages a page's script posts, in order, and
// what it answers the library's cancel request with.
func messagesOf(t *testing.T, script string) ([]embMsg, string) {
	t.Helper()
	m := regexp.MustCompile(`var msgs = (.*);\n`).FindStringSubmatch(script)
	require.NotNil(t, m, script)
	var msgs []embMsg
	require.NoError(t, json.Unmarshal([]byte(m[1]), &msgs))
	a := regexp.MustCompile(`post\(\{type: "([^"]+)"\}\)`).FindStringSubmatch(script)
	require.NotNil(t, a, script)
	return msgs, a[1]
}

// TestEmbeddedScripts: the three states of a page speak the protocol of
// hellosign-embedded: a live page initializes and answers cancel with
// cancel; a finished one posts its action then finish, and answers cancel
// with finish; an unusable one posts only an error.
func TestEmbeddedScripts(t *testing.T) {
	msgs, answer := messagesOf(t, string(EmbeddedLive(map[string]any{"signatureId": "s1"})))
	assert.Equal(t, []embMsg{{Type: "hellosign:initialize", Payload: map[string]any{"signatureId": "s1"}}}, msgs)
	assert.Equal(t, "hellosign:userCancelRequest", answer)

	msgs, answer = messagesOf(t, string(EmbeddedDone(MsgSign, map[string]any{"signatureId": "s1"})))
	assert.Equal(t, []embMsg{
		{Type: MsgSign, Payload: map[string]any{"signatureId": "s1"}},
		{Type: "hellosign:userFinishRequest"},
	}, msgs)
	assert.Equal(t, "hellosign:userFinishRequest", answer)

	msgs, answer = messagesOf(t, string(EmbeddedError(410, "s1")))
	assert.Equal(t, []embMsg{{Type: "hellosign:error", Payload: map[string]any{"code": 410.0, "signatureId": "s1"}}}, msgs)
	assert.Equal(t, "hellosign:userFinishRequest", answer)
	msgs, _ = messagesOf(t, string(EmbeddedError(404, "")))
	assert.Equal(t, map[string]any{"code": 404.0}, msgs[0].Payload, "no signatureId when none is known")
}

// TestEmbeddedScriptEscapesUserText: text a user typed (a decline reason)
// cannot close the script element or open another.
func TestEmbeddedScriptEscapesUserText(t *testing.T) {
	reason := `</script><script>alert(1)</script> & <!--`
	s := string(EmbeddedDone(MsgDecline, map[string]any{"reason": reason}))
	assert.Equal(t, 1, strings.Count(s, "</script>"), s)
	assert.NotContains(t, s, "<!--")
	msgs, _ := messagesOf(t, s)
	assert.Equal(t, reason, msgs[0].Payload["reason"], "the library still receives the text as typed")
}

// newHost is a pipeline with two worlds seeded from the fixtures.
func newHost(t *testing.T) (*api.Host, *world.World, *world.World) {
	t.Helper()
	set, err := fixtureload.Load(fixtures.FS)
	require.NoError(t, err)
	h := api.NewHost(api.HostConfig{
		Log: slog.New(slog.DiscardHandler), Fixtures: set, Reg: api.NewRegistry(),
		Budget: state.NewBudget(0), Client: http.DefaultClient, Seed: "page-test",
	})
	h.NewRouter()
	a, err := h.NewWorld(api.WorldSpec{ID: "default", Seed: "page-test", Mode: world.ClockFake})
	require.NoError(t, err)
	h.SetDefaultWorld(a)
	b, err := h.CreateWorld(world.ClockFake, a.Now())
	require.NoError(t, err)
	t.Cleanup(func() {
		for _, w := range h.Worlds() {
			w.Close()
		}
	})
	return h, a, b
}

// TestWorldFor: a page URL's world is the world it names when that world
// holds the page's object, else the first world that does (a URL kept in
// an export imported elsewhere), else the named world, which answers.
func TestWorldFor(t *testing.T) {
	h, a, b := newHost(t)
	require.NoError(t, b.Store.Update(func(tx *state.Txn) error {
		return state.Put(tx, state.TableAccounts, &model.Account{ID: "only-in-b", Email: "b@example.com", EmailKey: "b@example.com"})
	}))
	fixtureAccount := h.FirstAccountID()
	inBoth := HoldsRow[model.Account](state.TableAccounts, fixtureAccount)
	inB := HoldsRow[model.Account](state.TableAccounts, "only-in-b")
	nowhere := HoldsRow[model.Account](state.TableAccounts, "nobody")

	assert.Same(t, a, WorldFor(h, a.ID, inBoth), "the named world holds it")
	assert.Same(t, b, WorldFor(h, b.ID, inBoth), "the named world holds it")
	assert.Same(t, b, WorldFor(h, a.ID, inB), "the world that holds it")
	assert.Same(t, b, WorldFor(h, "gone", inB), "a world that no longer exists")
	assert.Same(t, a, WorldFor(h, a.ID, nowhere), "nobody holds it: the named world answers")
	assert.Nil(t, WorldFor(h, "gone", nowhere))
}
