package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// newHost makes a Host that serves only what register adds, with its
// default world seeded from the fixtures: the pipeline works without the
// facade and without any resource package.
func newHost(t *testing.T, register func(r *api.Registry)) *api.Host {
	t.Helper()
	set, err := fixtureload.Load(fixtures.FS)
	require.NoError(t, err)
	reg := api.NewRegistry()
	register(reg)
	h := api.NewHost(api.HostConfig{
		Log: slog.New(slog.DiscardHandler), Fixtures: set, Reg: reg,
		Budget: state.NewBudget(0), Client: http.DefaultClient, Seed: "api-test",
	})
	h.NewRouter()
	def, err := h.NewWorld(api.WorldSpec{ID: "default", Seed: "api-test", Mode: world.ClockFake})
	require.NoError(t, err)
	h.SetDefaultWorld(def)
	t.Cleanup(func() {
		for _, w := range h.Worlds() {
			w.Close()
		}
	})
	return h
}

// TestHostServesWhatItsRegistryHolds: an operation a test registers is
// routed, authenticated and answered; one it does not register answers
// the official "not implemented" error, and a wrong key 401.
func TestHostServesWhatItsRegistryHolds(t *testing.T) {
	h := newHost(t, func(r *api.Registry) {
		r.Handle("accountGet", func(c *api.Call) (any, error) {
			return map[string]string{"account_id": c.Account.ID, "world": c.World.ID}, nil
		})
	})
	key := state.PrimaryKeyOf(h.DefaultWorld().Store.Read(), h.FirstAccountID())
	do := func(method, path, user string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		req.SetBasicAuth(user, "")
		rec := httptest.NewRecorder()
		h.Router().ServeHTTP(rec, req)
		return rec
	}

	rec := do(http.MethodGet, "/v3/account", key)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var got map[string]string
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &got))
	assert.Equal(t, map[string]string{"account_id": h.FirstAccountID(), "world": "default"}, got)

	rec = do(http.MethodGet, "/v3/team", key)
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code, "an operation nobody registered: %s", rec.Body.String())
	assert.Contains(t, rec.Body.String(), `"error_name":"method_not_supported"`)

	rec = do(http.MethodGet, "/v3/account", "not-a-key")
	assert.Equal(t, http.StatusUnauthorized, rec.Code, rec.Body.String())
}

// TestHostWorldRegistry: worlds are listed in creation order, found by id,
// and a dropped world is gone from both.
func TestHostWorldRegistry(t *testing.T) {
	h := newHost(t, func(*api.Registry) {})
	w, err := h.CreateWorld(world.ClockFake, h.DefaultWorld().Now())
	require.NoError(t, err)
	assert.Equal(t, []*world.World{h.DefaultWorld(), w}, h.Worlds())
	assert.Same(t, w, h.World(w.ID))
	h.DropWorld(w)
	assert.Nil(t, h.World(w.ID))
	assert.Equal(t, []*world.World{h.DefaultWorld()}, h.Worlds())
}
